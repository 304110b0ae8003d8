/*
 * What differs between gdbservers, as data: one row per server, read by the
 * target layer instead of if-chains on a server name.
 */
#ifndef BENCHRACK_TARGET_FLAVOUR_H
#define BENCHRACK_TARGET_FLAVOUR_H

#include <stdbool.h>
#include <stdint.h>

typedef struct br_flavour {
	const char *name;            /* "qemu", "openocd", ... as boards name it */
	const char *reset_command;   /* qRcmd text that resets and leaves the core halted */
	const char *detach_packet;   /* "D" or "D;1" (QEMU with multiprocess) */
	uint32_t max_read_bytes;     /* largest m the server answers in one packet; 0: PacketSize only */
	bool steps_over_breakpoints; /* false: resuming on an inserted breakpoint stops at once */
	bool question_clears_breakpoints; /* '?' removes all breakpoints: send it only at connect */
	bool registers_need_target_xml;   /* p/P answer empty until target.xml has been read */
} br_flavour_t;

/* The flavour named name, or NULL when there is none. */
const br_flavour_t *br_flavour_find(const char *name);

/* The flavour for QEMU's gdbstub. */
const br_flavour_t *br_flavour_qemu(void);

#endif
