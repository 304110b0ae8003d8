#include "dsp.hpp"

namespace dsp {

Fir::Fir(const int16_t *coefficients) : coefficients_(coefficients), history_()
{
}

// Not inlined into its caller: it is the function measured per call.
__attribute__((noinline)) int16_t Fir::step(int16_t sample)
{
	for (uint32_t k = fir_taps - 1U; k > 0U; k--)
		history_[k] = history_[k - 1U];
	history_[0] = sample;
	int32_t acc = 0;
	for (uint32_t k = 0; k < fir_taps; k++)
		acc += static_cast<int32_t>(coefficients_[k]) * history_[k];
	return static_cast<int16_t>(acc >> 15);
}

__attribute__((noinline)) int32_t mix(int16_t sample)
{
	return static_cast<int32_t>(sample) * 3;
}

__attribute__((noinline)) int32_t mix(int sample)
{
	return static_cast<int32_t>(sample * 5 + 1);
}

} // namespace dsp
