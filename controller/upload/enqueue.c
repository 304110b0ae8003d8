#include "upload/enqueue.h"

#include <string.h>

#include "results/record_read.h"
#include "upload/metrics.h"
#include "upload/render.h"

br_status_t br_upload_enqueue(const br_upload_spool_t *sp, const br_upload_section_t *section,
                              const char *config_dir, const char *run_file, size_t *spooled,
                              br_error_t *err)
{
	*spooled = 0;
	br_run_record_t run;
	br_status_t st = br_record_read(run_file, &run, err);
	if (st != BR_OK)
		return st;
	br_upload_points_t points;
	st = br_upload_points_map(&run, run_file, &points, err);
	if (st != BR_OK) {
		br_error_prefix(err, "%s", run_file);
		br_run_record_free(&run);
		return st;
	}
	br_upload_source_t src = {&run, run_file, &points};
	br_status_t first = BR_OK;
	for (size_t i = 0; i < section->sinks.count; i++) {
		const br_upload_sink_t *sink = br_upload_section_sink(section, i);
		br_upload_item_t item;
		br_upload_render(section, sink, config_dir, &src, &item);
		if (item.body != NULL) {
			br_error_t e;
			br_error_clear(&e);
			st = br_upload_spool_put(sp, &item, &e);
			if (st == BR_OK)
				(*spooled)++;
			else if (first == BR_OK) {
				first = st;
				*err = e;
				br_error_prefix(err, "sink %s", sink->name.value);
			}
		}
		br_upload_item_free(&item);
	}
	br_upload_points_free(&points);
	br_run_record_free(&run);
	return first;
}
