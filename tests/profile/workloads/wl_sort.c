/*
 * sort (after Embench IoT's wikisort, written here, much simpler): 1024
 * numbers from the generator sorted by runs of 16 by insertion, then merged
 * bottom-up through a buffer, then checked in order.
 */
#include <stdint.h>

#include "workload.h"

#define SORT_N 1024U
#define SORT_RUN 16U

static int32_t items[SORT_N];
static int32_t buffer[SORT_N];

void wl_init(void)
{
}

WL_KEEP static void sort_fill(void)
{
	wl_srand(42U);
	for (uint32_t i = 0U; i < SORT_N; i++)
		items[i] = (int32_t)wl_rand() - 16384;
}

WL_KEEP static void sort_insertion(int32_t *a, uint32_t n)
{
	for (uint32_t i = 1U; i < n; i++) {
		int32_t v = a[i];
		uint32_t j = i;
		while (j > 0U && a[j - 1U] > v) {
			a[j] = a[j - 1U];
			j--;
		}
		a[j] = v;
	}
}

/* Merges a[0, mid) and a[mid, n), both in order, through buffer. */
WL_KEEP static void sort_merge(int32_t *a, uint32_t mid, uint32_t n)
{
	uint32_t i = 0U, j = mid, k = 0U;
	while (i < mid && j < n)
		buffer[k++] = a[j] < a[i] ? a[j++] : a[i++];
	while (i < mid)
		buffer[k++] = a[i++];
	while (j < n)
		buffer[k++] = a[j++];
	for (k = 0U; k < n; k++)
		a[k] = buffer[k];
}

WL_KEEP static uint32_t sort_check(void)
{
	uint32_t bad = 0U;
	for (uint32_t i = 1U; i < SORT_N; i++)
		bad += items[i - 1U] > items[i] ? 1U : 0U;
	return bad;
}

void wl_benchmark(void)
{
	sort_fill();
	for (uint32_t i = 0U; i < SORT_N; i += SORT_RUN)
		sort_insertion(&items[i], SORT_RUN);
	for (uint32_t width = SORT_RUN; width < SORT_N; width *= 2U)
		for (uint32_t i = 0U; i + width < SORT_N; i += 2U * width)
			sort_merge(&items[i], width,
			           i + 2U * width <= SORT_N ? 2U * width : SORT_N - i);
	wl_sink = sort_check() + (uint32_t)items[0];
}
