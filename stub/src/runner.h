/* The stub's main loop and the control block it serves (runner.c). */
#ifndef BR_RUNNER_H
#define BR_RUNNER_H

#include "benchrack/control_block.h"

/* The contract with the host, found by symbol (BR_CONTROL_BLOCK_SYMBOL). */
extern br_control_block_t br_control_block;


#endif
