/*
 * --against (run/board_run.h, br_board_run_execute_ab): base and head
 * measured on the same board in one run, interleaved per bench, each in a
 * run record of its own, under one plan; the head gated on the difference.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/xalloc.h"
#include "results/run_json.h"
#include "run/board_run_private.h"
#include "run/provenance.h"
#include "stats/summary.h"

/* Host A/B rounds: each side's iterations in BOARD_RUN_HOST_ROUNDS launches
 * of its program, in the order base head head base, four times over, so
 * that what changes on the host from one moment (or one launch) to the next
 * falls on both sides alike, a drift across the bench on both equally. */
#define BOARD_RUN_HOST_ROUNDS 8U

/* Merges the bench record after first (the same bench's next round) into
 * first: samples appended, figures summarized again; the later one freed. */
static void host_round_merge(br_run_record_t *rec, size_t first)
{
	br_bench_record_t *a = &rec->benches[first];
	br_bench_record_t *b = &rec->benches[rec->bench_count - 1U];
	if (b->status == BR_BENCH_MEASURED && a->status == BR_BENCH_MEASURED) {
		size_t n = a->n + b->n;
		a->samples = xrealloc(a->samples, n * sizeof(a->samples[0]));
		memcpy(a->samples + a->n, b->samples, b->n * sizeof(b->samples[0]));
		double *v = xcalloc(n, sizeof(double));
		for (size_t i = 0; i < n; i++)
			v[i] = (double)a->samples[i];
		br_error_t ignored;
		if (br_stats_summarize(v, n, &a->summary, &ignored) == BR_OK)
			a->n = n;
		free(v);
		a->wall_seconds += b->wall_seconds;
		a->halts += b->halts;
		/* the other counters are kept from the first round only when the
		 * rounds agree on them (their figures would no longer match n) */
		for (size_t c = 0; c < a->counter_count; c++) {
			free(a->counters[c].samples);
			a->counters[c].samples = NULL;
		}
		a->counter_count = 0;
	} else if (b->status != BR_BENCH_MEASURED) {
		br_bench_record_t keep = *a;
		*a = *b;
		*b = keep; /* the round that failed says why; the other is freed */
	}
	br_board_record_drop_last(rec);
}

/* The launch just measured (the last bench of rec) adds its median to the
 * runs of the side's bench (at first): the launches, in order, are what the
 * paired test of an interleaved run pairs (stats/paired_shift.h). */
static void host_round_launch(br_run_record_t *rec, size_t first)
{
	br_bench_record_t *a = &rec->benches[first];
	const br_bench_record_t *b = &rec->benches[rec->bench_count - 1U];
	if (b->status != BR_BENCH_MEASURED || a->status != BR_BENCH_MEASURED)
		return;
	a->runs = xrealloc(a->runs, (a->run_count + 1U) * sizeof(a->runs[0]));
	memset(&a->runs[a->run_count], 0, sizeof(a->runs[0]));
	a->runs[a->run_count++].median = b->summary.median;
}

/* Where the entry's ELF is at the base commit: the same path relative to the
 * repository, inside the worktree the suite's build: ran in. False, with why
 * in why, when the ELF is outside the repository or the build at the base
 * did not leave it there (benchrack cannot rebuild it). */
static bool ab_entry_elf(const br_ab_sides_t *ab, const char *elf, char *out, size_t cap, char *why,
                         size_t why_cap)
{
	char abs_elf[PATH_MAX], abs_repo[PATH_MAX]; /* realpath writes up to PATH_MAX */
	if (ab->repo == NULL || ab->worktree == NULL || realpath(ab->repo, abs_repo) == NULL) {
		snprintf(why, why_cap, "no worktree of the base to find it in");
		return false;
	}
	if (realpath(elf, abs_elf) == NULL) {
		snprintf(why, why_cap, "%.400s: %s", elf, strerror(errno));
		return false;
	}
	size_t n = strlen(abs_repo);
	if (strncmp(abs_elf, abs_repo, n) != 0 || abs_elf[n] != '/') {
		snprintf(why, why_cap, "%.400s is outside the repository %.400s", elf, abs_repo);
		return false;
	}
	int w = snprintf(out, cap, "%s%s", ab->worktree, abs_elf + n);
	if (w < 0 || (size_t)w >= cap) {
		snprintf(why, why_cap, "path too long");
		return false;
	}
	if (access(out, R_OK) != 0) {
		snprintf(why, why_cap,
		         "the suite's build: at %.12s did not make %.400s (only what it builds, or "
		         "what is committed, exists at the base)",
		         ab->base_commit, abs_elf + n + 1);
		return false;
	}
	return true;
}

/* One bench (entry i of the plan) of a host A/B run, in rounds
 * (BOARD_RUN_HOST_ROUNDS a side), the plan's iterations shared among them. */
