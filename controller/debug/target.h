/*
 * What measuring needs from a debug connection, independent of the server in
 * front of the board: run control, memory, registers, breakpoints, reset,
 * load. Built on rsp/client; server differences come from a br_flavour_t row.
 *
 * One concept per file, each calling only the ones before it: target.c
 * (the halted state and what every request shares), target_regs.c
 * (registers), target_monitor.c (monitor commands, reset), target_break.c
 * (breakpoints: kind per region, comparator budget; read watchpoints),
 * target_recover.c (replies put back in step), target_mem.c (memory in
 * PacketSize chunks), target_run.c (resume, step, halt, step-overs, stop
 * replies, File-I/O, the pipelined per-halt batch), target_attach.c (attach,
 * detach, kill), target_load.c (ELF load and verify).
 *
 * Every function returns BR_OK or fills err; a reply timeout ends the
 * session (rsp/client.h), so a function that failed with BR_ERR_TIMEOUT
 * leaves a target that refuses everything but br_target_close.
 */
#ifndef BENCHRACK_TARGET_TARGET_H
#define BENCHRACK_TARGET_TARGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "rsp/client.h"
#include "rsp/stop_reply.h"
#include "debug/flavour.h"
#include "debug/memory_map.h"
#include "debug/tdesc.h"

#define BR_TARGET_MAX_BREAKPOINTS 16U
/* Bytes of the marker read after each round of a bulk read. */
#define BR_TARGET_MARKER_WORD 4U
/* The most marker bytes kept (8..16 make the resync read). */
#define BR_TARGET_MARKER_MAX 16U
#define BR_TARGET_REG_PC 15U
#define BR_TARGET_REG_LR 14U
#define BR_TARGET_REG_SP 13U
/* Index of xPSR in br_target_regs_t.r (after r0..r15). */
#define BR_TARGET_REG_XPSR 16U
#define BR_TARGET_CORE_REGS 17U

typedef enum br_breakpoint_kind {
	BR_BREAKPOINT_SOFTWARE = 0, /* Z0: the server patches the instruction */
	BR_BREAKPOINT_HARDWARE = 1, /* Z1: an FPB comparator (needed in flash) */
	BR_BREAKPOINT_AUTO = 2,     /* chosen from the memory map (flash, rom: hardware) */
} br_breakpoint_kind_t;

/* Receives what the firmware prints: console 'O' packets (fd 1) and
 * semihosting writes through File-I/O (fd 1 or 2). */
typedef void (*br_target_output_fn)(void *ctx, int fd, const char *text, size_t len);

typedef struct br_target_breakpoint {
	uint32_t address;
	br_breakpoint_kind_t kind; /* SOFTWARE or HARDWARE, never AUTO */
} br_target_breakpoint_t;

typedef struct br_target {
	rsp_client_t *rsp; /* the connection (rsp/client.h); NULL once closed */
	const br_flavour_t *flavour;
	br_target_breakpoint_t breakpoints[BR_TARGET_MAX_BREAKPOINTS];
	size_t breakpoint_count;
	/* Memory regions: from the server's memory map at attach, or set by the
	 * board (br_target_set_memory_map). Empty: every breakpoint software. */
	br_memory_map_t memory_map;
	bool memory_map_from_server;
	/* FPB comparators for hardware breakpoints; 0: not known (unlimited as
	 * far as set-up checks go: the server then has the last word). */
	unsigned hw_breakpoint_limit;
	br_tdesc_t tdesc; /* register numbers from target.xml */
	uint32_t pid;     /* the process of the last stop (multiprocess) */
	bool running;     /* a resume was sent and no stop has come yet */
	bool stepping;    /* that resume was a single step */
	bool pc_known;    /* pc holds the PC of the current halt */
	uint32_t pc;
	int x_packet;    /* binary writes: -1 not probed, 0 refused, 1 accepted */
	int qcrc_packet; /* qCRC: -1 not probed, 0 unsupported, 1 supported */
	br_target_output_fn output;
	void *output_ctx;
	bool exited; /* the server reported the program exited (W/X) */
	int exit_code;
	unsigned long halts; /* stops seen, for per-halt figures */
	/* A part of the loaded image the firmware never changes (br_target_set_marker):
	 * proves bulk reads and puts an out-of-step reply stream back in step. */
	uint32_t marker_address;
	uint8_t marker[BR_TARGET_MARKER_MAX];
	size_t marker_len;      /* 0: none set */
	rsp_stop_reply_t *stop; /* the last stop reply (owned; large, so not on the stack) */
} br_target_t;

