/*
 * Stack paint on the host side (measure/stack_watermark.h, stack_region.h): the
 * intact run of paint, the overflow band, and the --stack-region syntax with
 * good and bad inputs.
 */
#include <string.h>

#include "benchrack/stack_paint.h"
#include "check.h"
#include "measure/stack_watermark.h"
#include "measure/stack_region.h"

static void test_intact(void)
{
	uint8_t buf[256];
	memset(buf, BR_STACK_PAINT, sizeof(buf));
	CHECK(br_stack_paint_intact(buf, sizeof(buf)) == sizeof(buf));
	CHECK(br_stack_paint_intact(buf, 0) == 0);
	buf[200] = 0;
	CHECK(br_stack_paint_intact(buf, sizeof(buf)) == 200);
	buf[0] = 0xAB;
	CHECK(br_stack_paint_intact(buf, sizeof(buf)) == 0);
	/* The band is what overflow is judged on: at least a frame with a hole. */
	CHECK(BR_STACK_OVERFLOW_BAND >= 16U);
	CHECK(strcmp(br_stack_status_text(BR_STACK_OVERFLOWED), "overflowed the painted region") ==
	      0);
}

typedef struct region_case {
	const char *text;
	br_status_t want;
	uint32_t low, size;
	const char *phrase;
} region_case_t;

static const region_case_t region_cases[] = {
    {"0x2001e000:8K", BR_OK, 0x2001E000U, 8192U, NULL},
    {"0x2001e000:0x2000", BR_OK, 0x2001E000U, 8192U, NULL},
    {"536870912:1024", BR_OK, 0x20000000U, 1024U, NULL},
    {"0x2001ffa0:96", BR_OK, 0x2001FFA0U, 96U, NULL},
    {"", BR_ERR_USAGE, 0, 0, "LOW:SIZE"},
    {"0x2001e000", BR_ERR_USAGE, 0, 0, "LOW:SIZE"},
    {":8K", BR_ERR_USAGE, 0, 0, "LOW:SIZE"},
    {"0x2001e000:", BR_ERR_USAGE, 0, 0, "LOW:SIZE"},
    {"0x2001e000:0", BR_ERR_USAGE, 0, 0, "empty"},
    {"0x2001e001:8K", BR_ERR_USAGE, 0, 0, "word-aligned"},
    {"0x2001e000:7", BR_ERR_USAGE, 0, 0, "word-aligned"},
    {"0xfffff000:8K", BR_ERR_USAGE, 0, 0, "4 GiB"},
    {"-4:8K", BR_ERR_USAGE, 0, 0, "LOW:SIZE"},
    {"0x2001e000:8M", BR_ERR_USAGE, 0, 0, "LOW:SIZE"},
};

static void test_region_parse(void)
{
	for (size_t i = 0; i < sizeof(region_cases) / sizeof(region_cases[0]); i++) {
		const region_case_t *r = &region_cases[i];
		br_stack_region_t got;
		br_error_t err;
		br_error_clear(&err);
		br_status_t st = br_stack_region_parse(r->text, &got, &err);
		CHECK_MSG(st == r->want, "'%s': status %d (%s)", r->text, (int)st, err.message);
		if (st == BR_OK && r->want == BR_OK)
			CHECK_MSG(got.low == r->low && got.size == r->size, "'%s': 0x%08x %u",
			          r->text, got.low, got.size);
		if (st != BR_OK && r->phrase != NULL)
			CHECK_MSG(strstr(err.message, r->phrase) != NULL, "'%s': '%s' lacks '%s'",
			          r->text, err.message, r->phrase);
	}
}

int main(void)
{
	test_intact();
	test_region_parse();
	return check_finish();
}