static br_status_t host_ab_bench(const br_run_settings_t *s, const br_run_plan_t *plan, size_t i,
                                 const br_ab_sides_t *ab, br_board_run_t *base,
                                 br_board_run_t *head, br_error_t *err)
{
	static const bool base_first[2U * BOARD_RUN_HOST_ROUNDS] = {
	    true, false, false, true, true, false, false, true,
	    true, false, false, true, true, false, false, true};
	br_run_plan_t round = *plan;
	uint32_t total = plan->iterations.value;
	round.iterations.value = (total + BOARD_RUN_HOST_ROUNDS - 1U) / BOARD_RUN_HOST_ROUNDS;
	if (round.iterations.value < 1U)
		round.iterations.value = 1U;
	size_t first_base = base->record.bench_count, first_head = head->record.bench_count;
	for (size_t r = 0; r < 2U * BOARD_RUN_HOST_ROUNDS; r++) {
		br_board_run_t *run = base_first[r] ? base : head;
		const char *program = base_first[r] ? ab->base_elf : ab->head_elf;
		br_status_t st = br_board_execute_host(s, &round, i, 1U, program, run, err);
		size_t first = base_first[r] ? first_base : first_head;
		if (run->record.bench_count > first)
			host_round_launch(&run->record, first);
		if (run->record.bench_count > first + 1U)
			host_round_merge(&run->record, first);
		if (st != BR_OK)
			return st;
	}
	return BR_OK;
}

/* The base's run file beside the head's (which must be open already),
 * <head's name>-base.json: unique as the head's is, and no empty file
 * reserved under another name is left behind. */
static br_status_t ab_base_file(const br_board_run_t *head, br_board_run_t *run, br_error_t *err)
{
	size_t n = strlen(head->run_path);
	if (n <= 5U || n + 5U >= sizeof(run->run_path))
		return br_error_set(err, BR_ERR_USAGE, "%s: path too long", head->run_path);
	snprintf(run->run_path, sizeof(run->run_path), "%.*s-base.json", (int)(n - 5U),
	         head->run_path);
	br_status_t st = br_run_json_save(&run->record, run->run_path, err);
	run->has_run_path = st == BR_OK;
	return st;
}

/* One side of an A/B run: provenance, header, its run file written first. */
static br_status_t ab_side_open(const br_run_settings_t *s, const br_run_plan_t *plan,
                                const br_ab_sides_t *ab, bool base, const br_board_run_t *head,
                                br_board_run_t *run, br_error_t *err)
{
	const char *one = br_board_record_one_elf(plan->suite);
	char base_one[BR_BOARD_RUN_PATH_BYTES], why[BR_ERROR_MESSAGE_BYTES];
	const char *side_one = NULL;
	if (base && one != NULL)
		side_one = ab_entry_elf(ab, one, base_one, sizeof(base_one), why, sizeof(why))
		               ? base_one
		               : NULL;
	br_status_t st;
	if (run->host) { /* a host bench program, not an ELF for a board */
		br_run_provenance_fill_program(&run->record, base ? ab->base_elf : ab->head_elf,
		                               base ? ab->base_commit : s->commit);
		st = BR_OK;
	} else if (base && one != NULL && side_one == NULL && !br_run_plan_has_stub(plan) &&
	           plan->entry_count > 0) {
		br_run_provenance_fill_none(&run->record); /* nothing of the base to name */
		st = BR_OK;
	} else {
		st =
		    br_board_record_firmware(plan, base ? ab->base_elf : ab->head_elf, side_one,
		                             base ? ab->base_commit : s->commit, &run->record, err);
	}
	if (st != BR_OK)
		return st;
	br_board_record_header(run, plan);
	br_record_ab_t *rab = &run->record.ab;
	snprintf(rab->role, sizeof(rab->role), "%s", base ? "base" : "head");
	snprintf(rab->ref, sizeof(rab->ref), "%s", ab->ref);
	snprintf(rab->base_commit, sizeof(rab->base_commit), "%s", ab->base_commit);
	snprintf(rab->head_commit, sizeof(rab->head_commit), "%s", ab->head_commit);
	return base ? ab_base_file(head, run, err) : br_board_record_open(s, run, err);
}

/* Entry e on both sides, base first: the base on the entry's ELF as the
 * base commit built it, the head on the entry's own; where the base cannot
 * be rebuilt, the head alone, and a notice says why. */
