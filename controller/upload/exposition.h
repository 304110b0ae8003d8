/*
 * The Prometheus text exposition format (version 0.0.4) that a Pushgateway
 * takes: per metric a "# HELP" and a "# TYPE name gauge" line, then one
 * sample a line, name{label="value",...} value. Samples carry no timestamp
 * (a Pushgateway refuses them): the run's start is a metric of its own,
 * <prefix>_run_timestamp_seconds.
 *
 * Escaping: in a label value '\' is written "\\", '"' is "\"" and a line
 * feed is "\n" (any other character, UTF-8 included, passes unchanged); in
 * HELP text '\' and a line feed are escaped the same way.
 */
#ifndef BENCHRACK_UPLOAD_EXPOSITION_H
#define BENCHRACK_UPLOAD_EXPOSITION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "upload/metrics.h"

/* Writes value escaped as a label value (without the quotes). */
void br_prom_write_label_value(FILE *out, const char *value);

/*
 * Writes every value of points as gauges named <prefix>_<metric> (the
 * firmware series' as <prefix>_firmware_<metric>) plus
 * <prefix>_run_timestamp_seconds, each with the labels choice keys by
 * (metrics.h), leaving out those whose keys are in omit (the grouping labels
 * the URL carries); then the provenance as info metrics of value 1 with
 * every label: <prefix>_run_info, and <prefix>_bench_info for each bench
 * whose own labels (mode, elf) choice leaves out.
 */
void br_prom_write_points(FILE *out, const char *prefix, const br_upload_points_t *points,
                          const char *const *omit, size_t omit_count,
                          const br_upload_labels_t *choice);

#endif
