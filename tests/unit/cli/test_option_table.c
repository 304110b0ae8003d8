/* cli/option_table.h: a command's options parsed, checked and listed from
 * its one table. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "cli/option_number.h"
#include "cli/option_table.h"

typedef struct demo {
	const char *name;
	bool quiet;
	uint32_t count;
	uint64_t big;
	int secs;
	int called;
	const char *called_with;
} demo_t;

static int demo_set(void *opts, const char *arg)
{
	demo_t *d = opts;
	d->called++;
	d->called_with = arg;
	return strcmp(arg, "bad") == 0 ? 2 : 0;
}

static const char *demo_choices(void)
{
	return "red, green";
}

static int usage_calls;
static void demo_usage(FILE *out)
{
	usage_calls++;
	fputs("usage\n", out);
}

static const br_cli_opt_t rows[] = {
    {.name = "name",
     .letter = 'N',
     .arg = "TEXT",
     .offset = offsetof(demo_t, name),
     .help = "a name",
     .choices = demo_choices},
    {.name = "quiet",
     .kind = BR_CLI_OPT_FLAG,
     .offset = offsetof(demo_t, quiet),
     .help = "no words"},
    {.name = "count",
     .letter = 'n',
     .arg = "N",
     .kind = BR_CLI_OPT_U32,
     .offset = offsetof(demo_t, count),
     .min = 1,
     .max = 10,
     .help = "how many"},
    {.name = "big",
     .arg = "N",
     .kind = BR_CLI_OPT_U64,
     .offset = offsetof(demo_t, big),
     .max = UINT64_MAX,
     .help = "a very long help text that goes on and on so that it must "
             "be wrapped at the eightieth column of the terminal, twice "
             "or more, each line continued at the column",
     .group = 1},
    {.name = "secs",
     .arg = "SEC",
     .kind = BR_CLI_OPT_INT,
     .offset = offsetof(demo_t, secs),
     .max = 60,
     .help = "seconds"},
    {.name = "call", .arg = "X", .kind = BR_CLI_OPT_CALL, .set = demo_set, .help = "calls"},
    {.name = "a-very-long-option-name",
     .kind = BR_CLI_OPT_FLAG,
     .offset = offsetof(demo_t, quiet),
     .help = "after two spaces"},
    {.name = "help", .letter = 'h', .kind = BR_CLI_OPT_HELP, .help = "this text"},
};

static const br_cli_opts_t table = {"demo", rows, BR_CLI_OPTS_COUNT(rows), 20, demo_usage};

/* Parses the NULL-terminated words (argv[0] first) into *d. */
static int parse(demo_t *d, const char **words)
{
	static char *argv[16];
	int argc = 0;
	while (words[argc] != NULL && argc < 15) {
		argv[argc] = (char *)words[argc];
		argc++;
	}
	argv[argc] = NULL;
	memset(d, 0, sizeof(*d));
	/* Messages go to stderr; keep the test's output readable. */
	fflush(stderr);
	int saved = dup(2);
	FILE *null = freopen("/dev/null", "w", stderr);
	(void)null;
	int code = br_cli_opts_parse(&table, argc, argv, d);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	return code;
}

static void test_parse(void)
{
	demo_t d;
	CHECK(parse(&d, (const char *[]){"demo", "--name", "x", "--quiet", "-n", "7", "--big",
	                                 "0x10", "file", NULL}) == -1);
	CHECK(d.name != NULL && strcmp(d.name, "x") == 0);
	CHECK(d.quiet && d.count == 7 && d.big == 16);
	CHECK(optind == 8); /* the operand */
	CHECK(parse(&d, (const char *[]){"demo", "-N", "y", "--call", "z", NULL}) == -1);
	CHECK(strcmp(d.name, "y") == 0 && d.called == 1 && strcmp(d.called_with, "z") == 0);
	/* Out of range, not a number, a set that refuses, an unknown option, a
	 * missing argument: exit 2; --help: 0 after the usage. */
	CHECK(parse(&d, (const char *[]){"demo", "--secs", "60", NULL}) == -1 && d.secs == 60);
	CHECK(parse(&d, (const char *[]){"demo", "--secs", "61", NULL}) == 2 && d.secs == 0);
	CHECK(parse(&d, (const char *[]){"demo", "-n", "11", NULL}) == 2 && d.count == 0);
	CHECK(parse(&d, (const char *[]){"demo", "--count", "0", NULL}) == 2);
	CHECK(parse(&d, (const char *[]){"demo", "--count", "x", NULL}) == 2);
	CHECK(parse(&d, (const char *[]){"demo", "--call", "bad", NULL}) == 2 && d.called == 1);
	usage_calls = 0;
	CHECK(parse(&d, (const char *[]){"demo", "--nope", NULL}) == 2 && usage_calls == 1);
	CHECK(parse(&d, (const char *[]){"demo", "--name", NULL}) == 2);
	CHECK(parse(&d, (const char *[]){"demo", "--help", NULL}) == 0 && usage_calls == 2);
}

static void test_usage(void)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	br_cli_opts_usage(out, &table, 0);
	fclose(out);
	CHECK_MSG(strstr(text, "  -N, --name TEXT   a name (one of red, green)\n") != NULL, "%s",
	          text);
	CHECK(strstr(text, "      --quiet       no words\n") != NULL);
	CHECK(strstr(text, "  -n, --count N     how many\n") != NULL);
	CHECK(strstr(text, "      --a-very-long-option-name  after two spaces\n") != NULL);
	CHECK(strstr(text, "--big") == NULL); /* group 1 */
	free(text);
	out = open_memstream(&text, &len);
	br_cli_opts_usage(out, &table, 1);
	fclose(out);
	/* Wrapped at 80 columns, continued at column 20. */
	size_t lines = 0;
	for (char *line = text; *line != '\0'; lines++) {
		char *nl = strchr(line, '\n');
		CHECK(nl != NULL && (size_t)(nl - line) <= 80U);
		if (lines > 0)
			CHECK(strncmp(line, "                    ", 20) == 0 && line[20] != ' ');
		line = nl + 1;
	}
	CHECK_MSG(lines >= 3, "%s", text);
	CHECK(strncmp(text, "      --big N       a very long", 31) == 0);
	free(text);
}

/* The one whole-number parse of every option and of probe's --dump: decimal
 * or 0x hexadecimal, never octal, nothing signed, spaced or out of range. */
static void test_whole(void)
{
	static const struct {
		const char *text;
		bool ok;
		unsigned long long value;
	} cases[] = {
	    {"10", true, 10},
	    {"010", true, 10},
	    {"0x10", true, 16},
	    {"0XfF", true, 255},
	    {"0xFFFFFFFF", true, 0xFFFFFFFFULL},
	    {"0x100000000", false, 0},
	    {"-1", false, 0},
	    {"+5", false, 0},
	    {" 5", false, 0},
	    {"", false, 0},
	    {"0x", false, 0},
	    {"5k", false, 0},
	    {"99999999999999999999999", false, 0},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		unsigned long long v = 12345;
		bool ok = br_cli_whole_parse(cases[i].text, 0, 0xFFFFFFFFULL, &v);
		CHECK_MSG(ok == cases[i].ok && v == (ok ? cases[i].value : 12345ULL),
		          "'%s': %d %llu", cases[i].text, ok, v);
	}
	unsigned long long v = 0;
	CHECK(!br_cli_whole_parse("1", 2, 9, &v));
}

int main(void)
{
	test_parse();
	test_usage();
	test_whole();
	return check_finish();
}
