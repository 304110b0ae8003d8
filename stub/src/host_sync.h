/* The marker function the host breaks on (host_sync.c). */
#ifndef BR_HOST_SYNC_H
#define BR_HOST_SYNC_H

/*
 * Hand control to the host: it has a breakpoint on this function's first
 * instruction (symbol BR_HOST_SYNC_SYMBOL), reads the result area, writes the
 * next request and resumes. The compiler must treat the call as reading and
 * writing all of memory: br_control_block changes across it.
 */
void br_host_sync(void);

#endif
