#include "measure/counter_spec.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "common/counter_kind.h"
#include "common/counter_period.h"

#define SPEC_CORE_PREFIX "cortex-"
#define SPEC_MAX_WIDTH 32UL
#define SPEC_MMIO_FORM ":ADDRESS[:WIDTH[:down]]"

/* The cores a counter spec knows, and what they imply for the DWT. */
typedef struct spec_core {
	const char *name;
	bool has_dwt;    /* ARMv6-M (M0, M0+) has no DWT cycle counter */
	bool dwt_locked; /* Cortex-M7: DWT_LAR must be unlocked */
} spec_core_t;

static const spec_core_t spec_cores[] = {
    {"m0", false, false}, {"m0+", false, false}, {"m3", true, false},  {"m4", true, false},
    {"m7", true, true},   {"m33", true, false},  {"m55", true, false}, {"m85", true, false},
};

static const spec_core_t *spec_core_find(const char *core)
{
	if (core == NULL)
		core = "m4";
	if (strncmp(core, SPEC_CORE_PREFIX, strlen(SPEC_CORE_PREFIX)) == 0)
		core += strlen(SPEC_CORE_PREFIX);
	for (size_t i = 0; i < sizeof(spec_cores) / sizeof(spec_cores[0]); i++) {
		if (strcmp(spec_cores[i].name, core) == 0)
			return &spec_cores[i];
	}
	return NULL;
}

/* Parses an unsigned number (0x... hex or decimal) filling the whole of text. */
static bool spec_number(const char *text, unsigned long long max, unsigned long long *out)
{
	if (text[0] == '\0' || text[0] == '-' || text[0] == '+')
		return false;
	char *end = NULL;
	errno = 0;
	unsigned long long v = strtoull(text, &end, 0);
	if (errno != 0 || *end != '\0' || v > max)
		return false;
	*out = v;
	return true;
}

/* The length of the mmio kind's name when spec is "mmio:...", else 0. */
static size_t spec_mmio_prefix(const char *spec)
{
	const char *mmio = br_counter_kind_names[BR_COUNTER_KIND_MMIO];
	size_t n = strlen(mmio);
	return strncmp(spec, mmio, n) == 0 && spec[n] == ':' ? n + 1U : 0U;
}

static br_status_t spec_mmio(const char *spec, uint64_t clock_hz, br_counter_t *out,
                             br_error_t *err)
{
	const char *mmio = br_counter_kind_names[BR_COUNTER_KIND_MMIO];
	char fields[3][32] = {{0}};
	const char *p = spec + spec_mmio_prefix(spec);
	size_t count = 0;
	for (;;) {
		const char *colon = strchr(p, ':');
		size_t len = colon != NULL ? (size_t)(colon - p) : strlen(p);
		if (count == 3 || len >= sizeof(fields[0]))
			return br_error_set(err, BR_ERR_USAGE,
			                    "counter '%s': expected %s" SPEC_MMIO_FORM, spec, mmio);
		memcpy(fields[count], p, len);
		count++;
		if (colon == NULL)
			break;
		p = colon + 1;
	}
	unsigned long long address = 0, width = SPEC_MAX_WIDTH;
	if (!spec_number(fields[0], 0xFFFFFFFFULL, &address))
		return br_error_set(err, BR_ERR_USAGE,
		                    "counter '%s': '%s' is not an address (e.g. 0x40000024)", spec,
		                    fields[0]);
	if (count > 1 && (!spec_number(fields[1], SPEC_MAX_WIDTH, &width) || width == 0))
		return br_error_set(err, BR_ERR_USAGE,
		                    "counter '%s': width '%s' is not a number of bits from 1 to 32",
		                    spec, fields[1]);
	bool down = false;
	if (count > 2) {
		if (strcmp(fields[2], "down") == 0)
			down = true;
		else if (strcmp(fields[2], "up") != 0)
			return br_error_set(err, BR_ERR_USAGE,
			                    "counter '%s': direction '%s' is neither up nor down",
			                    spec, fields[2]);
	}
	br_counter_mmio(out, mmio, (uint32_t)address, (unsigned)width, down, clock_hz);
	return br_counter_period_check(spec, out->width_bits, out->max_rate_hz, "--clock-hz",
	                               BR_ERR_USAGE, err);
}

/* A counter known by its kind's name alone (every kind but mmio, which
 * needs its address). */
static br_status_t spec_named(const char *spec, br_counter_kind_id_t kind, uint64_t clock_hz,
                              const spec_core_t *c, br_counter_t *out, br_error_t *err)
{
	switch (kind) {
	case BR_COUNTER_KIND_ICOUNT:
		br_counter_icount(out);
		return BR_OK;
	case BR_COUNTER_KIND_TIM2:
		br_counter_tim2(out, clock_hz);
		return BR_OK;
	case BR_COUNTER_KIND_DWT:
	case BR_COUNTER_KIND_SYSTICK:
		break;
	case BR_COUNTER_KIND_MMIO:
	case BR_COUNTER_KIND_COUNT:
		return br_error_set(err, BR_ERR_USAGE, "counter '%s': expected %s" SPEC_MMIO_FORM,
		                    spec, spec);
	}
	if (clock_hz == 0)
		return br_error_set(err, BR_ERR_USAGE,
		                    "counter %s counts core cycles: give the core clock "
		                    "(--clock-hz), so that times and the wrap period are known",
		                    spec);
	if (kind == BR_COUNTER_KIND_SYSTICK) {
		br_counter_systick(out, clock_hz);
		return BR_OK;
	}
	if (!c->has_dwt)
		return br_error_set(err, BR_ERR_USAGE,
		                    "a Cortex-M%s has no DWT cycle counter: use %s or an %s timer",
		                    c->name + 1, br_counter_kind_names[BR_COUNTER_KIND_SYSTICK],
		                    br_counter_kind_names[BR_COUNTER_KIND_MMIO]);
	br_counter_dwt(out, clock_hz, c->dwt_locked);
	return BR_OK;
}

br_status_t br_counter_spec_parse(const char *spec, uint64_t clock_hz, const char *core,
                                  br_counter_t *out, br_error_t *err)
{
	const spec_core_t *c = spec_core_find(core);
	if (c == NULL)
		return br_error_set(err, BR_ERR_USAGE,
		                    "core '%s' is not one of m0, m0+, m3, m4, m7, m33, m55, m85",
		                    core);
	br_counter_kind_id_t kind = BR_COUNTER_KIND_MMIO;
	if (br_counter_kind_find(spec, &kind))
		return spec_named(spec, kind, clock_hz, c, out, err);
	if (spec_mmio_prefix(spec) != 0)
		return spec_mmio(spec, clock_hz, out, err);
	return br_error_set(err, BR_ERR_USAGE,
	                    "counter '%s' is not one of %s (%s as %s" SPEC_MMIO_FORM ")", spec,
	                    br_counter_kind_list(), br_counter_kind_names[BR_COUNTER_KIND_MMIO],
	                    br_counter_kind_names[BR_COUNTER_KIND_MMIO]);
}
