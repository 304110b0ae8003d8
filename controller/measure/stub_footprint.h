/*
 * What the stub costs a firmware in flash and RAM, and what each bench adds
 * on top (`benchrack measure SUITE.elf --sizes`). From ELF files alone:
 *   flash = text + data (GNU size's Berkeley sums, elf/elf_sizes.h): every
 *           byte the image stores in flash, vector table and .data's load
 *           image included;
 *   RAM   = data + bss, less the stub's sample buffer, which is reported
 *           apart (its length is the firmware build's choice,
 *           br_ld_sample_count); the stack region is the firmware's and is
 *           not counted.
 * The stub's own cost is that of the empty bench's image (the stub and an
 * empty bench loop, bench-empty-O<L>.elf beside suite-O<L>.elf); a bench's
 * is its own image's (bench-<name>-O<L>.elf) less that.
 */
#ifndef BENCHRACK_MEASURE_STUB_FOOTPRINT_H
#define BENCHRACK_MEASURE_STUB_FOOTPRINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "benchrack/control_block.h"
#include "common/error.h"

#define BR_FOOTPRINT_PATH_BYTES 1024U

typedef struct br_footprint {
	uint64_t flash;   /* bytes stored in flash */
	uint64_t ram;     /* bytes of RAM, the sample buffer excluded */
	uint64_t samples; /* bytes of the sample buffer (0: an image without the stub) */
} br_footprint_t;

typedef struct br_footprint_bench {
	char name[BR_CB_NAME_BYTES];
	bool known;                        /* its image was found */
	char elf[BR_FOOTPRINT_PATH_BYTES]; /* that image */
	int64_t flash, ram;                /* its image less the empty bench's */
} br_footprint_bench_t;

typedef struct br_suite_footprint {
	br_footprint_t suite; /* the image as a whole */
	bool has_stub;        /* it was built with the stub; if not, the
	                         rest is empty */
	bool stub_known;      /* the empty bench's image was found */
	char empty_elf[BR_FOOTPRINT_PATH_BYTES];
	br_footprint_t stub; /* the empty bench's image */
	size_t count;        /* the suite's benches, in its order */
	br_footprint_bench_t benches[BR_CB_MAX_BENCHES];
} br_suite_footprint_t;

/*
 * The footprint of an image and, when it was built with the stub (a suite
 * image), of the stub (empty_elf, or when NULL the empty bench's image
 * beside suite_elf) and of each bench of the suite's table on top of it (its
 * image beside suite_elf). An image that is not there is marked unknown, not
 * an error; an image that is there but unreadable is. Fills *out.
 */
br_status_t br_suite_footprint_compute(const char *suite_elf, const char *empty_elf,
                                       br_suite_footprint_t *out, br_error_t *err);

#endif
