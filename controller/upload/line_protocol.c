#include "upload/line_protocol.h"

#include <inttypes.h>
#include <stdbool.h>
#include <string.h>

#define LP_REPLACEMENT "\xEF\xBF\xBD" /* U+FFFD in UTF-8 */
#define LP_FIRMWARE_SUFFIX "_firmware"

/* specials: the characters that get a backslash in this kind of name. */
static void write_escaped(FILE *out, const char *name, const char *specials)
{
	size_t n = strlen(name);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)name[i];
		if (c < 0x20U || c == 0x7FU || (c == '\\' && i + 1U == n)) {
			fputs(LP_REPLACEMENT, out);
			continue;
		}
		if (strchr(specials, c) != NULL)
			fputc('\\', out);
		fputc(c, out);
	}
}

void br_lp_write_measurement(FILE *out, const char *name)
{
	write_escaped(out, name, ", ");
}

void br_lp_write_key(FILE *out, const char *name)
{
	write_escaped(out, name, ",= ");
}

/* A string field's value: '"' and '\\' get a backslash, controls become U+FFFD. */
static void write_string_field(FILE *out, const char *value)
{
	fputc('"', out);
	for (const char *p = value; *p != '\0'; p++) {
		unsigned char c = (unsigned char)*p;
		if (c < 0x20U || c == 0x7FU) {
			fputs(LP_REPLACEMENT, out);
			continue;
		}
		if (c == '"' || c == '\\')
			fputc('\\', out);
		fputc(c, out);
	}
	fputc('"', out);
}

static void write_line(FILE *out, const char *measurement, const br_upload_series_t *s,
                       int64_t time_ms, const br_upload_labels_t *choice)
{
	if (s->value_count == 0)
		return; /* a point needs at least one field */
	br_lp_write_measurement(out, measurement);
	if (s->kind == BR_UPLOAD_SERIES_FIRMWARE)
		br_lp_write_measurement(out, LP_FIRMWARE_SUFFIX);
	for (size_t i = 0; i < s->label_count; i++) {
		if (!br_upload_label_keys(choice, s->labels[i].key))
			continue;
		fputc(',', out);
		br_lp_write_key(out, s->labels[i].key);
		fputc('=', out);
		br_lp_write_key(out, s->labels[i].value);
	}
	for (size_t i = 0; i < s->value_count; i++) {
		const br_upload_value_t *v = &s->values[i];
		char number[BR_UPLOAD_NUMBER_BYTES];
		br_upload_number_format(v->value, v->metric->integer, number, sizeof(number));
		fputc(i == 0 ? ' ' : ',', out);
		br_lp_write_key(out, v->metric->name);
		fprintf(out, "=%s%s", number, v->metric->integer ? "i" : "");
	}
	for (size_t i = 0; i < s->label_count; i++) {
		if (br_upload_label_keys(choice, s->labels[i].key))
			continue;
		fputc(',', out);
		br_lp_write_key(out, s->labels[i].key);
		fputc('=', out);
		write_string_field(out, s->labels[i].value);
	}
	fprintf(out, " %" PRId64 "\n", time_ms);
}

void br_lp_write_points(FILE *out, const char *measurement, const br_upload_points_t *points,
                        const br_upload_labels_t *choice)
{
	for (size_t i = 0; i < points->count; i++)
		write_line(out, measurement, &points->series[i], points->time_ms, choice);
}
