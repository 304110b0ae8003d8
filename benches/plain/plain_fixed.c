/* plain_fixed: straight-line arithmetic (see plain.h). */
#include "plain.h"

#define PLAIN_FIXED_MULTIPLIER 0x9E3779B1U /* odd: a bijection of 32-bit words */
#define PLAIN_FIXED_INCREMENT 0x7F4A7C15U
#define PLAIN_FIXED_SHIFT_1 15U
#define PLAIN_FIXED_SHIFT_2 13U

__attribute__((noipa)) uint32_t plain_fixed(uint32_t x)
{
	x = x * PLAIN_FIXED_MULTIPLIER + PLAIN_FIXED_INCREMENT;
	x ^= x >> PLAIN_FIXED_SHIFT_1;
	x *= PLAIN_FIXED_MULTIPLIER;
	return x ^ (x >> PLAIN_FIXED_SHIFT_2);
}
