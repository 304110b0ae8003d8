/*
 * Startup of the plain firmware of the size tests: its own vector table and
 * reset handler (copies .data, zeroes .bss), as a firmware without the stub
 * has them.
 */
#include <stdint.h>

extern uint32_t plain_data_start[], plain_data_end[], plain_data_load[];
extern uint32_t plain_bss_start[], plain_bss_end[], plain_stack_top[];
int main(void);
void plain_reset(void);

void plain_reset(void)
{
	const uint32_t *src = plain_data_load;
	for (uint32_t *p = plain_data_start; p < plain_data_end; p++)
		*p = *src++;
	for (uint32_t *p = plain_bss_start; p < plain_bss_end; p++)
		*p = 0U;
	(void)main();
	for (;;) {
	}
}

__attribute__((section(".isr_vector"), used)) static const void *const plain_vectors[2] = {
    plain_stack_top,
    (const void *)plain_reset,
};
