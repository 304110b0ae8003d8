/* BENCH_KEEP_WHOLE: a function whose cost must be that of one symbol at every
 * optimisation level — never inlined, never cloned or specialised by the
 * compiler's inter-procedural passes (GCC's noipa). Clang, which builds the
 * host benches in the fuzzing build, has no noipa: there noinline (on an
 * external function) is the same promise. */
#ifndef BENCHES_KEEP_WHOLE_H
#define BENCHES_KEEP_WHOLE_H

#if defined(__clang__)
#define BENCH_KEEP_WHOLE __attribute__((noinline))
#else
#define BENCH_KEEP_WHOLE __attribute__((noinline, noipa))
#endif

#endif
