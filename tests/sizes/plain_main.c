/*
 * The plain firmware of the size tests, in two builds: the old one, and with
 * -DPLAIN_GROW the new one, in which plain_buffer (.bss) doubles to 512
 * bytes, plain_work grows by some code, plain_added appears, plain_removed
 * goes and plain_table (.rodata, in plain_tables.c) stays the same.
 */
#include <stdint.h>

#ifdef PLAIN_GROW
#define PLAIN_BUFFER_BYTES 512U
#else
#define PLAIN_BUFFER_BYTES 256U
#endif

extern const uint32_t plain_table[64];
uint8_t plain_buffer[PLAIN_BUFFER_BYTES];
uint32_t plain_counter = 7U;
int main(void);
uint32_t plain_work(uint32_t x);

__attribute__((noinline)) uint32_t plain_work(uint32_t x)
{
	uint32_t sum = plain_table[x & 63U];
	for (uint32_t i = 0; i < PLAIN_BUFFER_BYTES; i++)
		plain_buffer[i] = (uint8_t)(sum + i);
#ifdef PLAIN_GROW
	sum = sum * 2654435761U + (x >> 3);
	sum ^= sum >> 13;
	sum = sum * 2246822519U + plain_counter;
#endif
	return sum + plain_buffer[x % PLAIN_BUFFER_BYTES];
}

#ifdef PLAIN_GROW
uint32_t plain_added(uint32_t x);
__attribute__((noinline)) uint32_t plain_added(uint32_t x)
{
	return x * 3U + plain_table[(x + 1U) & 63U];
}
#else
uint32_t plain_removed(uint32_t x);
__attribute__((noinline)) uint32_t plain_removed(uint32_t x)
{
	return x ^ plain_table[(x + 2U) & 63U];
}
#endif

int main(void)
{
	uint32_t v = plain_work(plain_counter);
#ifdef PLAIN_GROW
	v += plain_added(v);
#else
	v += plain_removed(v);
#endif
	plain_counter = v;
	return 0;
}
