#include "upload/exposition.h"

#include <string.h>

#define PROM_MS_PER_S 1000.0

static void write_escaped(FILE *out, const char *s, bool quote)
{
	for (const char *p = s; *p != '\0'; p++) {
		if (*p == '\\')
			fputs("\\\\", out);
		else if (*p == '\n')
			fputs("\\n", out);
		else if (quote && *p == '"')
			fputs("\\\"", out);
		else
			fputc(*p, out);
	}
}

void br_prom_write_label_value(FILE *out, const char *value)
{
	write_escaped(out, value, true);
}

static bool omitted(const char *key, const char *const *omit, size_t omit_count)
{
	for (size_t i = 0; i < omit_count; i++) {
		if (strcmp(omit[i], key) == 0)
			return true;
	}
	return false;
}

/* The labels not omitted: every one, or only those choice keys by. */
static void write_labels(FILE *out, const br_upload_label_t *labels, size_t count,
                         const char *const *omit, size_t omit_count, bool every,
                         const br_upload_labels_t *choice)
{
	bool first = true;
	for (size_t i = 0; i < count; i++) {
		if (omitted(labels[i].key, omit, omit_count) ||
		    (!every && !br_upload_label_keys(choice, labels[i].key)))
			continue;
		fputs(first ? "{" : ",", out);
		first = false;
		fprintf(out, "%s=\"", labels[i].key);
		br_prom_write_label_value(out, labels[i].value);
		fputc('"', out);
	}
	if (!first)
		fputc('}', out);
}

static void write_header(FILE *out, const char *name, const char *help)
{
	fprintf(out, "# HELP %s ", name);
	write_escaped(out, help, false);
	fprintf(out, "\n# TYPE %s gauge\n", name);
}

/* One metric: its header once, then a sample for every series that has it. */
static void write_metric(FILE *out, const char *prefix, const br_upload_metric_t *metric,
                         br_upload_series_kind_t kind, const br_upload_points_t *points,
                         const char *const *omit, size_t omit_count,
                         const br_upload_labels_t *choice)
{
	bool header = false;
	for (size_t i = 0; i < points->count; i++) {
		const br_upload_series_t *s = &points->series[i];
		const br_upload_value_t *v = NULL;
		if (s->kind == kind)
			v = br_upload_series_value(s, metric);
		if (v == NULL)
			continue;
		char name[128];
		snprintf(name, sizeof(name), "%s_%s%s", prefix,
		         kind == BR_UPLOAD_SERIES_FIRMWARE ? "firmware_" : "", metric->name);
		if (!header)
			write_header(out, name, metric->help);
		header = true;
		char number[BR_UPLOAD_NUMBER_BYTES];
		br_upload_number_format(v->value, metric->integer, number, sizeof(number));
		fputs(name, out);
		write_labels(out, s->labels, s->label_count, omit, omit_count, false, choice);
		fprintf(out, " %s\n", number);
	}
}

/* True when the bench series s has a label of its own (not the run's) that
 * choice does not key by: its mode, its firmware. */
static bool has_provenance(const br_upload_series_t *s, const br_upload_points_t *points,
                           const br_upload_labels_t *choice)
{
	for (size_t i = 0; i < s->label_count; i++) {
		if (!br_upload_label_keys(choice, s->labels[i].key) &&
		    br_upload_label_find(points->run_labels, points->run_label_count,
		                         s->labels[i].key) == NULL)
			return true;
	}
	return false;
}

/* The provenance as info metrics (value 1, every label): <prefix>_run_info
 * once, <prefix>_bench_info per bench with labels of its own beyond choice. */
static void write_info(FILE *out, const char *prefix, const br_upload_points_t *points,
                       const char *const *omit, size_t omit_count, const br_upload_labels_t *choice)
{
	char name[128];
	snprintf(name, sizeof(name), "%s_run_info", prefix);
	write_header(out, name,
	             "The run's provenance (build, commit, toolchain, host, server, "
	             "counter) as labels, value 1: join it on board and suite");
	fputs(name, out);
	write_labels(out, points->run_labels, points->run_label_count, omit, omit_count, true,
	             choice);
	fputs(" 1\n", out);
	bool header = false;
	snprintf(name, sizeof(name), "%s_bench_info", prefix);
	for (size_t i = 0; i < points->count; i++) {
		const br_upload_series_t *s = &points->series[i];
		if (s->kind != BR_UPLOAD_SERIES_BENCH || !has_provenance(s, points, choice))
			continue;
		if (!header)
			write_header(out, name,
			             "A bench's provenance (its mode, its firmware) "
			             "as labels, value 1: join it on bench");
		header = true;
		/* the bench's own labels and those that key it; the run's are in run_info */
		br_upload_label_t own[BR_UPLOAD_MAX_LABELS];
		size_t n = 0;
		for (size_t k = 0; k < s->label_count; k++) {
			if (br_upload_label_keys(choice, s->labels[k].key) ||
			    br_upload_label_find(points->run_labels, points->run_label_count,
			                         s->labels[k].key) == NULL)
				own[n++] = s->labels[k];
		}
		fputs(name, out);
		write_labels(out, own, n, omit, omit_count, true, choice);
		fputs(" 1\n", out);
	}
}

void br_prom_write_points(FILE *out, const char *prefix, const br_upload_points_t *points,
                          const char *const *omit, size_t omit_count,
                          const br_upload_labels_t *choice)
{
	size_t count = 0;
	const br_upload_metric_t *metrics = br_upload_metrics(&count);
	for (size_t m = 0; m < count; m++) {
		write_metric(out, prefix, &metrics[m], BR_UPLOAD_SERIES_BENCH, points, omit,
		             omit_count, choice);
		write_metric(out, prefix, &metrics[m], BR_UPLOAD_SERIES_FIRMWARE, points, omit,
		             omit_count, choice);
	}
	char name[128];
	snprintf(name, sizeof(name), "%s_run_timestamp_seconds", prefix);
	write_header(out, name,
	             "When the run started (Unix time): the point in time of every "
	             "figure of this group");
	char number[BR_UPLOAD_NUMBER_BYTES];
	br_upload_number_format((double)points->time_ms / PROM_MS_PER_S, false, number,
	                        sizeof(number));
	fputs(name, out);
	write_labels(out, points->run_labels, points->run_label_count, omit, omit_count, false,
	             choice);
	fprintf(out, " %s\n", number);
	write_info(out, prefix, points, omit, omit_count, choice);
}
