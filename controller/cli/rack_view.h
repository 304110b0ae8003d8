/*
 * What `benchrack rack` shows while its boards run: on a terminal a live
 * block of lines on stderr, one per board (its state, the suite and bench
 * it is at, then its outcome), redrawn in place; elsewhere one plain line
 * per event worth saying. The pool's callbacks (rack/rack_pool.h) feed it.
 */
#ifndef BENCHRACK_CLI_RACK_VIEW_H
#define BENCHRACK_CLI_RACK_VIEW_H

#include <stdbool.h>
#include <stddef.h>

#include "config/rack.h"
#include "rack/rack_result.h"
#include "rack/rack_worker.h"

/* The parent's view of the run. */
typedef struct br_cli_rack_view {
	const br_rack_t *rack; /* the selected boards */
	br_rack_board_result_t *results;
	br_rack_worker_view_t *views;
	bool live;    /* redraw a block of lines on stderr */
	size_t drawn; /* lines of the block on screen */
} br_cli_rack_view_t;

/* Whether stderr takes a live view: a terminal, and TERM not "dumb". */
bool br_cli_rack_view_live(void);

/* Redraws the block (a live view only). */
void br_cli_rack_view_draw(br_cli_rack_view_t *v);

/* A worker's event line for board index (ctx: the view): its result and
 * view updated, then redrawn, or its note printed. */
void br_cli_rack_view_line(void *ctx, size_t index, const char *line);

/* Board index's worker ended with code (ctx: the view). */
void br_cli_rack_view_done(void *ctx, size_t index, int code);

/* The pool's tick (ctx: the view): the block redrawn. */
void br_cli_rack_view_tick(void *ctx);

#endif
