/*
 * Where the stub's contract lives in one firmware image, read from the ELF
 * file alone (stub/include/benchrack/control_block.h): the constant control
 * block in flash, the bench table it points to, the request/result areas and
 * the sample buffer in RAM, and br_host_sync. Nothing here needs a target or
 * a server: a firmware without the stub, or built against another version of
 * the contract, is refused before anything starts.
 */
#ifndef BENCHRACK_MEASURE_STUB_LAYOUT_H
#define BENCHRACK_MEASURE_STUB_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

#include "benchrack/control_block.h"
#include "common/error.h"
#include "elf/elf_file.h"

typedef struct br_stub_layout {
	uint32_t control_block;   /* address of br_control_block (flash) */
	uint32_t host_sync;       /* address of br_host_sync (Thumb bit cleared) */
	uint32_t state;           /* address of the br_control_state_t (RAM) */
	uint32_t bench_count;     /* benches in the table, <= BR_CB_MAX_BENCHES */
	uint32_t max_samples;     /* the sample buffer's length, 1..BR_CB_MAX_SAMPLES */
	uint32_t samples_address; /* the sample buffer */
	char bench_names[BR_CB_MAX_BENCHES][BR_CB_NAME_BYTES]; /* NUL-terminated, suite order */
} br_stub_layout_t;

/* Room for every bench name joined by br_stub_bench_names_join. */
#define BR_STUB_BENCH_NAMES_JOINED (BR_CB_MAX_BENCHES * (BR_CB_NAME_BYTES + 2U))

/*
 * Writes the first count names (count <= BR_CB_MAX_BENCHES) joined by ", "
 * into out, cut to cap: the "it has: ..." list of a bench-not-found message.
 */
void br_stub_bench_names_join(const char names[][BR_CB_NAME_BYTES], uint32_t count, char *out,
                              size_t cap);

/*
 * Fills *layout from elf: finds br_control_block and br_host_sync, checks the
 * block's magic, version and size, the bench count and the sample buffer's
 * length, and reads every bench's name through the bench table (names longer
 * than BR_CB_NAME_BYTES - 1 are truncated). Returns BR_OK, or BR_ERR_INPUT
 * naming the file and what to rebuild.
 */
br_status_t br_stub_layout_from_elf(const br_elf_t *elf, br_stub_layout_t *layout, br_error_t *err);

/*
 * Checks a control block's first BR_CB_SIZE bytes (as read from the file or
 * from target memory; `where` names which in the error) against this
 * contract: magic, version, size. Returns BR_OK or BR_ERR_INPUT.
 */
br_status_t br_stub_layout_check_header(const uint8_t *block, const char *where, br_error_t *err);

/* The little-endian uint32_t at byte offset off of buf: the contract's only
 * field type. */
uint32_t br_stub_le32(const uint8_t *buf, size_t off);

#endif
