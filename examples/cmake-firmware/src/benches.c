/* The firmware's benches and their table: what benchrack measures. */
#include "benchrack/bench.h"
#include "benchrack/suite.h"
#include "fir.h"

#define BLOCK 32U

static const int16_t coefficients[FIR_TAPS] = {
    -120, -260, 0, 910, 2290, 3720, 4680, 5000, 4680, 3720, 2290, 910, 0, -260, -120, 0,
};
static int16_t input[2U * BLOCK];
static int16_t output[2U * BLOCK];

static void bench_fir_setup(fir_t *f)
{
	f->coefficients = coefficients;
	for (uint32_t k = 0; k < FIR_TAPS; k++)
		f->history[k] = 0;
	for (uint32_t i = 0; i < 2U * BLOCK; i++)
		input[i] = (int16_t)((i * 2654435761U) >> 17);
}

/* One block of 32 samples. */
static void bench_fir_32(br_run_t *run)
{
	fir_t f;
	bench_fir_setup(&f);
	BR_BENCH_LOOP(run) {
		fir_block(&f, input, output, BLOCK);
	}
}

/* Two blocks' worth at once: twice fir_32's work, plus one call less. */
static void bench_fir_64(br_run_t *run)
{
	fir_t f;
	bench_fir_setup(&f);
	BR_BENCH_LOOP(run) {
		fir_block(&f, input, output, 2U * BLOCK);
	}
}

static void bench_empty(br_run_t *run)
{
	BR_BENCH_LOOP(run) {
	}
}

const br_suite_entry_t br_suite[] = {
    {"empty", bench_empty},
    {"fir_32", bench_fir_32},
    {"fir_64", bench_fir_64},
};
BR_SUITE_COUNT_DEFINE(br_suite);
