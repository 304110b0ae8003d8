#include "cli/option_table.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli/option_number.h"
#include "common/xalloc.h"

#define OPTS_WIDTH 80U
#define OPTS_INDENT "  "
#define OPTS_KEY_BASE 256 /* getopt values of options without a letter: row + base */

static void *field(void *opts, const br_cli_opt_t *row)
{
	return (char *)opts + row->offset;
}

/* Stores arg as row says; 0, or the exit code after the message. */
static int opts_store(const br_cli_opts_t *t, const br_cli_opt_t *row, const char *arg, void *opts)
{
	char flag[64];
	snprintf(flag, sizeof(flag), "--%s", row->name);
	unsigned long long v = 0;
	switch (row->kind) {
	case BR_CLI_OPT_STRING:
		*(const char **)field(opts, row) = arg;
		break;
	case BR_CLI_OPT_FLAG:
		*(bool *)field(opts, row) = true;
		break;
	case BR_CLI_OPT_U32:
	case BR_CLI_OPT_U64:
	case BR_CLI_OPT_INT:
		if (br_cli_option_whole(t->command, flag, arg, row->min, row->max, &v) != 0)
			return 2;
		if (row->kind == BR_CLI_OPT_U32)
			*(uint32_t *)field(opts, row) = (uint32_t)v;
		else if (row->kind == BR_CLI_OPT_INT)
			*(int *)field(opts, row) = (int)v;
		else
			*(uint64_t *)field(opts, row) = v;
		break;
	case BR_CLI_OPT_CALL:
	case BR_CLI_OPT_HELP:
	case BR_CLI_OPT_NOTE:
		break;
	}
	return row->set != NULL ? row->set(opts, arg) : 0;
}

int br_cli_opts_parse(const br_cli_opts_t *t, int argc, char **argv, void *opts)
{
	struct option *longopts = xcalloc(t->count + 1U, sizeof(*longopts));
	char *shortopts = xcalloc(2U * t->count + 2U, 1);
	size_t n = 0, s = 0;
	shortopts[s++] = ':'; /* a missing argument is ':', told apart from '?' */
	for (size_t i = 0; i < t->count; i++) {
		const br_cli_opt_t *row = &t->rows[i];
		if (row->kind == BR_CLI_OPT_NOTE)
			continue;
		int key = row->letter != 0 ? row->letter : OPTS_KEY_BASE + (int)i;
		longopts[n++] = (struct option){
		    row->name, row->arg != NULL ? required_argument : no_argument, NULL, key};
		if (row->letter != 0) {
			shortopts[s++] = row->letter;
			if (row->arg != NULL)
				shortopts[s++] = ':';
		}
	}
	int code = -1;
	int c;
	optind = 1;
	opterr = 0;
	while (code == -1 && (c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		const br_cli_opt_t *row = NULL;
		for (size_t i = 0; i < t->count && row == NULL; i++) {
			int key =
			    t->rows[i].letter != 0 ? t->rows[i].letter : OPTS_KEY_BASE + (int)i;
			if (key == c && t->rows[i].kind != BR_CLI_OPT_NOTE)
				row = &t->rows[i];
		}
		if (c == ':') {
			fprintf(stderr, "benchrack %s: %s needs an argument\n", t->command,
			        argv[optind - 1]);
			code = 2;
		} else if (row == NULL) {
			fprintf(stderr, "benchrack %s: unknown option '%s'\n", t->command,
			        argv[optind - 1]);
			t->usage(stderr);
			code = 2;
		} else if (row->kind == BR_CLI_OPT_HELP) {
			t->usage(stdout);
			code = 0;
		} else {
			int st = opts_store(t, row, optarg, opts);
			if (st != 0)
				code = st;
		}
	}
	free(longopts);
	free(shortopts);
	return code;
}

/* Writes text from column col on (the cursor is there), wrapped at
 * OPTS_WIDTH and continued at indent. */
static void opts_wrap(FILE *out, const char *text, size_t col, size_t indent)
{
	const char *p = text;
	bool first = true;
	while (*p != '\0') {
		while (*p == ' ')
			p++;
		size_t word = strcspn(p, " ");
		if (word == 0)
			break;
		if (!first && col + 1U + word > OPTS_WIDTH) {
			fprintf(out, "\n%*s", (int)indent, "");
			col = indent;
		} else if (!first) {
			fputc(' ', out);
			col++;
		}
		first = false;
		fwrite(p, 1, word, out);
		col += word;
		p += word;
	}
	fputc('\n', out);
}

void br_cli_opts_usage(FILE *out, const br_cli_opts_t *t, unsigned group)
{
	for (size_t i = 0; i < t->count; i++) {
		const br_cli_opt_t *row = &t->rows[i];
		if (row->group != group)
			continue;
		char term[128];
		if (row->kind == BR_CLI_OPT_NOTE)
			snprintf(term, sizeof(term), "%s", row->name);
		else if (row->letter != 0)
			snprintf(term, sizeof(term), "-%c, --%s%s%s", row->letter, row->name,
			         row->arg != NULL ? " " : "", row->arg != NULL ? row->arg : "");
		else
			snprintf(term, sizeof(term), "    --%s%s%s", row->name,
			         row->arg != NULL ? " " : "", row->arg != NULL ? row->arg : "");
		int col = fprintf(out, OPTS_INDENT "%s", term);
		/* Two spaces at least between the term and its words (help2man). */
		size_t at = (size_t)col + 2U < t->column ? t->column : (size_t)col + 2U;
		fprintf(out, "%*s", (int)(at - (size_t)col), "");
		char help[1024];
		if (row->choices != NULL)
			snprintf(help, sizeof(help), "%s (one of %s)", row->help, row->choices());
		else
			snprintf(help, sizeof(help), "%s", row->help);
		opts_wrap(out, help, at, t->column);
	}
}