/* The core registers r0..r15 and xPSR. */
typedef struct br_target_regs {
	uint32_t r[BR_TARGET_CORE_REGS];
} br_target_regs_t;

/* ---- target_attach.c ---------------------------------------------------- */

/*
 * Takes over a connected transport, negotiates features (no-ack mode when
 * offered), runs the flavour's scan command and vAttach when it has one, asks
 * for the halt reason once ('?': on QEMU it clears breakpoints, so only
 * here), reads the target description (register numbers; on QEMU p/P work
 * only after it) and the server's memory map when offered. On failure the
 * transport is closed.
 */
br_status_t br_target_attach(br_target_t *t, const rsp_transport_t *transport,
                             const br_flavour_t *flavour, br_error_t *err);

/*
 * br_target_attach, waiting up to first_answer_ms (0: the client's default)
 * for the server's first answer, to qSupported: a server benchrack has just
 * launched may take longer than a running one to answer it when the host is
 * loaded (a dozen QEMUs starting at once). Every later request has the
 * client's default timeout again.
 */
br_status_t br_target_attach_within(br_target_t *t, const rsp_transport_t *transport,
                                    const br_flavour_t *flavour, int first_answer_ms,
                                    br_error_t *err);

/* Closes the connection without detaching (the server may be gone). Safe to
 * call twice. */
void br_target_close(br_target_t *t);

/*
 * Removes every breakpoint benchrack inserted, detaches (D, or D;pid once
 * multiprocess is negotiated: QEMU refuses plain D then) and closes. The
 * target runs on under the server. Closes even when detaching fails.
 */
br_status_t br_target_detach(br_target_t *t, br_error_t *err);

/*
 * Kills the program ('k') and closes. A server that ends with it (QEMU
 * replies W00 and exits) or closes the connection is a success.
 */
br_status_t br_target_kill(br_target_t *t, br_error_t *err);

/* ---- target.c ----------------------------------------------------------- */

/*
 * Uses map for breakpoint kinds and loads instead of (or where the server
 * gave none, in place of) the server's memory map: the board's regions.
 */
void br_target_set_memory_map(br_target_t *t, const br_memory_map_t *map);

/* Sets the number of FPB comparators (from the board or br_cortex_m_fpb). */
void br_target_set_hw_breakpoint_limit(br_target_t *t, unsigned comparators);

/* ---- target_mem.c ------------------------------------------------------- */

/*
 * Reads len bytes at address into buf, in chunks the server accepts (its
 * PacketSize, the flavour's read cap, never a reply of the length the
 * flavour breaks), up to RSP_PIPELINE_EACH_MAX - 1 chunks in flight in one write
 * where the server allows pipelining. With a marker set (br_target_set_marker)
 * and the core halted, each round ends with a read of the marker's first
 * word: when it does not match, the replies were out of step (an extra one,
 * a missing one) — br_target_recover, then the round again (at most three
 * times). An error reply (E nn) is BR_ERR_TARGET naming the address: never
 * zeros.
 */
br_status_t br_target_mem_read(br_target_t *t, uint32_t address, void *buf, size_t len,
                               br_error_t *err);

/*
 * Fills len bytes at address with value (a stack paint). With a marker set
 * (br_target_set_marker), on a halted core, where the flavour pipelines:
 * rounds of up to 15 hex M writes in flight and the marker read after them,
 * one write each, a round whose replies fell out of step put back in step and
 * written again (it is idempotent). Elsewhere br_target_mem_write's path. An
 * error reply is BR_ERR_TARGET naming the address.
 */
