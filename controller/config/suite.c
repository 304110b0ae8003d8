#include "config/suite.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/escape.h"
#include "common/xalloc.h"
#include "config/cfg_path.h"

#define SUITE_MAX_BENCHES 32U /* the stub's bench table */
#define SUITE_MAX_WARMUP 1000000U
#define SUITE_MAX_TIMEOUT_S 86400U
#define SUITE_MAX_PERCENT 1000.0
#define SUITE_DEFAULT_TIMEOUT_S 30U
#define SUITE_DEFAULT_ITERATIONS 100U
#define SUITE_DEFAULT_WARMUP 2U

#define G(field) offsetof(br_suite_budgets_t, field)

/* max_text_bytes last: a bench's budgets take all but it. */
static const br_cfg_field_t budget_fields[] = {
    {.key = "max_stack_bytes",
     .type = BR_CFG_UINT,
     .offset = G(max_stack_bytes),
     .size_suffix = true,
     .form = "a whole number of bytes, e.g. 512"},
    {.key = "max_heap_bytes",
     .type = BR_CFG_UINT,
     .offset = G(max_heap_bytes),
     .size_suffix = true,
     .form = "a whole number of bytes, e.g. 0"},
    {.key = "max_cycles_per_iteration",
     .type = BR_CFG_UINT,
     .offset = G(max_cycles_per_iteration),
     .form = "a whole number of counter ticks (the median per iteration), e.g. 3000"},
    {.key = "max_text_bytes",
     .type = BR_CFG_UINT,
     .offset = G(max_text_bytes),
     .size_suffix = true,
     .form = "a whole number of bytes of code, e.g. 16K"},
};

static const br_cfg_map_t suite_budgets_map = {
    .what = "budgets",
    .size = sizeof(br_suite_budgets_t),
    .fields = budget_fields,
    .field_count = BR_CFG_COUNT(budget_fields),
};

static const br_cfg_map_t bench_budgets_map = {
    .what = "budgets",
    .size = sizeof(br_suite_budgets_t),
    .fields = budget_fields,
    .field_count = BR_CFG_COUNT(budget_fields) - 1U,
};

#define E(field) offsetof(br_suite_bench_t, field)

static const br_cfg_field_t bench_fields[] = {
    {.key = "name",
     .type = BR_CFG_STRING,
     .offset = E(name),
     .required = true,
     .form = "the bench's name (a bench of the suite firmware, or a name for an elf entry)"},
    {.key = "elf",
     .type = BR_CFG_STRING,
     .offset = E(elf),
     .form = "an unmodified firmware ELF to measure at breakpoints"},
    {.key = "from",
     .type = BR_CFG_STRING,
     .offset = E(from),
     .form = "where measuring starts: a symbol, an address or file:line"},
    {.key = "to",
     .type = BR_CFG_STRING,
     .offset = E(to),
     .form = "where measuring stops: a symbol, an address or file:line"},
    {.key = "function",
     .type = BR_CFG_STRING,
     .offset = E(function),
     .form = "a function whose every call is measured, entry to return"},
    {.key = "iterations",
     .type = BR_CFG_UINT,
     .offset = E(iterations),
     .min = 1,
     .max = BR_SUITE_MAX_ITERATIONS,
     .form = "a whole number from 1 to 1024"},
    {.key = "warmup_runs",
     .type = BR_CFG_UINT,
     .offset = E(warmup_runs),
     .max = SUITE_MAX_WARMUP,
     .form = "a whole number from 0 to 1000000"},
    {.key = "budgets",
     .type = BR_CFG_MAP,
     .offset = E(budgets),
     .map = &bench_budgets_map,
     .form = "a mapping of max_stack_bytes, max_heap_bytes, max_cycles_per_iteration"},
};

static const br_cfg_map_t bench_map = {
    .what = "bench",
    .size = sizeof(br_suite_bench_t),
    .fields = bench_fields,
    .field_count = BR_CFG_COUNT(bench_fields),
    .shorthand = "name",
};

