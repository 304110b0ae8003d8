#include "rack/rack_result.h"

#include <string.h>

#include "results/contract.h"
#include "results/json_writer.h"

#define RACK_EXIT_REGRESSION 1
#define RACK_EXIT_INFRA 3

static const struct {
	const char *name, *key;
} outcomes[] = {
    [BR_RACK_NOT_RUN] = {"not run", "not-run"},
    [BR_RACK_PASS] = {"pass", "pass"},
    [BR_RACK_REGRESSION] = {"regression", "regression"},
    [BR_RACK_INFRA] = {"infrastructure error", "infra"},
};

const char *br_rack_outcome_name(br_rack_outcome_t outcome)
{
	return outcomes[outcome].name;
}

const char *br_rack_outcome_key(br_rack_outcome_t outcome)
{
	return outcomes[outcome].key;
}

bool br_rack_outcome_parse(const char *key, br_rack_outcome_t *out)
{
	for (size_t i = 0; i < sizeof(outcomes) / sizeof(outcomes[0]); i++) {
		if (strcmp(outcomes[i].key, key) == 0) {
			*out = (br_rack_outcome_t)i;
			return true;
		}
	}
	return false;
}

br_rack_outcome_t br_rack_board_outcome(const br_rack_board_result_t *board)
{
	static const br_rack_outcome_t order[] = {BR_RACK_REGRESSION, BR_RACK_INFRA,
	                                          BR_RACK_NOT_RUN};
	for (size_t o = 0; o < sizeof(order) / sizeof(order[0]); o++) {
		for (size_t i = 0; i < board->suite_count; i++) {
			if (board->suites[i].outcome == order[o])
				return order[o];
		}
	}
	if (board->suite_count > 0)
		return BR_RACK_PASS;
	/* a health check only */
	if (!board->probed)
		return BR_RACK_NOT_RUN;
	return board->healthy ? BR_RACK_PASS : BR_RACK_INFRA;
}

int br_rack_exit_code(const br_rack_board_result_t *boards, size_t count)
{
	bool infra = false;
	for (size_t i = 0; i < count; i++) {
		br_rack_outcome_t o = br_rack_board_outcome(&boards[i]);
		if (o == BR_RACK_REGRESSION)
			return RACK_EXIT_REGRESSION;
		infra = infra || o == BR_RACK_INFRA || o == BR_RACK_NOT_RUN;
	}
	return infra ? RACK_EXIT_INFRA : 0;
}

static void owner(br_json_t *j, const br_rack_lock_owner_t *o)
{
	br_json_object_begin(j);
	br_json_key(j, "pid");
	br_json_int(j, o->pid);
	br_json_key(j, "host");
	br_json_string(j, o->host);
	br_json_key(j, "started_ms");
	br_json_int(j, o->started_ms);
	br_json_object_end(j);
}

static void reasons(br_json_t *j, const br_rack_attempt_t *a, size_t n)
{
	br_json_array_begin(j);
	for (size_t i = 0; i < n; i++)
		br_json_string(j, a[i].reason);
	br_json_array_end(j);
}

static void board_write(br_json_t *j, const br_rack_board_result_t *b)
{
	br_json_object_begin(j);
	br_json_key(j, "name");
	br_json_string(j, b->name);
	br_json_key(j, "board_file");
	br_json_string(j, b->board_path);
	br_json_key(j, "outcome");
	br_json_string(j, br_rack_outcome_key(br_rack_board_outcome(b)));
	br_json_key(j, "started_ms");
	br_json_int(j, b->started_ms);
	br_json_key(j, "ended_ms");
	br_json_int(j, b->ended_ms);
	br_json_key(j, "health");
	br_json_object_begin(j);
	br_json_key(j, "probed");
	br_json_bool(j, b->probed);
	br_json_key(j, "healthy");
	br_json_bool(j, b->healthy);
	br_json_key(j, "reason");
	br_json_string(j, b->probe_reason);
	br_json_key(j, "failed_attempts");
	reasons(j, b->probe_failed, b->probe_failed_count);
	br_json_object_end(j);
	br_json_key(j, "lock");
	if (!b->locked) {
		br_json_null(j);
	} else {
		br_json_object_begin(j);
		br_json_key(j, "owner");
		owner(j, &b->lock);
		br_json_key(j, "acquired_ms");
		br_json_int(j, b->lock.started_ms);
		br_json_key(j, "released_ms");
		br_json_int(j, b->released_ms);
		br_json_key(j, "stale_taken_over");
		if (b->took_over)
			owner(j, &b->stale);
		else
			br_json_null(j);
		br_json_object_end(j);
	}
	br_json_key(j, "suites");
	br_json_array_begin(j);
	for (size_t i = 0; i < b->suite_count; i++) {
		const br_rack_suite_result_t *s = &b->suites[i];
		br_json_object_begin(j);
		br_json_key(j, "suite");
		br_json_string(j, s->suite);
		br_json_key(j, "outcome");
		br_json_string(j, br_rack_outcome_key(s->outcome));
		br_json_key(j, "reason");
		br_json_string(j, s->reason);
		br_json_key(j, "attempts");
		br_json_uint(j, s->attempts);
		br_json_key(j, "failed_attempts");
		reasons(j, s->failed, s->failed_count);
		br_json_key(j, "run");
		br_json_string_or_null(j, s->run_path[0] != '\0' ? s->run_path : NULL);
		br_json_object_end(j);
	}
	br_json_array_end(j);
	br_json_object_end(j);
}

void br_rack_document_write(const char *rack_name, const br_rack_board_result_t *boards,
                            size_t count, FILE *out)
{
	br_json_t j;
	br_json_init(&j, out);
	br_json_object_begin(&j);
	br_json_key(&j, "kind");
	br_json_string(&j, BR_CONTRACT_RACK);
	br_json_key(&j, "schema_version");
	br_json_uint(&j, BR_CONTRACT_RACK_VERSION);
	br_json_key(&j, "name");
	br_json_string(&j, rack_name);
	br_json_key(&j, "exit_code");
	br_json_int(&j, br_rack_exit_code(boards, count));
	br_json_key(&j, "boards");
	br_json_array_begin(&j);
	for (size_t i = 0; i < count; i++)
		board_write(&j, &boards[i]);
	br_json_array_end(&j);
	br_json_object_end(&j);
	br_json_finish(&j);
}

void br_rack_board_worker_ended(br_rack_board_result_t *b, int code)
{
	for (size_t k = 0; k < b->suite_count; k++) {
		br_rack_suite_result_t *s = &b->suites[k];
		if (s->outcome != BR_RACK_NOT_RUN || s->reason[0] != '\0')
			continue;
		s->outcome = BR_RACK_INFRA;
		if (code < 0)
			snprintf(s->reason, sizeof(s->reason),
			         "the board's worker was stopped by signal %d (interrupted, "
			         "--board-timeout or a crash)",
			         -code);
		else
			snprintf(s->reason, sizeof(s->reason),
			         "the board's worker ended (exit %d) before this suite", code);
	}
}