br_status_t br_target_mem_fill(br_target_t *t, uint32_t address, uint8_t value, size_t len,
                               br_error_t *err);

/*
 * Writes len bytes from buf at address, in chunks the server accepts: binary
 * X where the server accepts it (probed once with an empty X), hex M
 * elsewhere. An error reply is BR_ERR_TARGET naming the address.
 */
br_status_t br_target_mem_write(br_target_t *t, uint32_t address, const void *buf, size_t len,
                                br_error_t *err);

/*
 * Sets the marker: len (BR_TARGET_MARKER_WORD..BR_TARGET_BATCH_READ_MAX)
 * bytes at address that the loaded image holds and the firmware never
 * changes. Its first word proves bulk reads; all of it puts a reply stream
 * back in step (br_target_recover).
 */
void br_target_set_marker(br_target_t *t, uint32_t address, const uint8_t *bytes, size_t len);

/* Reads one 32-bit little-endian word at address. */
br_status_t br_target_read_u32(br_target_t *t, uint32_t address, uint32_t *value, br_error_t *err);

/* Writes one 32-bit little-endian word at address. */
br_status_t br_target_write_u32(br_target_t *t, uint32_t address, uint32_t value, br_error_t *err);

/*
 * Asks the server for the qCRC of len bytes at address. Returns BR_OK with
 * *crc, BR_ERR_PROTOCOL when the server does not offer qCRC (remembered:
 * t->qcrc_packet becomes 0), BR_ERR_TARGET on an error reply.
 */
br_status_t br_target_mem_crc(br_target_t *t, uint32_t address, uint32_t len, uint32_t *crc,
                              br_error_t *err);

/* ---- target_regs.c ------------------------------------------------------ */

/* Reads core register regno (0..15, 15 = PC; BR_TARGET_REG_XPSR) of the halted core. */
br_status_t br_target_reg_read(br_target_t *t, unsigned regno, uint32_t *value, br_error_t *err);

/* Writes core register regno (as br_target_reg_read) of the halted core. */
br_status_t br_target_reg_write(br_target_t *t, unsigned regno, uint32_t value, br_error_t *err);

/* Reads r0..r15 and xPSR of the halted core. */
br_status_t br_target_regs_read(br_target_t *t, br_target_regs_t *regs, br_error_t *err);

/*
 * The PC of the current halt: from the stop reply when the server sent it,
 * from an earlier read of this halt, or read now (one round trip, cached
 * until the next resume).
 */
br_status_t br_target_pc(br_target_t *t, uint32_t *pc, br_error_t *err);

/* ---- target_break.c ----------------------------------------------------- */

/*
 * The kind a breakpoint at address gets: kind itself unless AUTO; for AUTO,
 * HARDWARE in a flash or rom region of the memory map, SOFTWARE elsewhere.
 */
br_breakpoint_kind_t br_target_breakpoint_kind(const br_target_t *t, uint32_t address,
                                               br_breakpoint_kind_t kind);

/*
 * Checks at set-up, before anything is inserted, that count breakpoints at
 * addresses (with kind, AUTO allowed) fit: at most BR_TARGET_MAX_BREAKPOINTS
 * in all, and no more hardware ones than the FPB has comparators left. Fails
 * with BR_ERR_USAGE saying how many are needed and how many there are.
 */
br_status_t br_target_breakpoints_check(const br_target_t *t, const uint32_t *addresses,
                                        size_t count, br_breakpoint_kind_t kind, br_error_t *err);

/* Inserts a breakpoint at address (Thumb bit cleared); kind as given or AUTO. */
br_status_t br_target_breakpoint_insert(br_target_t *t, uint32_t address, br_breakpoint_kind_t kind,
                                        br_error_t *err);

/* Removes the breakpoint at address (nothing when there is none). */
br_status_t br_target_breakpoint_remove(br_target_t *t, uint32_t address, br_error_t *err);

