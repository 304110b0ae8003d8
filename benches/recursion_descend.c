/* See recursion_descend.h. The volatile array is what keeps each level's
 * frame: a compiler may turn recursion into a loop only when no level needs
 * its own storage after the call. */
#include "recursion_descend.h"
#include "keep_whole.h"

#define RECURSION_FRAME_WORDS 2U

BENCH_KEEP_WHOLE uint32_t recursion_descend(uint32_t depth)
{
	volatile uint32_t frame[RECURSION_FRAME_WORDS];

	frame[0] = depth;
	frame[1] = depth > 1U ? recursion_descend(depth - 1U) : 0U;
	return frame[0] + frame[1];
}
