#include "cli/rack_view.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define RACK_NOTE_BYTES 1024U

bool br_cli_rack_view_live(void)
{
	const char *term = getenv("TERM");
	return isatty(STDERR_FILENO) && (term == NULL || strcmp(term, "dumb") != 0);
}

void br_cli_rack_view_draw(br_cli_rack_view_t *r)
{
	if (!r->live)
		return;
	if (r->drawn > 0)
		fprintf(stderr, "\033[%zuA", r->drawn);
	for (size_t i = 0; i < r->rack->entry_count; i++) {
		const br_rack_worker_view_t *v = &r->views[i];
		fprintf(stderr, "\r\033[K%-16s %-8s", r->rack->entries[i].name.value, v->state);
		if (strcmp(v->state, "running") == 0) {
			fprintf(stderr, " %s", v->suite);
			if (v->attempt > 1)
				fprintf(stderr, " (attempt %u)", v->attempt);
			if (v->count > 0)
				fprintf(stderr, " [%u/%u] %s", v->index + 1U, v->count, v->bench);
		} else if (strcmp(v->state, "done") == 0) {
			fprintf(stderr, " %s",
			        br_rack_outcome_name(br_rack_board_outcome(&r->results[i])));
		}
		fputc('\n', stderr);
	}
	fflush(stderr);
	r->drawn = r->rack->entry_count;
}

void br_cli_rack_view_line(void *ctx, size_t index, const char *line)
{
	br_cli_rack_view_t *r = ctx;
	char note[RACK_NOTE_BYTES];
	br_rack_worker_event_apply(line, &r->results[index], &r->views[index], note, sizeof(note));
	if (r->live)
		br_cli_rack_view_draw(r);
	else if (note[0] != '\0')
		fprintf(stderr, "rack: %s: %s\n", r->rack->entries[index].name.value, note);
}

void br_cli_rack_view_done(void *ctx, size_t index, int code)
{
	br_cli_rack_view_t *r = ctx;
	br_rack_board_result_t *b = &r->results[index];
	snprintf(r->views[index].state, sizeof(r->views[index].state), "done");
	br_rack_board_worker_ended(b, code);
	if (r->live)
		br_cli_rack_view_draw(r);
	else
		fprintf(stderr, "rack: %s: done: %s\n", r->rack->entries[index].name.value,
		        br_rack_outcome_name(br_rack_board_outcome(b)));
}

void br_cli_rack_view_tick(void *ctx)
{
	br_cli_rack_view_draw(ctx);
}