#define SB(field) offsetof(br_suite_size_budget_t, field)
static const br_cfg_field_t size_budget_fields[] = {
    {.key = "symbol",
     .type = BR_CFG_STRING,
     .offset = SB(symbol),
     .form = "a symbol of the suite firmware (any of its names)"},
    {.key = "section",
     .type = BR_CFG_STRING,
     .offset = SB(section),
     .form = "a section of the suite firmware, e.g. .bss"},
    {.key = "max_flash_bytes",
     .type = BR_CFG_UINT,
     .offset = SB(max_flash_bytes),
     .form = "the most bytes of flash it may take (text and .data's load image)"},
    {.key = "max_ram_bytes",
     .type = BR_CFG_UINT,
     .offset = SB(max_ram_bytes),
     .form = "the most bytes of RAM it may take (.data and .bss)"},
};
static const br_cfg_map_t size_budget_map = {
    .what = "size budget",
    .size = sizeof(br_suite_size_budget_t),
    .fields = size_budget_fields,
    .field_count = BR_CFG_COUNT(size_budget_fields),
};

#define BU(field) offsetof(br_suite_build_t, field)
static const br_cfg_field_t build_fields[] = {
    {.key = "command",
     .type = BR_CFG_STRING,
     .offset = BU(command),
     .required = true,
     .form = "a shell command run at the root of a git worktree of the commit"},
    {.key = "firmware",
     .type = BR_CFG_STRING,
     .offset = BU(firmware),
     .required = true,
     .form = "the suite firmware ELF it yields, relative to the worktree's root"},
    {.key = "host_program",
     .type = BR_CFG_STRING,
     .offset = BU(host_program),
     .form = "the host bench program it yields (benches/host/), relative to the worktree's "
             "root, for --against with --board host"},
};
static const br_cfg_map_t build_map = {
    "build", sizeof(br_suite_build_t), build_fields, BR_CFG_COUNT(build_fields), NULL, NULL, NULL,
    0};

#define R(i) offsetof(br_suite_regression_t, by_metric[i])
#define REGRESSION_FORM                                                                            \
	"a limit: a percentage (0.5%), an amount in the metric's unit (10; 64B or 1K for "         \
	"bytes) or both (2% and 64B)"
#define REGRESSION_FIELD(index, name)                                                              \
	{.key = name, .type = BR_CFG_STRING, .offset = R(index), .form = REGRESSION_FORM},
static const br_cfg_field_t regression_fields[] = {BR_REGRESSION_METRIC_LIST(REGRESSION_FIELD)};
#undef REGRESSION_FIELD
_Static_assert(BR_CFG_COUNT(regression_fields) == BR_REGRESSION_METRICS,
               "a key for every metric a limit can name");
static const br_cfg_map_t regression_map = {"regression",
                                            sizeof(br_suite_regression_t),
                                            regression_fields,
                                            BR_CFG_COUNT(regression_fields),
                                            NULL,
                                            NULL,
                                            NULL,
                                            0};

#define F(field) offsetof(br_suite_file_t, field)

