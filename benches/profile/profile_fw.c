/* Two leaves of known relative cost under one caller (see profile.h). */
#include "main.h"
#include "profile.h"

volatile uint32_t profile_sink;

__attribute__((noipa)) void profile_leaf_short(void)
{
	profile_spin(PROFILE_SHORT_PASSES);
}

__attribute__((noipa)) void profile_leaf_long(void)
{
	profile_spin(PROFILE_SHORT_PASSES * PROFILE_LONG_FACTOR);
}

__attribute__((noipa)) void profile_caller(void)
{
	for (uint32_t round = 0U; round < PROFILE_ROUNDS; round++) {
		profile_leaf_short();
		profile_leaf_long();
	}
	/* Work after the last call: no tail call, so every leaf runs with its
	 * caller's frame below it (a tail call would leave br_main there). */
	profile_sink = profile_sink + 1U;
}

_Noreturn void br_main(void)
{
	for (;;)
		profile_caller();
}
