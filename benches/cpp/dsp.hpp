// A C++ firmware's code under measurement (see meson.build here): a FIR
// filter class and an overload set, in a namespace, so that its symbols are
// mangled (_ZN3dsp3Fir4stepEs) and benchrack must take them as written:
// `benchrack measure cpp-O2.elf --function 'dsp::Fir::step'`.
#ifndef BENCHES_CPP_DSP_HPP
#define BENCHES_CPP_DSP_HPP

#include <stdint.h>

namespace dsp {

constexpr uint32_t fir_taps = 8U;

class Fir {
public:
	explicit Fir(const int16_t *coefficients);
	// One Q15 sample in, one out; the history shifts by one.
	int16_t step(int16_t sample);

private:
	const int16_t *coefficients_;
	int16_t history_[fir_taps];
};

// An overload set: `--function dsp::mix` is ambiguous, `dsp::mix(int)` is not.
int32_t mix(int16_t sample);
int32_t mix(int sample);

} // namespace dsp

#endif
