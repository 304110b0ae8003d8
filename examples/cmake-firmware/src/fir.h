/* A 16-tap FIR filter on Q15 samples: the code under measurement. */
#ifndef FIR_H
#define FIR_H

#include <stdint.h>

#define FIR_TAPS 16

typedef struct fir {
	const int16_t *coefficients; /* FIR_TAPS of them, Q15 */
	int16_t history[FIR_TAPS];   /* the last FIR_TAPS inputs, newest first */
} fir_t;

/* Filters n samples of in into out (Q15), keeping the history in f. */
void fir_block(fir_t *f, const int16_t *in, int16_t *out, uint32_t n);

#endif
