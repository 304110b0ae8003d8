/*
 * core (after CoreMark's list and state machine, written here): a list of
 * 64 nodes from the generator, searched and reversed, then sorted by merge;
 * a state machine classifying the tokens of a text of numbers
 * ("123", "-4.5", "6e7", "x9"); a bitwise CRC-16 over the results.
 */
#include <stdint.h>

#include "workload.h"

#define LIST_N 64U
#define LIST_FINDS 16U
#define TEXT_REPEATS 12U

typedef struct node {
	struct node *next;
	int32_t value;
} node_t;

enum { ST_START, ST_INT, ST_FLOAT, ST_EXP, ST_BAD, ST_COUNT };

static node_t nodes[LIST_N];
static const char text[] = "123,-4.5,6e7,x9,88,0.25,1e-3,abc,-17,3.14159,";
static uint32_t state_counts[ST_COUNT];

void wl_init(void)
{
}

WL_KEEP static uint16_t crc16_byte(uint8_t data, uint16_t crc)
{
	for (int i = 0; i < 8; i++) {
		uint16_t mix = (uint16_t)((crc ^ data) & 1U);
		crc >>= 1;
		if (mix != 0U)
			crc ^= 0xa001U;
		data >>= 1;
	}
	return crc;
}

/* x's low 16 bits scaled to 0..999 without a division (a Cortex-M0 has no
 * divide instruction, and these workloads link no libgcc) */
static uint32_t below_1000(uint32_t x)
{
	return ((x & 0xffffU) * 1000U) >> 16;
}

WL_KEEP static node_t *list_build(void)
{
	wl_srand(1U);
	for (uint32_t i = 0U; i < LIST_N; i++) {
		nodes[i].value = (int32_t)below_1000(wl_rand());
		nodes[i].next = i + 1U < LIST_N ? &nodes[i + 1U] : 0;
	}
	return &nodes[0];
}

WL_KEEP static node_t *list_find(node_t *list, int32_t value)
{
	while (list != 0 && list->value != value)
		list = list->next;
	return list;
}

WL_KEEP static node_t *list_reverse(node_t *list)
{
	node_t *done = 0;
	while (list != 0) {
		node_t *next = list->next;
		list->next = done;
		done = list;
		list = next;
	}
	return done;
}

/* Sorts a list by value: runs of 1, 2, 4, ... merged in place of links. */
WL_KEEP static node_t *list_mergesort(node_t *list)
{
	for (uint32_t width = 1U;; width *= 2U) {
		node_t *p = list, *tail = 0;
		uint32_t merges = 0U;
		list = 0;
		while (p != 0) {
			node_t *q = p;
			uint32_t psize = 0U, qsize = width;
			merges++;
			while (psize < width && q != 0) {
				psize++;
				q = q->next;
			}
			while (psize > 0U || (qsize > 0U && q != 0)) {
				node_t *e;
				if (psize == 0U) {
					e = q, q = q->next, qsize--;
				} else if (qsize == 0U || q == 0 || p->value <= q->value) {
					e = p, p = p->next, psize--;
				} else {
					e = q, q = q->next, qsize--;
				}
				if (tail != 0)
					tail->next = e;
				else
					list = e;
				tail = e;
			}
			p = q;
		}
		tail->next = 0;
		if (merges <= 1U)
			return list;
	}
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* One step of the state machine: the state after c. */
WL_KEEP static int state_step(int state, char c)
{
	switch (state) {
	case ST_START:
		return is_digit(c) || c == '-' ? ST_INT : ST_BAD;
	case ST_INT:
		if (is_digit(c))
			return ST_INT;
		if (c == '.')
			return ST_FLOAT;
		return c == 'e' ? ST_EXP : ST_BAD;
	case ST_FLOAT:
		if (is_digit(c))
			return ST_FLOAT;
		return c == 'e' ? ST_EXP : ST_BAD;
	case ST_EXP:
		return is_digit(c) || c == '-' ? ST_EXP : ST_BAD;
	default:
		return ST_BAD;
	}
}

WL_KEEP static void state_scan(void)
{
	int state = ST_START;
	for (const char *p = text; *p != '\0'; p++) {
		if (*p == ',') {
			state_counts[state]++;
			state = ST_START;
		} else {
			state = state_step(state, *p);
		}
	}
}

void wl_benchmark(void)
{
	uint16_t crc = 0U;
	node_t *list = list_build();
	for (uint32_t i = 0U; i < LIST_FINDS; i++) {
		node_t *found = list_find(list, (int32_t)below_1000(i * 4003U));
		crc = crc16_byte((uint8_t)(found != 0 ? found->value : 0), crc);
		list = list_reverse(list);
	}
	list = list_mergesort(list);
	for (node_t *n = list; n != 0; n = n->next)
		crc = crc16_byte((uint8_t)n->value, crc);
	for (uint32_t i = 0U; i < ST_COUNT; i++)
		state_counts[i] = 0U;
	for (uint32_t r = 0U; r < TEXT_REPEATS; r++)
		state_scan();
	for (uint32_t i = 0U; i < ST_COUNT; i++)
		crc = crc16_byte((uint8_t)state_counts[i], crc);
	wl_sink = crc;
}
