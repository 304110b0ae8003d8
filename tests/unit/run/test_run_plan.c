/*
 * The plan of a run (run/run_plan.h): every setting resolved once, with
 * where it came from. Suites and boards are parsed from YAML text here, as
 * a user writes them; each case says which source must win over which, so
 * that a command-line value that did not override a suite's (or a suite
 * entry's that did not override the suite's, or a default that hid a
 * suite's) fails a check naming the setting.
 */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "config/board.h"
#include "config/suite.h"
#include "run/run_plan.h"

static const char board_yaml[] = "name: plan-board\n"
                                 "core: cortex-m4\n"
                                 "server: {kind: qemu, program: qemu-system-arm, machine: "
                                 "netduinoplus2}\n"
                                 "counter: {kind: tim2}\n"
                                 "memory:\n"
                                 "  - {name: flash, kind: flash, origin: 0x08000000, length: 1M}\n"
                                 "  - {name: sram, kind: ram, origin: 0x20000000, length: 128K}\n";

static const char board_load_yaml[] =
    "name: plan-load\n"
    "core: cortex-m4\n"
    "server: {kind: remote, host: 127.0.0.1, port: 3333, flavour: openocd}\n"
    "counter: {kind: dwt}\n"
    "clock_hz: 168000000\n"
    "load: always\n"
    "memory:\n"
    "  - {name: flash, kind: flash, origin: 0x08000000, length: 1M}\n"
    "  - {name: sram, kind: ram, origin: 0x20000000, length: 128K}\n";

/* Every level set: the suite's keys, an entry with its own, one without. */
static const char suite_yaml[] = "name: plan-suite\n"
                                 "boards: [plan-board]\n"
                                 "default_iterations: 50\n"
                                 "warmup_runs: 3\n"
                                 "timeout_seconds: 7\n"
                                 "stack_watermark: true\n"
                                 "fail_on_regression_percent: 2.5\n"
                                 "budgets: {max_stack_bytes: 900, max_text_bytes: 4000}\n"
                                 "benches:\n"
                                 "  - name: plain\n"
                                 "  - name: own\n"
                                 "    iterations: 20\n"
                                 "    warmup_runs: 1\n"
                                 "    budgets: {max_stack_bytes: 300}\n"
                                 "  - name: entry\n"
                                 "    elf: fw.elf\n"
                                 "    function: work\n"
                                 "    iterations: 9\n";

/* Nothing set: every value is a default. */
static const char bare_yaml[] = "name: bare-suite\n"
                                "boards: [plan-board]\n"
                                "benches:\n"
                                "  - name: plain\n";

static void load_board(const char *name, const char *text, br_board_t *board)
{
	br_error_t err;
	br_error_clear(&err);
	br_status_t st =
	    br_board_parse(name, (const unsigned char *)text, strlen(text), board, &err);
	CHECK_MSG(st == BR_OK, "%s: %s", name, err.message);
}

static void load_suite(const char *name, const char *text, br_suite_t *suite)
{
	br_error_t err;
	br_error_clear(&err);
	br_status_t st =
	    br_suite_parse(name, (const unsigned char *)text, strlen(text), suite, &err);
	CHECK_MSG(st == BR_OK, "%s: %s", name, err.message);
}

static const br_plan_entry_t *entry(const br_run_plan_t *plan, const char *name)
{
	static const br_plan_entry_t missing; /* so that the checks after fail, not crash */
	const br_plan_entry_t *e = br_run_plan_entry(plan, name);
	CHECK_MSG(e != NULL, "no plan entry %s", name);
	return e != NULL ? e : &missing;
}

/* value and source of one setting, named what for the message */
static void expect(const char *what, br_plan_uint_t got, uint32_t value, br_run_source_t source)
{
	CHECK_MSG(got.value == value && got.source == source, "%s: %u from %s, expected %u from %s",
	          what, got.value, br_run_source_name(got.source), value,
	          br_run_source_name(source));
}