/* Removes every breakpoint benchrack inserted. */
br_status_t br_target_breakpoint_remove_all(br_target_t *t, br_error_t *err);

/* The number of inserted hardware breakpoints. */
unsigned br_target_hw_breakpoints_used(const br_target_t *t);

/*
 * Inserts (removes) a read watchpoint on len bytes at address (Z3/z3): the
 * core stops after a load from them, the stop reply's reason
 * RSP_STOP_REASON_RWATCH. Not kept in the breakpoint table: the caller
 * removes what it inserted. QEMU's gdbstub implements them (any number);
 * a server that does not answers empty, an error here.
 */
br_status_t br_target_read_watchpoint_insert(br_target_t *t, uint32_t address, uint32_t len,
                                             br_error_t *err);
br_status_t br_target_read_watchpoint_remove(br_target_t *t, uint32_t address, uint32_t len,
                                             br_error_t *err);

/* ---- target_run.c ------------------------------------------------------- */

/*
 * On a halt at the read watchpoint at address (inserted, len bytes), before
 * the load (QEMU stops there on ARM, and a continue stops there again):
 * removes it and steps in one write, waits for the step's stop, inserts it
 * again and continues in one more. Two round trips and the step's stop.
 * The load must not sit on an inserted breakpoint.
 */
br_status_t br_target_read_watchpoint_step_over(br_target_t *t, uint32_t address, uint32_t len,
                                                br_error_t *err);

/*
 * Resumes the halted core. When the PC sits on an inserted breakpoint and
 * the server does not step over it by itself, removes it, steps one
 * instruction and inserts it again first. Returns once the continue is sent.
 */
br_status_t br_target_resume(br_target_t *t, br_error_t *err);

/*
 * Waits up to timeout_ms for the core to stop and returns the stop reply
 * (stop may be NULL). Console output and semihosting writes that arrive
 * meanwhile go to the output callback and are answered. The program exiting
 * is BR_ERR_TARGET (t->exited, t->exit_code set). On timeout the core is
 * still running: the session is over (BR_ERR_TIMEOUT).
 */
br_status_t br_target_wait_stop(br_target_t *t, int timeout_ms, rsp_stop_reply_t *stop,
                                br_error_t *err);

/* Single-steps one instruction and waits for the stop. */
br_status_t br_target_step(br_target_t *t, br_error_t *err);

/*
 * Stops the running core (the 0x03 interrupt) and waits up to timeout_ms for
 * its stop reply. On a core that is already halted, does nothing.
 */
br_status_t br_target_halt(br_target_t *t, int timeout_ms, br_error_t *err);

/*
 * The per-halt fast path: everything one halt needs, then (unless hold) the
 * resume, in one write where the flavour allows (pipelined: no
 * acknowledgement is awaited between them), else one request at a time. In
 * order: read the PC (when read_pc: it checks the halt was where the caller
 * thinks; taken from the stop when the target already knows it), read the
 * core registers regs[0..nregs) into reg_values, read each of reads[0..nreads)
 * (len <= BR_TARGET_BATCH_READ_MAX bytes), read the bulk (bulk_len bytes),
 * fill (fill_len bytes), write (write_len bytes, then the registers
 * wregs[0..nwregs)), remove the breakpoints at
 * remove[0..nremove), insert insert[0..ninsert) (kind AUTO), continue. After
 * a resume the caller calls br_target_wait_stop. The continue must not start
 * from an inserted breakpoint when the server does not step over them: remove
 * the one the core is halted on (alternating two breakpoints) — BR_ERR_USAGE
 * otherwise, before anything is sent.
 *
 * Every reply is checked for its shape (a register's 8 hex digits, a read's
 * 2 * len, "OK"); the values are the caller's to prove (a marker word it
 * knows, a counter read twice). sent tells whether the requests were written:
 * an error after that may mean the reply stream is out of step (an extra or
 * missing reply): br_target_recover puts it back in step, or the session is
 * over. fill_refused (bulk_refused) tells that the error was the server
 * refusing a fill's write (a bulk read's read): an error reply in its place,
 * BR_ERR_TARGET; the stream is in step
 * (t->running says whether the continue went out).
 */
