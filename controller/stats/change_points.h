/*
 * Steps in a history: where a series of figures (a bench's median over its
 * runs, oldest first) moves to another level and stays there, so that a
 * slow creep of changes each too small for the gate still shows where it
 * happened. Binary segmentation: in a stretch of the series, the split that
 * stats/shift.h separates most surely (smallest p) is a change point when
 * its interval, at confidence, excludes no change and both sides hold at
 * least min_segment figures; then each side is searched the same way.
 * Assumptions: the figures of one level are exchangeable (no trend inside a
 * level); trying every split makes the best one look surer than a single
 * test would, so the confidence asked here should be stricter than the
 * gate's (BR_STATS_CHANGE_CONFIDENCE).
 */
#ifndef BENCHRACK_STATS_CHANGE_POINTS_H
#define BENCHRACK_STATS_CHANGE_POINTS_H

#include <stddef.h>

/* 99.9 %: the scan over every split of a stretch is many tests, not one. */
#define BR_STATS_CHANGE_CONFIDENCE 0.999
/* A level is at least this many runs: fewer cannot be told from noise. */
#define BR_STATS_CHANGE_MIN_SEGMENT 5U

/*
 * Finds the change points of series[0..n) and writes up to cap of them to
 * out, ascending: each the index of the first figure of a new level.
 * resolution as for br_stats_shift. Returns how many there are (which may
 * exceed cap; only cap are written). Non-finite figures make no change
 * point (a series holding one is not searched).
 */
size_t br_stats_change_points(const double *series, size_t n, size_t min_segment, double confidence,
                              double resolution, size_t *out, size_t cap);

#endif
