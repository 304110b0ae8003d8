#include "stats/change_points.h"

#include <math.h>
#include <stdbool.h>

#include "stats/shift.h"

typedef struct cp_found {
	size_t *out;
	size_t cap;
	size_t count;
} cp_found_t;

static void cp_add(cp_found_t *f, size_t at)
{
	if (f->count < f->cap) {
		/* kept ascending: insert in place */
		size_t i = f->count;
		while (i > 0 && f->out[i - 1U] > at) {
			f->out[i] = f->out[i - 1U];
			i--;
		}
		f->out[i] = at;
	}
	f->count++;
}

/* The surest split of the stretch [lo, hi) into *best; false when none is
 * told apart. */
static bool cp_best(const double *y, size_t lo, size_t hi, size_t min_segment, double confidence,
                    double resolution, size_t *best)
{
	bool found = false;
	double best_p = 2.0;
	for (size_t k = lo + min_segment; hi >= min_segment && k + min_segment <= hi; k++) {
		br_shift_t s;
		if (br_stats_shift(y + lo, k - lo, y + k, hi - k, confidence, resolution, &s,
		                   NULL) != BR_OK)
			return false;
		bool told = s.outcome == BR_SHIFT_HIGHER || s.outcome == BR_SHIFT_LOWER;
		if (told && s.p_value < best_p) {
			best_p = s.p_value;
			*best = k;
			found = true;
		}
	}
	return found;
}

/* The stretch [lo, hi): its surest split, searched again on both sides. */
static void cp_search(const double *y, size_t lo, size_t hi, size_t min_segment, double confidence,
                      double resolution, cp_found_t *f)
{
	size_t best = 0;
	if (hi - lo < 2U * min_segment ||
	    !cp_best(y, lo, hi, min_segment, confidence, resolution, &best))
		return;
	cp_add(f, best);
	cp_search(y, lo, best, min_segment, confidence, resolution, f);
	cp_search(y, best, hi, min_segment, confidence, resolution, f);
}

size_t br_stats_change_points(const double *series, size_t n, size_t min_segment, double confidence,
                              double resolution, size_t *out, size_t cap)
{
	for (size_t i = 0; i < n; i++) {
		if (!isfinite(series[i]))
			return 0;
	}
	size_t m = min_segment < 1U ? 1U : min_segment;
	cp_found_t f = {.out = out, .cap = cap};
	cp_search(series, 0, n, m, confidence, resolution, &f);
	/* a first split made across two steps can land a run off: each point
	 * placed again between its neighbours */
	size_t kept = f.count < cap ? f.count : cap;
	for (size_t i = 0; i < kept; i++) {
		size_t lo = i > 0 ? out[i - 1U] : 0U, hi = i + 1U < kept ? out[i + 1U] : n;
		size_t best;
		if (cp_best(series, lo, hi, m, confidence, resolution, &best))
			out[i] = best;
	}
	return f.count;
}
