/*
 * Proving a halt's reads (DESIGN.md, "Breakpoint session"): every halt reads
 * the counter, a marker word whose value is known in advance (a word of the
 * loaded image that the firmware never changes) and the counter again, in
 * that order, in one pipelined write. The reads count only when the marker
 * matches and the two counter reads agree: an extra or missing reply shifts
 * every later one, and a value changed on the way (a checksum fixed up by
 * something in between) makes the two reads differ. A counter that runs
 * while the core is halted cannot pass either: it is not fit for breakpoint
 * sessions (calibration.h).
 */
#ifndef BENCHRACK_MEASURE_HALT_PROOF_H
#define BENCHRACK_MEASURE_HALT_PROOF_H

#include <stdbool.h>
#include <stdint.h>

#include "common/error.h"
#include "debug/target.h"
#include "elf/elf_file.h"
#include "measure/counter.h"

/* Marker bytes: the first word is read at every halt; all of them put an
 * out-of-step stream back in step (br_target_recover), a length no halt
 * reads, so no stale reply can pass for it. */
#define BR_HALT_PROOF_MARKER_BYTES 16U
#define BR_HALT_PROOF_WORD 4U

typedef struct br_halt_proof {
	uint32_t address;
	uint8_t bytes[BR_HALT_PROOF_MARKER_BYTES];
	uint32_t reset_pc; /* the image's entry (its reset handler), Thumb bit clear; 0: none */
} br_halt_proof_t;

/* The buffers one halt's three proof reads fill: a counter register's
 * words, or for QEMU's icount (read through the monitor) its answers. */
typedef struct br_halt_proof_reads {
	uint8_t counter_a[BR_HALT_PROOF_WORD];
	uint8_t marker[BR_HALT_PROOF_WORD];
	uint8_t counter_b[BR_HALT_PROOF_WORD];
	uint8_t text_a[BR_COUNTER_ICOUNT_TEXT];
	uint8_t text_b[BR_COUNTER_ICOUNT_TEXT];
} br_halt_proof_reads_t;

/*
 * Fills *out with the first BR_HALT_PROOF_MARKER_BYTES bytes of elf's first
 * loadable segment that runs where it is loaded, holds that many bytes, and
 * lies in flash or ROM of map (the board's or the server's memory map),
 * whatever its flags: memory a store cannot change (a Cortex-M image's
 * vector table). Without a map (NULL or empty): the first such segment that
 * is not writable, else the lowest-addressed one. Its reset_pc is the ELF's
 * entry point (where a reset restarts the core: a breakpoint session traps
 * it there). BR_ERR_INPUT naming the file when there is none.
 */
br_status_t br_halt_proof_from_elf(const br_elf_t *elf, const char *path,
                                   const br_memory_map_t *map, br_halt_proof_t *out,
                                   br_error_t *err);

/*
 * Reads the marker from the ELF at path (br_halt_proof_from_elf, with t's
 * memory map) into *out
 * (may be NULL) and sets it on t (br_target_set_marker): from then on every
 * bulk read on t is proven by it. Call once the image is loaded.
 */
br_status_t br_halt_proof_arm(br_target_t *t, const char *path, br_halt_proof_t *out,
                              br_error_t *err);

/* Appends the three proof reads to batch b (b->nreads + 3 <= BR_TARGET_BATCH_READS),
 * into buf: the counter's register, or its monitor command (QEMU's icount:
 * two answers of `info replay` around the marker, in the same write). */
void br_halt_proof_add(const br_halt_proof_t *p, const br_counter_state_t *counter,
                       br_halt_proof_reads_t *buf, br_target_batch_t *b);

/*
 * True when buf proves its halt: the marker as expected and both counter
 * reads equal (for icount: both answers hold the same count); then *value
 * is the counter (its valid bits; all 64 of icount's).
 */
bool br_halt_proof_check(const br_halt_proof_t *p, const br_counter_state_t *counter,
                         const br_halt_proof_reads_t *buf, uint64_t *value);

#endif