static br_status_t ab_measure_entry(const br_run_settings_t *s, const br_run_plan_t *plan,
                                    const br_ab_sides_t *ab, const br_plan_entry_t *e,
                                    br_board_run_t *base, br_board_run_t *head, br_error_t *err)
{
	char base_elf[BR_BOARD_RUN_PATH_BYTES], why[BR_ERROR_MESSAGE_BYTES];
	const char *elf = e->bench->elf_path;
	br_status_t st = BR_OK;
	br_status_t entry = BR_OK;
	br_error_t entry_why;
	if (ab_entry_elf(ab, elf, base_elf, sizeof(base_elf), why, sizeof(why)))
		st = br_board_execute_entry(s, plan, e, base_elf, ab->base_commit, base, &entry,
		                            &entry_why, err);
	else
		br_board_notice(s, "bench %s: not compared with %s: %s; measured on this side only",
		                e->name, ab->ref, why);
	if (st == BR_OK && entry == BR_OK)
		st = br_board_execute_entry(s, plan, e, elf, s->commit, head, &entry, &entry_why,
		                            err);
	if (st == BR_OK && entry != BR_OK) {
		*err = entry_why;
		st = entry;
	}
	return st;
}

/* Every entry of the plan, interleaved per bench: base, head, base, head
 * ... on the same board, so that whatever drifts falls on both; stub
 * benches on the suite firmware of each commit, entries on each commit's
 * build of their ELF. */
static br_status_t ab_execute(const br_run_settings_t *s, const br_run_plan_t *plan,
                              const br_ab_sides_t *ab, br_board_run_t *base, br_board_run_t *head,
                              br_error_t *err)
{
	br_status_t st = BR_OK;
	size_t total = plan->entry_count, done = 0;
	for (size_t i = 0; st == BR_OK && i < plan->entry_count; i++) {
		const br_plan_entry_t *e = &plan->entries[i];
		if (e->kind != BR_SUITE_ENTRY_STUB) {
			br_board_progress(s, (unsigned)done++, (unsigned)total, e->name);
			st = ab_measure_entry(s, plan, ab, e, base, head, err);
			continue;
		}
		done++;
		if (head->host) {
			st = host_ab_bench(s, plan, i, ab, base, head, err);
			continue;
		}
		st = br_board_execute_stub(s, plan, i, 1U, base, err);
		if (st == BR_OK)
			st = br_board_execute_stub(s, plan, i, 1U, head, err);
	}
	br_board_progress_done(s);
	return st;
}

/* The base is the baseline: the gate applies the suite's regression limit
 * to the difference (budgets limit figures, not differences: `check`
 * without --against holds them). */
static void ab_gate(const br_run_settings_t *s, const br_ab_sides_t *ab, br_board_run_t *base,
                    br_board_run_t *head)
{
	br_diff_compute(&base->record, &head->record, &head->diff);
	head->compared = true;
	snprintf(head->baseline_path, sizeof(head->baseline_path), "base %.60s (%.12s): %.900s",
	         ab->ref, ab->base_commit, base->run_path);
	if (!s->check)
		return;
	br_run_record_t diff_only = head->record;
	diff_only.benches = xcalloc(head->record.bench_count + 1U, sizeof(br_bench_record_t));
	memset(&diff_only.budgets, 0, sizeof(diff_only.budgets));
	for (size_t i = 0; i < head->record.bench_count; i++) {
		diff_only.benches[i] = head->record.benches[i];
		memset(&diff_only.benches[i].budgets, 0, sizeof(br_budgets_t));
	}
	br_gate_evaluate(&diff_only, &head->diff, &head->gate);
	free(diff_only.benches);
	head->gated = true;
}

void br_board_run_execute_ab(const br_run_settings_t *s, const br_suite_t *suite,
                             const br_ab_sides_t *ab, br_board_run_t *base, br_board_run_t *head)
{
	br_error_t err;
	br_error_clear(&err);
	br_run_plan_t plan;
	br_run_plan_resolve(s, suite, &head->board, head->host, &plan);
	br_board_run_t *sides[] = {head, base};
	br_status_t st = BR_OK;
	for (size_t i = 0; i < 2U && st == BR_OK; i++)
		st = ab_side_open(s, &plan, ab, sides[i] == base, head, sides[i], &err);
	if (st == BR_OK)
		st = ab_execute(s, &plan, ab, base, head, &err);
	else
		br_board_progress_done(s);
	br_run_plan_free(&plan);
	for (size_t i = 0; i < 2U; i++) {
		if (sides[i]->has_run_path)
			br_board_record_finish(sides[i], st, &err);
	}
	base->status = BR_OK; /* what went wrong is said once, by the head */
	if (st != BR_OK && head->status == BR_OK) {
		head->status = st;
		head->failure = err;
	}
	if (s->json_path != NULL && head->has_run_path)
		br_run_json_save(&head->record, s->json_path, &err);
	if (st != BR_OK || head->status != BR_OK)
		return;
	ab_gate(s, ab, base, head);
}
