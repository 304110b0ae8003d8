/* plain_long and plain_never (see plain.h). */
#include "plain.h"

__attribute__((noipa)) void plain_long(void)
{
	uint32_t i;

	for (i = 0U; i < PLAIN_LONG_ITERATIONS; i++)
		__asm__ volatile("");
}

__attribute__((noipa)) void plain_never(void)
{
	plain_sink = 0U;
}
