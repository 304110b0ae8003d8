/*
 * What differs between gdbservers, as data: one row per server, read by the
 * target layer instead of if-chains on a server name. Every column is a fact
 * about one server's dialect; the rows are in debug/flavour_table.h (adding a
 * flavour is one row there).
 */
#ifndef BENCHRACK_TARGET_FLAVOUR_H
#define BENCHRACK_TARGET_FLAVOUR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "debug/flavour_table.h"

/* The flavours in the order of their rows (debug/flavour_table.h). */
#define BR_FLAVOUR_ENUM_ROW(id, ...) BR_FLAVOUR_##id,
typedef enum br_flavour_id {
	BR_FLAVOUR_ROWS(BR_FLAVOUR_ENUM_ROW) BR_FLAVOUR_COUNT
} br_flavour_id_t;
#undef BR_FLAVOUR_ENUM_ROW

typedef struct br_flavour {
	const char *name;        /* as boards and options name it */
	const char *description; /* "QEMU gdbstub", for reports */
	/* Monitor command (qRcmd) that resets the core and leaves it halted; NULL
	 * when the server has none (reset is then refused, not guessed). */
	const char *reset_command;
	/* Reset and halt (debug/reset_halt.c): the monitor command that resets
	 * the core and leaves it halted at its reset vector; NULL: the generic
	 * ARMv7-M path (DEMCR.VC_CORERESET, then AIRCR.SYSRESETREQ). */
	const char *reset_halt_command;
	/* A reset may put the server's own boot image back into memory (QEMU
	 * 7.2 copies its -kernel image again at each system_reset on microbit,
	 * mps2-an500 and mps2-an505, not on the netduinos' STM32 flash): the
	 * board is reset before an image is loaded over the debug port, never
	 * after, and the loaded image is started from its vector table
	 * (run/image_start.h). false: load, then reset (a real board's reset
	 * keeps its flash and RAM). */
	bool reset_restores_boot_image;
	/* Monitor command that must run before attaching (Black Magic Probe scans
	 * for the target: "swdp_scan"), then vAttach;1; NULL for none. */
	const char *scan_command;
	/* Largest m the server answers in one packet; 0: PacketSize only. */
	uint32_t max_read_bytes;
	/* A reply payload length the server frames with a wrong checksum, every
	 * time (OpenOCD 0.12: 1020 characters); reads are split around it. 0: none. */
	uint32_t broken_reply_chars;
	/* false: continuing from an inserted breakpoint stops again at once with
	 * no progress; the target steps over it (or alternates breakpoints). */
	bool steps_over_breakpoints;
	/* Once multiprocess is negotiated, plain 'D' fails: detach with D;pid. */
	bool detach_needs_pid;
	/* The server takes the next packet without waiting for our '+' (QEMU in
	 * system mode), so requests may be pipelined even in ack mode. */
	bool pipelines_in_ack_mode;
	/* The interrupt byte stops the target before the server reads the next
	 * byte, and an interrupt that finds the target stopped is dropped (QEMU:
	 * its gdbstub stops the VM synchronously on any byte that arrives while
	 * it runs): packets may follow the 0x03 in the same write, and exactly one
	 * stop reply comes before their replies (QEMU 7.2 here, checked on the
	 * installed QEMU by tests/profile/test_interrupt_pipeline.py; QEMU 8.1's
	 * gdbstub, by its source, does the same). false: wait
	 * for the stop reply first, as the GDB manual asks. */
	bool packets_follow_interrupt;
	/* Monitor commands that let the core run, and halt it again, while the
	 * RSP session stays in its halted state, so that packets (memory reads
	 * over the debug port's AP) go on while the core runs: OpenOCD's
	 * "resume" and "halt" (its manual, "Using GDB as a non-intrusive memory
	 * inspector"). NULL: the server cannot read memory of a running core
	 * (QEMU's gdbstub stops the machine on any packet). Used by DWT_PCSR
	 * sampling (profile/pcsr_sampler.h). */
	const char *background_run_command;
	const char *background_halt_command;
	/* Z1 refuses once the FPB's comparators are used up (real hardware);
	 * false: hardware breakpoints are unlimited there and the comparator
	 * count comes from the board. */
	bool limits_hardware_breakpoints;
	/* A SIGTRAP stop after a continue can only be one of benchrack's
	 * breakpoints: a bkpt instruction in the firmware raises a HardFault
	 * instead of stopping (QEMU), and benchrack sets no watchpoints. With one
	 * breakpoint inserted the stop PC is then known without asking (the
	 * stop reply does not carry it): one round trip less per halt. */
	bool only_breakpoints_trap;
	/* A debugger write to a peripheral register takes effect (false on QEMU:
	 * M answers OK and changes nothing outside RAM and flash). */
	bool writes_peripherals;
	/* A breakpoint change (Z/z) or a step throws away the translated code
	 * of the breakpoint's page (QEMU 7.2, DESIGN.md): resuming from a
	 * breakpoint with neither, the host executing the instruction under it
	 * (measure/host_step.h), is worth a round trip there. */
	bool retranslates_on_breakpoint_change;
	/* The CPU registers come with no xPSR number in target.xml lookups: the
	 * number p uses for xPSR when the description does not say. */
	uint32_t xpsr_regnum;
} br_flavour_t;

/* The flavour named name, or NULL when there is none. */
const br_flavour_t *br_flavour_find(const char *name);

/* The flavour id names. */
const br_flavour_t *br_flavour_get(br_flavour_id_t id);

/* The flavour for QEMU's gdbstub. */
const br_flavour_t *br_flavour_qemu(void);

/* The flavour for OpenOCD's gdb server. */
const br_flavour_t *br_flavour_openocd(void);

/* The flavour assumed for an unknown server: nothing beyond the manual. */
const br_flavour_t *br_flavour_generic(void);

/* The number of rows and row i (0 <= i < count), for listings. */
size_t br_flavour_count(void);
const br_flavour_t *br_flavour_at(size_t i);

/* The flavours' names joined by ", ": for usage and error messages. */
const char *br_flavour_names(void);

/* The flavour names in row order, NULL-terminated (a config schema's enum
 * names: a board's flavour key is an index into it). */
extern const char *const br_flavour_name_list[];

#endif
