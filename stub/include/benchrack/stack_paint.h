/*
 * benchrack stack paint — the byte a free stack region is filled with before
 * a measurement, shared by the stub (which paints on target, stub/src/stack.c)
 * and the controller (which paints unmodified firmware through the debug
 * port, controller/measure/stack_watermark.c). After the run, the first byte
 * from the region's low end that no longer holds it is the deepest byte the
 * code wrote (DESIGN.md, "Stack").
 */
#ifndef BENCHRACK_STACK_PAINT_H
#define BENCHRACK_STACK_PAINT_H

/* Not 0, not 0xFF, not a plausible pointer or small integer. */
#define BR_STACK_PAINT 0xAAU

/*
 * Overflow is judged on the lowest BR_STACK_OVERFLOW_BAND bytes of the
 * region, not on its lowest byte alone: a stack frame need not write every
 * byte it reserves (GCC's `sub sp, #12` for two words leaves a 4-byte hole),
 * and frames running past the region's end leave the lowest byte painted
 * whenever a hole lands on it. If any byte of the band lost its paint, the
 * depth is "not measured"; so a depth is measured up to the region's size
 * less the band, and only a run of more than this many unwritten bytes at
 * the band could still hide an overflow.
 */
#define BR_STACK_OVERFLOW_BAND 64U

#endif
