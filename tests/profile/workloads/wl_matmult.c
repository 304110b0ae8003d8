/*
 * matmult (after Embench IoT's matmult-int, written here): two 20 x 20
 * integer matrices filled from the generator, multiplied, the result
 * summed.
 */
#include <stdint.h>

#include "workload.h"

#define MAT_N 20U

static int32_t mat_a[MAT_N][MAT_N], mat_b[MAT_N][MAT_N], mat_c[MAT_N][MAT_N];

void wl_init(void)
{
}

WL_KEEP static void mat_fill(int32_t m[MAT_N][MAT_N])
{
	for (uint32_t i = 0U; i < MAT_N; i++)
		for (uint32_t j = 0U; j < MAT_N; j++)
			m[i][j] = (int32_t)(wl_rand() % 64U) - 32;
}

WL_KEEP static void mat_multiply(void)
{
	for (uint32_t i = 0U; i < MAT_N; i++)
		for (uint32_t j = 0U; j < MAT_N; j++) {
			int32_t sum = 0;
			for (uint32_t k = 0U; k < MAT_N; k++)
				sum += mat_a[i][k] * mat_b[k][j];
			mat_c[i][j] = sum;
		}
}

WL_KEEP static int32_t mat_sum(void)
{
	int32_t s = 0;
	for (uint32_t i = 0U; i < MAT_N; i++)
		for (uint32_t j = 0U; j < MAT_N; j++)
			s += mat_c[i][j];
	return s;
}

void wl_benchmark(void)
{
	wl_srand(7U);
	mat_fill(mat_a);
	mat_fill(mat_b);
	mat_multiply();
	wl_sink = (uint32_t)mat_sum();
}
