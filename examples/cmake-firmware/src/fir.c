#include "fir.h"

void fir_block(fir_t *f, const int16_t *in, int16_t *out, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		for (uint32_t k = FIR_TAPS - 1U; k > 0U; k--)
			f->history[k] = f->history[k - 1U];
		f->history[0] = in[i];
		int32_t acc = 0;
		for (uint32_t k = 0; k < FIR_TAPS; k++)
			acc += (int32_t)f->coefficients[k] * f->history[k];
		out[i] = (int16_t)(acc >> 15);
	}
}
