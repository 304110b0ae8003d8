/*
 * Helpers shared by the target_*.c files (not part of the public contract).
 */
#ifndef BENCHRACK_TARGET_PRIVATE_H
#define BENCHRACK_TARGET_PRIVATE_H

#include "debug/target.h"

/* The halt is over: forget what was known about it. */
void br_target_forget_halt(br_target_t *t);

/* A resume (packet "s..." a step, else a continue) was sent: the core runs. */
void br_target_note_resume(br_target_t *t, const char *packet);

/* Records a stop reply: halted, its PC when expedited, its process id. */
void br_target_note_stop(br_target_t *t, const rsp_stop_reply_t *stop);

/* BR_OK for "OK"; BR_ERR_PROTOCOL for an empty reply (not supported);
 * BR_ERR_TARGET quoting anything else. what names the request. */
br_status_t br_target_expect_ok(const char *what, const char *reply, size_t len, br_error_t *err);

/* The index of an inserted breakpoint at address, or -1. */
int br_target_breakpoint_index(const br_target_t *t, uint32_t address);

/* Formats the Z/z packet for a breakpoint into buf. */
void br_target_breakpoint_packet(char *buf, size_t cap, char op, br_breakpoint_kind_t kind,
                                 uint32_t address);

/* Formats the Z3/z3 packet for a read watchpoint of len bytes at address
 * into buf. */
void br_target_watchpoint_packet(char *buf, size_t cap, char op, uint32_t address, uint32_t len);

/* Formats an m request for len bytes at address into buf. */
void br_target_read_packet(char *buf, size_t cap, uint32_t address, size_t len);

/* The bytes of the next m request of a bulk read with left bytes to go (the
 * server's and the flavour's limits, never a reply of the length the flavour
 * breaks). */
size_t br_target_read_chunk_len(const br_target_t *t, size_t left);

/* The most bytes one hex M request of a fill carries on this connection
 * (0: the packet size allows none). */
size_t br_target_fill_chunk(const br_target_t *t);

/* An M request writing n bytes of value at address, allocated (the caller
 * frees it); n <= br_target_fill_chunk. */
char *br_target_fill_request(uint32_t address, uint8_t value, size_t n);

/* Checks the reply to a write (M, X) of n bytes at address: BR_OK for
 * "OK", BR_ERR_TARGET for an error reply (E nn: the server refused it),
 * BR_ERR_PROTOCOL for anything else (a reply out of step); the message names
 * the bytes and quotes the reply. */
br_status_t br_target_write_reply(const char *reply, size_t rlen, uint32_t address, size_t n,
                                  br_error_t *err);

/* Decodes an m reply of n bytes into out; BR_ERR_TARGET for E nn. */
br_status_t br_target_read_reply(const char *reply, size_t rlen, uint32_t address, size_t n,
                                 uint8_t *out, br_error_t *err);

/* The register number p/P use for core register index i (0..16). */
uint32_t br_target_regnum(const br_target_t *t, unsigned i);

/* Decodes a p reply holding a 32-bit register. */
br_status_t br_target_reg_reply(const char *reply, size_t len, unsigned regno, uint32_t *value,
                                br_error_t *err);

#endif