/* The suite's keys over the defaults, an entry's over the suite's. */
static void test_suite_over_default(const br_board_t *board)
{
	br_suite_t suite;
	load_suite("suites/plan-suite.yaml", suite_yaml, &suite);
	br_run_settings_t s;
	memset(&s, 0, sizeof(s));
	br_run_plan_t plan;
	br_run_plan_resolve(&s, &suite, board, false, &plan);
	CHECK(plan.entry_count == 3 && plan.stub_count == 2);
	expect("run iterations", plan.iterations, 50, BR_RUN_FROM_SUITE);
	expect("run warmup", plan.warmup, 3, BR_RUN_FROM_SUITE);
	expect("run timeout", plan.timeout_ms, 7000, BR_RUN_FROM_SUITE);
	expect("plain iterations", entry(&plan, "plain")->iterations, 50, BR_RUN_FROM_SUITE);
	expect("plain warmup", entry(&plan, "plain")->warmup, 3, BR_RUN_FROM_SUITE);
	expect("own iterations", entry(&plan, "own")->iterations, 20, BR_RUN_FROM_ENTRY);
	expect("own warmup", entry(&plan, "own")->warmup, 1, BR_RUN_FROM_ENTRY);
	expect("entry iterations", entry(&plan, "entry")->iterations, 9, BR_RUN_FROM_ENTRY);
	expect("entry warmup", entry(&plan, "entry")->warmup, 3, BR_RUN_FROM_SUITE);
	expect("entry timeout", entry(&plan, "entry")->timeout_ms, 7000, BR_RUN_FROM_SUITE);
	CHECK(plan.stack_watermark && plan.stack_watermark_source == BR_RUN_FROM_SUITE);
	CHECK(plan.regression_percent == 2.5 && plan.regression_source == BR_RUN_FROM_SUITE);
	/* budgets: the entry's key over the suite's; text is a firmware's
	 * figure, so a stub bench holds none and an ELF entry the suite's */
	const br_plan_entry_t *own = entry(&plan, "own"), *plain = entry(&plan, "plain");
	CHECK(own->budgets.max_stack_bytes.set && own->budgets.max_stack_bytes.value == 300);
	CHECK(plain->budgets.max_stack_bytes.set && plain->budgets.max_stack_bytes.value == 900);
	CHECK(!plain->budgets.max_text_bytes.set);
	CHECK(entry(&plan, "entry")->budgets.max_text_bytes.set);
	CHECK(plan.budgets.max_text_bytes.set && plan.budgets.max_text_bytes.value == 4000);
	br_run_plan_free(&plan);
	br_suite_free(&suite);
}

/* The command line over an entry's keys and over the suite's. */
static void test_cli_over_suite(const br_board_t *board)
{
	br_suite_t suite;
	load_suite("suites/plan-suite.yaml", suite_yaml, &suite);
	br_run_settings_t s;
	memset(&s, 0, sizeof(s));
	s.iterations_set = true;
	s.iterations = 5;
	s.warmup_set = true;
	s.warmup = 0;
	s.timeout_s = 2;
	br_run_plan_t plan;
	br_run_plan_resolve(&s, &suite, board, false, &plan);
	expect("run iterations", plan.iterations, 5, BR_RUN_FROM_CLI);
	expect("run warmup", plan.warmup, 0, BR_RUN_FROM_CLI);
	expect("run timeout", plan.timeout_ms, 2000, BR_RUN_FROM_CLI);
	for (size_t i = 0; i < plan.entry_count; i++) {
		const br_plan_entry_t *e = &plan.entries[i];
		expect(e->name, e->iterations, 5, BR_RUN_FROM_CLI);
		expect(e->name, e->warmup, 0, BR_RUN_FROM_CLI);
		expect(e->name, e->timeout_ms, 2000, BR_RUN_FROM_CLI);
	}
	/* --min-detectable's count from the baseline's spread over -n */
	br_run_plan_size(&plan, 333);
	expect("sized iterations", plan.iterations, 333, BR_RUN_FROM_SPREAD);
	expect("sized own", entry(&plan, "own")->iterations, 333, BR_RUN_FROM_SPREAD);
	expect("sized entry", entry(&plan, "entry")->iterations, 333, BR_RUN_FROM_SPREAD);
	expect("warmup kept", entry(&plan, "own")->warmup, 0, BR_RUN_FROM_CLI);
	br_run_plan_free(&plan);
	br_suite_free(&suite);
}

/* A suite that sets nothing, and no suite at all: the defaults, unless the
 * command line says otherwise. */
static void test_defaults(const br_board_t *board)
{
	br_suite_t suite;
	load_suite("suites/bare-suite.yaml", bare_yaml, &suite);
	br_run_settings_t s;
	memset(&s, 0, sizeof(s));
	br_run_plan_t plan;
	br_run_plan_resolve(&s, &suite, board, false, &plan);
	expect("bare iterations", entry(&plan, "plain")->iterations, 100, BR_RUN_FROM_DEFAULT);
	expect("bare warmup", entry(&plan, "plain")->warmup, 2, BR_RUN_FROM_DEFAULT);
	expect("bare timeout", entry(&plan, "plain")->timeout_ms, 30000, BR_RUN_FROM_DEFAULT);
	CHECK(plan.stack_watermark && plan.stack_watermark_source == BR_RUN_FROM_DEFAULT);
	CHECK(plan.regression_percent == BR_SUITE_DEFAULT_REGRESSION_PERCENT &&
	      plan.regression_source == BR_RUN_FROM_DEFAULT);
	br_run_plan_free(&plan);
	br_suite_free(&suite);

	br_run_plan_resolve(&s, NULL, board, false, &plan);
	CHECK(plan.entry_count == 0 && br_run_plan_has_stub(&plan));
	expect("firmware iterations", plan.iterations, 100, BR_RUN_FROM_DEFAULT);
	expect("firmware timeout", plan.timeout_ms, 30000, BR_RUN_FROM_DEFAULT);
	br_run_plan_free(&plan);
	s.iterations_set = true;
	s.iterations = 7;
	br_run_plan_resolve(&s, NULL, board, false, &plan);
	expect("firmware -n", plan.iterations, 7, BR_RUN_FROM_CLI);
	expect("firmware warmup", plan.warmup, 2, BR_RUN_FROM_DEFAULT);
	br_run_plan_free(&plan);
}

