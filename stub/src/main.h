/*
 * What the reset handler (startup.c) enters once RAM is initialised. Stub
 * images get the runner's (runner.c: publish the suite, serve the host); an
 * image that reuses the start-up code and linker script without the runner
 * (benches/plain/, firmware as `benchrack measure` meets it) defines its own.
 */
#ifndef BR_MAIN_H
#define BR_MAIN_H

/* The firmware's main loop; never returns. */
_Noreturn void br_main(void);

#endif