static const br_cfg_field_t suite_fields[] = {
    {.key = "name",
     .type = BR_CFG_STRING,
     .offset = F(name),
     .required = true,
     .form = "the suite's name, e.g. default"},
    {.key = "description",
     .type = BR_CFG_STRING,
     .offset = F(description),
     .form = "one line of text"},
    {.key = "firmware",
     .type = BR_CFG_STRING,
     .offset = F(firmware),
     .form = "the suite firmware ELF, relative to this file (default: the suite built with "
             "benchrack)"},
    {.key = "boards",
     .type = BR_CFG_LIST,
     .element = BR_CFG_STRING,
     .offset = F(boards),
     .required = true,
     .min_items = 1,
     .form = "a list of board names (configs/boards/NAME.yaml) or board files"},
    {.key = "default_iterations",
     .type = BR_CFG_UINT,
     .offset = F(default_iterations),
     .min = 1,
     .max = BR_SUITE_MAX_ITERATIONS,
     .form = "a whole number from 1 to 1024"},
    {.key = "warmup_runs",
     .type = BR_CFG_UINT,
     .offset = F(warmup_runs),
     .max = SUITE_MAX_WARMUP,
     .form = "a whole number from 0 to 1000000"},
    {.key = "stack_watermark",
     .type = BR_CFG_BOOL,
     .offset = F(stack_watermark),
     .form = "true or false"},
    {.key = "fail_on_regression_percent",
     .type = BR_CFG_NUMBER,
     .offset = F(fail_on_regression_percent),
     .min_number = 0.0,
     .max_number = SUITE_MAX_PERCENT,
     .form = "a percentage from 0 to 1000, e.g. 5"},
    {.key = "regression",
     .type = BR_CFG_MAP,
     .offset = F(regression),
     .map = &regression_map,
     .form = "a mapping of metric names (instructions, cycles, ticks, ns, stack_bytes, "
             "heap_peak_bytes, text_bytes) to limits, e.g. {instructions: 0.5%, stack_bytes: 64B}"},
    {.key = "timeout_seconds",
     .type = BR_CFG_UINT,
     .offset = F(timeout_seconds),
     .min = 1,
     .max = SUITE_MAX_TIMEOUT_S,
     .form = "how long one bench may run, 1 to 86400 seconds"},
    {.key = "budgets",
     .type = BR_CFG_MAP,
     .offset = F(budgets),
     .map = &suite_budgets_map,
     .form = "a mapping of max_stack_bytes, max_heap_bytes, max_cycles_per_iteration, "
             "max_text_bytes"},
    {.key = "size_budgets",
     .type = BR_CFG_LIST,
     .element = BR_CFG_MAP,
     .map = &size_budget_map,
     .offset = F(size_budgets),
     .form = "a list of {symbol: NAME or section: NAME, max_flash_bytes, max_ram_bytes}"},
    {.key = "benches",
     .type = BR_CFG_LIST,
     .element = BR_CFG_MAP,
     .map = &bench_map,
     .offset = F(benches),
     .required = true,
     .min_items = 1,
     .max_items = SUITE_MAX_BENCHES,
     .form = "a list of 1 to 32 benches: names, or {name, ...} mappings"},
    {.key = "upload",
     .type = BR_CFG_MAP,
     .offset = F(upload),
     .map = &br_upload_section_map,
     .form = "a mapping with sinks: [...] (where results are posted)"},
    {.key = "build",
     .type = BR_CFG_MAP,
     .offset = F(build),
     .map = &build_map,
     .form = "{command, firmware}: how to build the firmware at a commit (--against)"},
};

static const br_cfg_map_t suite_map = {
    .what = "suite",
    .size = sizeof(br_suite_file_t),
    .fields = suite_fields,
    .field_count = BR_CFG_COUNT(suite_fields),
};

/* Which kind of entry, from which keys it has; refuses mixed or half forms. */
static br_status_t classify(const char *file, br_suite_bench_t *b, br_error_t *err)
{
	bool range = b->from.set || b->to.set;
	if (!b->elf.set) {
		const br_cfg_string_t *stray =
		    b->from.set ? &b->from : (b->to.set ? &b->to : &b->function);
		if (stray->set)
			return br_cfg_error(err, file, stray->mark,
			                    "bench '%s' has %s but no elf; expected elf: PATH (a "
			                    "bench of the suite firmware runs whole)",
			                    b->name.value,
			                    stray == &b->from ? "from"
			                    : stray == &b->to ? "to"
			                                      : "function");
		b->kind = BR_SUITE_ENTRY_STUB;
		return BR_OK;
	}
	if (range && b->function.set)
		return br_cfg_error(err, file, b->function.mark,
		                    "bench '%s' has both function and from/to; expected either "
		                    "function: NAME or from: and to:",
		                    b->name.value);
	if (b->from.set != b->to.set) {
		const br_cfg_string_t *given = b->from.set ? &b->from : &b->to;
		return br_cfg_error(
		    err, file, given->mark,
		    "bench '%s' has %s without %s; expected both from: and to:", b->name.value,
		    b->from.set ? "from" : "to", b->from.set ? "to" : "from");
	}
	if (!range && !b->function.set)
		return br_cfg_error(err, file, b->elf.mark,
		                    "bench '%s' has elf but nothing to measure in it; expected "
		                    "function: NAME, or from: and to:",
		                    b->name.value);
	b->kind = range ? BR_SUITE_ENTRY_RANGE : BR_SUITE_ENTRY_FUNCTION;
	return BR_OK;
}