/* The board's counter and load policy, the command line's --remote over the
 * board's server. */
static void test_board(const br_board_t *board, const br_board_t *loaded)
{
	br_run_settings_t s;
	memset(&s, 0, sizeof(s));
	br_run_plan_t plan;
	br_run_plan_resolve(&s, NULL, board, false, &plan);
	CHECK(plan.counter.name != NULL && strcmp(plan.counter.name, "tim2") == 0);
	CHECK(plan.counter_source == BR_RUN_FROM_BOARD);
	CHECK(plan.load == BR_BOARD_LOAD_DEFAULT && plan.load_source == BR_RUN_FROM_DEFAULT);
	CHECK(plan.endpoint_source == BR_RUN_FROM_BOARD);
	br_run_plan_free(&plan);

	s.remote_host = "127.0.0.1";
	s.remote_port = 1234;
	br_run_plan_resolve(&s, NULL, loaded, false, &plan);
	CHECK(plan.counter.name != NULL && strcmp(plan.counter.name, "dwt") == 0);
	CHECK(plan.counter.clock_hz == 168000000U);
	CHECK(plan.load == BR_BOARD_LOAD_ALWAYS && plan.load_source == BR_RUN_FROM_BOARD);
	CHECK(plan.endpoint_source == BR_RUN_FROM_CLI);
	br_run_plan_free(&plan);
}

/* On the host one count runs every bench: an entry's own keys do not
 * apply there, the suite's do, and no budget in the boards' units. */
static void test_host(void)
{
	br_suite_t suite;
	load_suite("suites/plan-suite.yaml", suite_yaml, &suite);
	br_run_settings_t s;
	memset(&s, 0, sizeof(s));
	br_board_t none;
	memset(&none, 0, sizeof(none));
	br_run_plan_t plan;
	br_run_plan_resolve(&s, &suite, &none, true, &plan);
	expect("host own iterations", entry(&plan, "own")->iterations, 50, BR_RUN_FROM_SUITE);
	expect("host own warmup", entry(&plan, "own")->warmup, 3, BR_RUN_FROM_SUITE);
	CHECK(!entry(&plan, "own")->budgets.max_stack_bytes.set);
	CHECK(!plan.budgets.max_stack_bytes.set && !plan.budgets.max_text_bytes.set);
	CHECK(strcmp(plan.counter.name, BR_RUN_HOST_COUNTER) == 0);
	CHECK(plan.counter.clock_hz == BR_RUN_NS_PER_S);
	CHECK(plan.counter_source == BR_RUN_FROM_DEFAULT);
	br_run_plan_free(&plan);
	br_suite_free(&suite);
}

/* Each source has its own name. */
static void test_source_names(void)
{
	static const br_run_source_t all[] = {BR_RUN_FROM_DEFAULT, BR_RUN_FROM_BOARD,
	                                      BR_RUN_FROM_SUITE,   BR_RUN_FROM_ENTRY,
	                                      BR_RUN_FROM_CLI,     BR_RUN_FROM_SPREAD};
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		CHECK(strcmp(br_run_source_name(all[i]), "?") != 0);
		for (size_t j = 0; j < i; j++)
			CHECK(strcmp(br_run_source_name(all[i]), br_run_source_name(all[j])) != 0);
	}
	CHECK(strcmp(br_run_source_name(BR_RUN_FROM_CLI), "command line") == 0);
}

int main(void)
{
	br_board_t board, loaded;
	load_board("boards/plan-board.yaml", board_yaml, &board);
	load_board("boards/plan-load.yaml", board_load_yaml, &loaded);
	test_suite_over_default(&board);
	test_cli_over_suite(&board);
	test_defaults(&board);
	test_board(&board, &loaded);
	test_host();
	test_source_names();
	br_board_free(&board);
	br_board_free(&loaded);
	return check_finish();
}