#define BR_TARGET_BATCH_READ_MAX 16U
#define BR_TARGET_BATCH_MAX RSP_PIPELINE_EACH_MAX /* requests in one write */
#define BR_TARGET_BATCH_READS 4U
#define BR_TARGET_BATCH_REGS 12U
/* Bytes of a batch's memory write, and registers it writes. */
#define BR_TARGET_BATCH_WRITE_MAX 64U
#define BR_TARGET_BATCH_WREGS 4U

/* A monitor command in a batch's reads: its text hex-encoded fits one
 * request (qRcmd,HEX). */
#define BR_TARGET_BATCH_MONITOR_MAX 20U

typedef struct br_target_batch_read {
	uint32_t address;
	size_t len;   /* 1 .. BR_TARGET_BATCH_READ_MAX; for a monitor read, buf's size */
	uint8_t *buf; /* out: len bytes; for a monitor read, its console text, NUL-terminated */
	/* Not NULL: instead of memory, a monitor command (qRcmd, at most
	 * BR_TARGET_BATCH_MONITOR_MAX characters) in this place of the write;
	 * its console text (O packets, truncated to fit) lands in buf, and its
	 * final reply must be OK. QEMU's instruction count is read this way. */
	const char *monitor;
} br_target_batch_read_t;

typedef struct br_target_batch {
	bool read_pc;
	uint32_t pc;                         /* out: the PC of the halt, when read_pc */
	unsigned regs[BR_TARGET_BATCH_REGS]; /* core register indexes (BR_TARGET_REG_*) */
	size_t nregs;
	uint32_t reg_values[BR_TARGET_BATCH_REGS]; /* out */
	br_target_batch_read_t reads[BR_TARGET_BATCH_READS];
	size_t nreads;
	const uint32_t *remove;
	size_t nremove;
	const uint32_t *insert;
	size_t ninsert;
	/* Read after the reads (a stack scan): bulk_len bytes at bulk_address
	 * into bulk_buf, in m requests and a read of the marker word after them
	 * (br_target_set_marker) that proves them in step; what the write cannot
	 * carry besides the rest is read first by br_target_mem_read, and all of
	 * it without a marker. 0: none. */
	uint32_t bulk_address;
	size_t bulk_len;
	uint8_t *bulk_buf;
	/* Filled after the reads, before the breakpoint changes (a stack paint,
	 * br_target_mem_fill's M writes, each "OK"): fill_len bytes of fill_value
	 * at fill_address; 0: none. What the write cannot carry besides the rest
	 * is filled first by br_target_mem_fill. */
	uint32_t fill_address;
	uint8_t fill_value;
	size_t fill_len;
	/* Written after the fill, before the breakpoint changes (an instruction
	 * the host executed in the core's place, measure/host_step.h):
	 * write_len (<= BR_TARGET_BATCH_WRITE_MAX) bytes of write_buf at
	 * write_address in one hex M, then core register wregs[i] (BR_TARGET_REG_*)
	 * = wreg_values[i] with P, each answered "OK". A write of the PC moves
	 * the halt: the check that the continue does not start from an inserted
	 * breakpoint looks at the PC written, and with hold the target knows it
	 * as the halt's PC. 0: none. */
	uint32_t write_address;
	const uint8_t *write_buf;
	size_t write_len;
	unsigned wregs[BR_TARGET_BATCH_WREGS];
	uint32_t wreg_values[BR_TARGET_BATCH_WREGS];
	size_t nwregs;
	bool hold;         /* no continue: the core stays halted */
	bool sent;         /* out: the requests were written */
	bool fill_refused; /* out: a write of the fill was refused */
	bool bulk_refused; /* out: a read of the bulk was refused */
} br_target_batch_t;

