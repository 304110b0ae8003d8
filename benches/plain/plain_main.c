/* The plain firmware's main loop (see plain.h), entered by the stub's reset
 * handler in place of the runner. */
#include "main.h"
#include "plain.h"
#include "recursion_descend.h"

volatile uint32_t plain_sink;
volatile uint32_t plain_never_flag;

_Noreturn void br_main(void)
{
	uint32_t round = 0U;

	for (;;) {
		uint32_t depth;

		plain_sink = plain_fixed(plain_sink);
		plain_markers();
		for (depth = 1U; depth <= PLAIN_DEPTH_MAX; depth++)
			plain_sink = recursion_descend(depth);
		round++;
		if (round % PLAIN_LONG_EVERY == 0U)
			plain_long();
		if (plain_never_flag != 0U)
			plain_never();
	}
}
