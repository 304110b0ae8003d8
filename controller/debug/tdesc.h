/*
 * The register numbers a server uses, from its XML target description
 * (qXfer:features:read:target.xml and the annexes it includes, GDB manual
 * "Target Descriptions"): each <reg name=".." bitsize=".." [regnum=".."]/>,
 * numbered from the previous one plus one when regnum is absent.
 */
#ifndef BENCHRACK_TARGET_TDESC_H
#define BENCHRACK_TARGET_TDESC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Core registers benchrack reads: r0..r12, sp (13), lr (14), pc (15), xpsr. */
#define BR_TDESC_CORE_REGS 17U
#define BR_TDESC_XPSR 16U
#define BR_TDESC_MAX_INCLUDES 8U

typedef struct br_tdesc {
	/* Register number per core register (index 0..15 = r0..r15, 16 = xPSR);
	 * valid when found[i]. */
	uint32_t regnum[BR_TDESC_CORE_REGS];
	bool found[BR_TDESC_CORE_REGS];
	uint32_t next_regnum; /* numbering continues across annexes */
	/* Annexes named by <xi:include href="..."/>, to be read next. */
	char includes[BR_TDESC_MAX_INCLUDES][64];
	size_t include_count;
} br_tdesc_t;

/* Starts an empty description (numbering from 0). */
void br_tdesc_init(br_tdesc_t *d);

/*
 * Scans one XML document (len bytes) for <reg> elements and <xi:include>
 * references, adding to d. Register names are matched case-insensitively:
 * r0..r12, sp/r13, lr/r14, pc/r15, xpsr/cpsr. Never fails: what is not
 * understood is skipped.
 */
void br_tdesc_scan(br_tdesc_t *d, const char *xml, size_t len);

#endif