static br_status_t check_benches(br_suite_t *s, br_error_t *err)
{
	const char *file = s->path;
	for (size_t i = 0; i < s->bench_count; i++) {
		br_suite_bench_t *b = &s->benches[i];
		if (!br_text_is_plain(b->name.value))
			return br_cfg_error(
			    err, file, b->name.mark,
			    "bench name '%s' holds a control character or bytes that "
			    "are not UTF-8; expected printable text",
			    b->name.value);
		if (strlen(b->name.value) > BR_SUITE_NAME_MAX)
			return br_cfg_error(
			    err, file, b->name.mark,
			    "bench name '%s' is longer than %u characters; expected "
			    "a shorter name",
			    b->name.value, BR_SUITE_NAME_MAX);
		for (size_t j = 0; j < i; j++) {
			if (strcmp(s->benches[j].name.value, b->name.value) == 0)
				return br_cfg_error(err, file, b->name.mark,
				                    "bench '%s' listed twice (first at line %u); "
				                    "expected each bench once",
				                    b->name.value, s->benches[j].name.mark.line);
		}
		br_status_t st = classify(file, b, err);
		if (st != BR_OK)
			return st;
		if (b->elf.set)
			b->elf_path = br_cfg_path_resolve(s->dir, b->elf.value);
		if (b->budgets.max_stack_bytes.set && !s->stack_watermark)
			return br_cfg_error(err, file, b->budgets.max_stack_bytes.mark,
			                    "max_stack_bytes needs the stack measured; expected "
			                    "stack_watermark: true");
	}
	return BR_OK;
}

/* The regression: section's texts as limits, each checked where it stands. */
static br_status_t check_regression(br_suite_t *s, br_error_t *err)
{
	for (size_t i = 0; i < BR_REGRESSION_METRICS; i++) {
		const br_cfg_string_t *text = &s->file.regression.by_metric[i];
		if (!text->set)
			continue;
		const char *why = NULL;
		const char *metric = br_regression_metric_names[i];
		if (!br_regression_limit_parse(text->value, metric, &s->regression.by_metric[i],
		                               &why))
			return br_cfg_error(err, s->path, text->mark,
			                    "regression limit '%s' for %s is not one; expected %s",
			                    text->value, metric, why);
	}
	return BR_OK;
}

/* Each size budget names one symbol or one section and sets a limit. */
static br_status_t check_size_budgets(br_suite_t *s, br_error_t *err)
{
	s->size_budgets = s->file.size_budgets.items;
	s->size_budget_count = s->file.size_budgets.count;
	for (size_t i = 0; i < s->size_budget_count; i++) {
		const br_suite_size_budget_t *b = &s->size_budgets[i];
		if (b->symbol.set == b->section.set)
			return br_cfg_error(err, s->path,
			                    b->symbol.set ? b->section.mark : b->head.mark,
			                    "a size budget %s; expected either symbol: NAME or "
			                    "section: NAME",
			                    b->symbol.set ? "names both a symbol and a section"
			                                  : "names neither a symbol nor a section");
		const br_cfg_string_t *what = b->symbol.set ? &b->symbol : &b->section;
		if (!br_text_is_plain(what->value) || what->value[0] == '\0')
			return br_cfg_error(
			    err, s->path, what->mark,
			    "size budget name is empty or holds a control character; "
			    "expected a symbol or section name");
		if (!b->max_flash_bytes.set && !b->max_ram_bytes.set)
			return br_cfg_error(err, s->path, what->mark,
			                    "size budget of '%s' sets no limit; expected "
			                    "max_flash_bytes: N and/or max_ram_bytes: N",
			                    what->value);
	}
	return BR_OK;
}

