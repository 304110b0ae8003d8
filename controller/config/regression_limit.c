#include "config/regression_limit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "yaml/scalar.h"

#define LIMIT_MAX_PERCENT 1000.0
#define LIMIT_KIB 1024.0
#define LIMIT_TERM_BYTES 64U

#define METRIC_NAME(index, name) name,
const char *const br_regression_metric_names[BR_REGRESSION_METRICS + 1U] = {
    BR_REGRESSION_METRIC_LIST(METRIC_NAME) NULL};
#undef METRIC_NAME

int br_regression_metric_index(const char *metric)
{
	for (int i = 0; br_regression_metric_names[i] != NULL; i++) {
		if (strcmp(br_regression_metric_names[i], metric) == 0)
			return i;
	}
	return -1;
}

static bool limit_is_bytes(const char *metric)
{
	size_t n = strlen(metric);
	return n > 6U && strcmp(metric + n - 6U, "_bytes") == 0;
}

static const char *limit_form(const char *metric)
{
	return limit_is_bytes(metric) ? "a percentage (2%), bytes (64B, 1K) or both (2% and 64B)"
	                              : "a percentage (0.5%), an amount in the counter's unit (10) "
	                                "or both (0.5% and 10)";
}

/* One term into *out; false when it is not one or repeats a kind. */
static bool limit_term(const char *term, const char *metric, br_regression_limit_t *out)
{
	char number[LIMIT_TERM_BYTES];
	size_t n = strlen(term);
	if (n == 0 || n >= sizeof(number))
		return false;
	char last = term[n - 1U];
	double scale = 1.0;
	bool percent = last == '%';
	if (percent || last == 'B' || last == 'K') {
		if (!percent && !limit_is_bytes(metric))
			return false;
		scale = last == 'K' ? LIMIT_KIB : 1.0;
		n--;
	}
	while (n > 0 && term[n - 1U] == ' ')
		n--;
	memcpy(number, term, n);
	number[n] = '\0';
	double v;
	if (!br_scalar_number(number, &v) || v < 0.0)
		return false;
	if (percent) {
		if (out->has_percent || v > LIMIT_MAX_PERCENT)
			return false;
		out->has_percent = true;
		out->percent = v;
	} else {
		if (out->has_amount)
			return false;
		out->has_amount = true;
		out->amount = v * scale;
	}
	return true;
}

bool br_regression_limit_parse(const char *text, const char *metric, br_regression_limit_t *out,
                               const char **why)
{
	br_regression_limit_t l = {.set = true};
	*why = limit_form(metric);
	const char *sep = strstr(text, " and ");
	char first[LIMIT_TERM_BYTES];
	size_t len = sep != NULL ? (size_t)(sep - text) : strlen(text);
	if (len >= sizeof(first))
		return false;
	memcpy(first, text, len);
	first[len] = '\0';
	if (!limit_term(first, metric, &l))
		return false;
	if (sep != NULL && !limit_term(sep + 5, metric, &l))
		return false;
	*out = l;
	return true;
}

void br_regression_limit_format(const br_regression_limit_t *limit, const char *metric, char *buf,
                                size_t cap)
{
	const char *unit = limit_is_bytes(metric) ? " B" : "";
	if (limit->has_percent && limit->has_amount)
		snprintf(buf, cap, "%g%% and %g%s", limit->percent, limit->amount, unit);
	else if (limit->has_percent)
		snprintf(buf, cap, "%g%%", limit->percent);
	else
		snprintf(buf, cap, "%g%s", limit->amount, unit);
}
