/* A recursive function whose every level has the same stack frame and the
 * same instructions (recursion_descend.c): stack use and count grow exactly
 * linearly with the depth. */
#ifndef BENCHES_RECURSION_DESCEND_H
#define BENCHES_RECURSION_DESCEND_H

#include <stdint.h>

/*
 * Recurses depth levels (depth >= 1; 0 behaves as 1), each with a frame of
 * its own that the optimiser cannot fold away (volatile locals), and returns
 * a value built from every level. Never inlined, cloned or turned into a
 * loop, at every optimisation level.
 */
uint32_t recursion_descend(uint32_t depth);

#endif
