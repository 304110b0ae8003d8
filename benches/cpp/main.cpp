// The C++ firmware's main loop, entered by the stub's reset handler (the
// stub's start-up code and linker script, no runner: measured at
// breakpoints, as any firmware in the wild).
#include "dsp.hpp"

extern "C" {
// stub/src/main.h, which is C11 (_Noreturn): declared here for C++.
[[noreturn]] void br_main(void);
volatile int32_t cpp_sink;
}

namespace {

const int16_t coefficients[dsp::fir_taps] = {-300, 1200, 4800, 9000, 9000, 4800, 1200, -300};

} // namespace

void br_main(void)
{
	dsp::Fir fir(coefficients);
	uint32_t n = 0U;
	for (;;) {
		const int16_t sample = static_cast<int16_t>((n * 2654435761U) >> 18);
		cpp_sink = fir.step(sample);
		cpp_sink = dsp::mix(sample);
		cpp_sink = dsp::mix(static_cast<int>(n & 0xFFFFU));
		n++;
	}
}
