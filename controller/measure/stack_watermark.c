#include "measure/stack_watermark.h"

#include <stdlib.h>
#include <string.h>

#include "benchrack/stack_paint.h"

const char *br_stack_status_text(br_stack_status_t status)
{
	switch (status) {
	case BR_STACK_MEASURED:
		return "measured";
	case BR_STACK_OVERFLOWED:
		return "overflowed the painted region";
	case BR_STACK_SP_OUTSIDE:
		return "the SP was outside the stack region";
	}
	return "unknown";
}

size_t br_stack_paint_intact(const uint8_t *buf, size_t len)
{
	size_t i = 0;
	while (i < len && buf[i] == BR_STACK_PAINT)
		i++;
	return i;
}

/* Bytes from the region's low end up to sp, or 0 when sp is not inside it. */
static uint32_t stack_free_bytes(const br_stack_region_t *region, uint32_t sp)
{
	uint64_t top = (uint64_t)region->low + region->size;
	if (sp <= region->low || (uint64_t)sp > top)
		return 0;
	return sp - region->low;
}

void br_stack_paint_span(const br_stack_region_t *region, uint32_t sp, uint32_t *low, uint32_t *len,
                         br_stack_status_t *status)
{
	*low = region->low;
	*len = stack_free_bytes(region, sp);
	*status = *len == 0 ? BR_STACK_SP_OUTSIDE : BR_STACK_MEASURED;
}

br_status_t br_stack_paint(br_target_t *t, const br_stack_region_t *region, uint32_t sp,
                           br_stack_status_t *status, br_error_t *err)
{
	uint32_t low, len;
	br_stack_paint_span(region, sp, &low, &len, status);
	if (len == 0)
		return BR_OK;
	br_status_t st = br_target_mem_fill(t, low, BR_STACK_PAINT, len, err);
	if (st != BR_OK)
		return br_stack_region_failed(region, true, err);
	return BR_OK;
}

br_status_t br_stack_region_failed(const br_stack_region_t *region, bool painting, br_error_t *err)
{
	return br_error_prefix(err, "%s the stack region at 0x%08x",
	                       painting ? "painting" : "reading", region->low);
}

void br_stack_scan_judge(const uint8_t *buf, uint32_t len, uint32_t *bytes,
                         br_stack_status_t *status)
{
	size_t intact = br_stack_paint_intact(buf, len);
	*bytes = BR_STACK_NOT_MEASURED;
	*status = BR_STACK_OVERFLOWED;
	if (intact >= BR_STACK_OVERFLOW_BAND) {
		*status = BR_STACK_MEASURED;
		*bytes = len - (uint32_t)intact;
	}
}