static br_status_t check_suite(br_suite_t *s, br_error_t *err)
{
	br_suite_file_t *f = &s->file;
	s->name = f->name.value;
	if (!br_text_is_plain(s->name))
		return br_cfg_error(
		    err, s->path, f->name.mark,
		    "suite name '%s' holds a control character or bytes that are not "
		    "UTF-8; expected printable text",
		    s->name);
	if (strlen(s->name) > BR_SUITE_TITLE_MAX)
		return br_cfg_error(err, s->path, f->name.mark,
		                    "suite name '%s' is %zu bytes long; expected at most %u (a "
		                    "record keeps no more, and a name is never cut)",
		                    s->name, strlen(s->name), BR_SUITE_TITLE_MAX);
	s->benches = f->benches.items;
	s->bench_count = f->benches.count;
	s->iterations = f->default_iterations.set ? (uint32_t)f->default_iterations.value
	                                          : SUITE_DEFAULT_ITERATIONS;
	s->warmup = f->warmup_runs.set ? (uint32_t)f->warmup_runs.value : SUITE_DEFAULT_WARMUP;
	s->stack_watermark = f->stack_watermark.set ? f->stack_watermark.value : true;
	s->regression_percent = f->fail_on_regression_percent.set
	                            ? f->fail_on_regression_percent.value
	                            : BR_SUITE_DEFAULT_REGRESSION_PERCENT;
	s->timeout_seconds =
	    f->timeout_seconds.set ? (unsigned)f->timeout_seconds.value : SUITE_DEFAULT_TIMEOUT_S;
	if (f->firmware.set)
		s->firmware_path = br_cfg_path_resolve(s->dir, f->firmware.value);
	if (f->budgets.max_stack_bytes.set && !s->stack_watermark)
		return br_cfg_error(err, s->path, f->budgets.max_stack_bytes.mark,
		                    "max_stack_bytes needs the stack measured; expected "
		                    "stack_watermark: true");
	for (size_t i = 0; i < f->boards.count; i++) {
		const br_cfg_string_t *b = br_cfg_item(&f->boards, sizeof(br_cfg_string_t), i);
		for (size_t j = 0; j < i; j++) {
			const br_cfg_string_t *o = br_cfg_item(&f->boards, sizeof(*o), j);
			if (strcmp(o->value, b->value) == 0)
				return br_cfg_error(err, s->path, b->mark,
				                    "board '%s' listed twice; expected each board "
				                    "once",
				                    b->value);
		}
	}
	if (f->upload.head.set) {
		br_status_t st = br_upload_section_check(&f->upload, s->path, err);
		if (st != BR_OK)
			return st;
	}
	br_status_t st = check_regression(s, err);
	if (st != BR_OK)
		return st;
	br_status_t sst = check_size_budgets(s, err);
	if (sst != BR_OK)
		return sst;
	return check_benches(s, err);
}

static br_status_t suite_from_doc(const br_yaml_doc_t *doc, br_suite_t *suite, br_error_t *err)
{
	memset(suite, 0, sizeof(*suite));
	br_status_t st = br_cfg_decode(doc, &suite_map, &suite->file, err);
	if (st != BR_OK)
		return st;
	suite->path = xstrdup(doc->name);
	suite->dir = br_cfg_path_dirname(doc->name);
	st = check_suite(suite, err);
	if (st != BR_OK)
		br_suite_free(suite);
	return st;
}

br_status_t br_suite_load(const char *path, br_suite_t *suite, br_error_t *err)
{
	memset(suite, 0, sizeof(*suite));
	br_yaml_doc_t doc;
	br_status_t st = br_yaml_load(path, &doc, err);
	if (st != BR_OK)
		return st;
	st = suite_from_doc(&doc, suite, err);
	br_yaml_doc_free(&doc);
	return st;
}

br_status_t br_suite_parse(const char *name, const unsigned char *data, size_t size,
                           br_suite_t *suite, br_error_t *err)
{
	memset(suite, 0, sizeof(*suite));
	br_yaml_doc_t doc;
	br_status_t st = br_yaml_parse(name, data, size, &doc, err);
	if (st != BR_OK)
		return st;
	st = suite_from_doc(&doc, suite, err);
	br_yaml_doc_free(&doc);
	return st;
}

void br_suite_free(br_suite_t *suite)
{
	for (size_t i = 0; i < suite->bench_count; i++)
		free(suite->benches[i].elf_path);
	br_cfg_free(&suite_map, &suite->file);
	free(suite->path);
	free(suite->dir);
	free(suite->firmware_path);
	memset(suite, 0, sizeof(*suite));
}

const char *br_suite_board(const br_suite_t *suite, size_t i)
{
	const br_cfg_string_t *b = br_cfg_item(&suite->file.boards, sizeof(*b), i);
	return b->value;
}

br_suite_budgets_t br_suite_bench_budgets(const br_suite_t *suite, const br_suite_bench_t *bench)
{
	br_suite_budgets_t out = suite->file.budgets;
	const br_suite_budgets_t *own = &bench->budgets;
	if (own->max_stack_bytes.set)
		out.max_stack_bytes = own->max_stack_bytes;
	if (own->max_heap_bytes.set)
		out.max_heap_bytes = own->max_heap_bytes;
	if (own->max_cycles_per_iteration.set)
		out.max_cycles_per_iteration = own->max_cycles_per_iteration;
	return out;
}