br_status_t br_target_resume_batch(br_target_t *t, br_target_batch_t *batch, br_error_t *err);

/* One of a batch's reads on its own, as its own request (a memory read, or
 * a monitor command whose text lands in rd->buf). */
br_status_t br_target_batch_read_alone(br_target_t *t, const br_target_batch_read_t *rd,
                                       br_error_t *err);

/*
 * Waits up to timeout_ms for the running core's stop like
 * br_target_wait_stop, but a wait that hears nothing at all is BR_ERR_TIMEOUT
 * with the session intact (the core still runs): for guard halts, which stop
 * a long run on the host's schedule.
 */
br_status_t br_target_poll_stop(br_target_t *t, int timeout_ms, rsp_stop_reply_t *stop,
                                br_error_t *err);

/* ---- target_recover.c --------------------------------------------------- */

/*
 * Puts a reply stream that fell out of step back in step: stops the core if
 * it runs (0x03) and takes its stop reply, dropping any other reply before
 * it; then reads len (8..16) bytes at marker_address, whose contents the
 * caller knows (expected: a part of the loaded image), and drops every reply
 * before the one that matches; then sets again every breakpoint benchrack
 * has booked (removed and inserted: which of them the server holds is not
 * known). Leaves the core halted where it stopped.
 * When the stream cannot be put back in step the session is over (the
 * client's error).
 */
br_status_t br_target_recover(br_target_t *t, uint32_t marker_address, const uint8_t *expected,
                              size_t len, int timeout_ms, br_error_t *err);

/* ---- target_monitor.c --------------------------------------------------- */

/*
 * Runs a monitor command (qRcmd) and collects its text into out (cap bytes,
 * NUL-terminated, truncated to fit; out may be NULL). Understands the three
 * shapes servers answer with: O<hex> packets then OK; O<hex> packets then
 * E<nn> (BR_ERR_TARGET quoting the text); a bare hex result with neither
 * (OpenOCD's `version`, `mdw`). Empty O packets (keepalives) are skipped.
 */
br_status_t br_target_monitor(br_target_t *t, const char *command, char *out, size_t cap,
                              br_error_t *err);

/*
 * Resets the core and leaves it halted, with the flavour's monitor command
 * (QEMU: system_reset, OpenOCD: reset halt). Breakpoints the server keeps
 * stay recorded. A flavour without a reset command is BR_ERR_USAGE.
 */
br_status_t br_target_reset(br_target_t *t, br_error_t *err);

/* ---- target_load.c ------------------------------------------------------ */

typedef struct br_target_load_report {
	size_t segments;
	size_t bytes;
	size_t flash_bytes;      /* written through vFlashWrite */
	bool used_flash_packets; /* vFlashErase/Write/Done */
	bool verified_by_crc;    /* qCRC; false: read back and compared */
} br_target_load_report_t;

/*
 * Loads the loadable segments of the ELF at path (their load addresses):
 * into flash regions with vFlashErase/vFlashWrite/vFlashDone when the server
 * has a memory map with flash, by memory writes elsewhere. report may be NULL.
 */
br_status_t br_target_load(br_target_t *t, const char *path, br_target_load_report_t *report,
                           br_error_t *err);

/* Progress of a load: bytes written so far, of total. */
typedef void (*br_target_load_progress_fn)(void *ctx, size_t done, size_t total);

/* br_target_load, calling progress (when not NULL) after each segment piece. */
br_status_t br_target_load_progress(br_target_t *t, const char *path,
                                    br_target_load_progress_fn progress, void *progress_ctx,
                                    br_target_load_report_t *report, br_error_t *err);

/*
 * Checks that target memory holds the ELF's loadable segments: qCRC where
 * the server offers it, read-back and compare elsewhere. A difference is
 * BR_ERR_TARGET naming the first differing segment. report may be NULL.
 */
br_status_t br_target_verify(br_target_t *t, const char *path, br_target_load_report_t *report,
                             br_error_t *err);

#endif
