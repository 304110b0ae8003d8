/* The stub's main loop and the control block it serves (runner.c). */
#ifndef BR_RUNNER_H
#define BR_RUNNER_H

/* The contract with the host (control_block.h): br_control_block (flash, the
 * host finds it by symbol), br_control_state (RAM) and the sample buffer. */
#include "benchrack/suite.h"

#endif
