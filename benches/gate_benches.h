/*
 * Benches of the gate-test firmware (gate_suite.c), built only for the
 * end-to-end tests of `benchrack check`: a bench whose cost a build option
 * changes, and one that never returns.
 */
#ifndef BENCHES_GATE_BENCHES_H
#define BENCHES_GATE_BENCHES_H

#include "benchrack/bench.h"

/* WORK_ROUNDS dependent additions per iteration; BENCH_WORK_EXTRA_ROUNDS
 * (a -D of the build, default 0) adds rounds: the same bench, slower. */
void bench_work(br_run_t *run);

/* A frame whose deepest written byte BENCH_STACK_PROBE_EXTRA (a -D, default
 * 0) moves down by that many bytes, with the same instructions. */
void bench_stack_probe(br_run_t *run);

/* Spins forever: a suite stopped in its middle, until the controller's
 * timeout or a kill. Listed in no suite file that is meant to finish. */
void bench_stall(br_run_t *run);

#endif
