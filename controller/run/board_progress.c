/*
 * What the caller of one board's run hears (board_run_private.h): progress,
 * notices, through the callbacks of its settings.
 */
#include <stdarg.h>
#include <stdio.h>

#include "common/clock.h"
#include "run/board_run_private.h"

void br_board_progress(const br_run_settings_t *s, unsigned index, unsigned count, const char *name)
{
	if (s->progress != NULL)
		s->progress(s->progress_ctx, index, count, name);
}

void br_board_progress_done(const br_run_settings_t *s)
{
	if (s->progress_done != NULL)
		s->progress_done(s->progress_ctx);
}

void br_board_notice(const br_run_settings_t *s, const char *fmt, ...)
{
	if (s->notice == NULL)
		return;
	char text[BR_ERROR_MESSAGE_BYTES];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	s->notice(s->notice_ctx, text);
}

void br_board_on_progress(void *ctx, unsigned index, unsigned count, const char *name)
{
	br_board_keeper_t *k = ctx;
	k->started_ms = br_clock_ms();
	if (k->server != NULL)
		br_server_sched_read(k->server, &k->sched_start);
	k->current = name;
	k->current_index = k->offset + index;
	br_board_progress(k->s, k->offset + index, k->offset > 0 ? k->total : count, name);
}
