/*
 * `benchrack diff OLD NEW`: two records side by side (a baseline and a run,
 * or two runs), per bench and metric: old, new, change, verdict; or, given
 * two ELFs, what changed in size between them (report/report_size_diff.h).
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/option_table.h"
#include "cli/output.h"
#include "elf/elf_file.h"
#include "report/report_output.h"
#include "results/diff.h"
#include "report/report_size_diff.h"

static const br_cli_opts_t diff_options;

static void diff_usage(FILE *out)
{
	fputs("usage: benchrack diff OLD.json NEW.json [options]\n"
	      "       benchrack diff OLD.elf NEW.elf [options]\n"
	      "\n"
	      "Compares two records: a baseline (results/baselines/...) and a run\n"
	      "(results/runs/...), or two runs. Per bench and metric it shows the old and new\n"
	      "figure, the change in percent and a verdict: better, worse, equal, or \"not\n"
	      "distinguishable\" where the p10-p90 bands overlap by more than the medians\n"
	      "differ. Records from different boards, counters or units are refused.\n"
	      "An unfinished run (interrupted, or still going) shows the benches it has.\n"
	      "\n"
	      "Given two firmware ELFs, it shows what changed in size, as bloaty does: the\n"
	      "totals, then by symbol (aliases folded), by section and by compile unit\n"
	      "(DWARF), each in flash (text + data) and RAM (data + bss) bytes, old, new and\n"
	      "change, largest change first; -f with a format of a size diff for the same\n"
	      "figures.\n"
	      "\n"
	      "options:\n",
	      out);
	br_cli_opts_usage(out, &diff_options, 0);
}

/* Two ELFs: their size diff, as a table on stdout or in the format asked. */
static int diff_elfs(const char *old_path, const char *new_path, const char *format,
                     const char *output)
{
	br_size_diff_format_t fmt = BR_SIZE_DIFF_TABLE;
	if (format != NULL && !br_size_diff_format_parse(format, &fmt)) {
		fprintf(stderr,
		        "benchrack diff: --format %s: a size diff is written as one of %s\n",
		        format, br_size_diff_format_names());
		return 2;
	}
	br_error_t err;
	br_error_clear(&err);
	br_size_diff_t d;
	if (br_size_diff_compute(old_path, new_path, &d, &err) != BR_OK)
		return br_cli_report(&err);
	int code = 0;
	if (output != NULL && br_size_diff_save(&d, fmt, output, &err) != BR_OK)
		code = br_cli_report(&err);
	else if (output == NULL)
		br_size_diff_write(&d, fmt, stdout);
	br_size_diff_free(&d);
	return code;
}

/* The command line of diff. */
typedef struct diff_cli {
	const char *format;
	const char *output;
} diff_cli_t;

/* Both lists a --format of diff can take: records', and ELFs'. */
static const char *diff_format_choices(void)
{
	static char text[256];
	snprintf(text, sizeof(text), "%s for records; %s for ELFs", br_report_output_format_names(),
	         br_size_diff_format_names());
	return text;
}

static const br_cli_opt_t diff_rows[] = {
    {.name = "format",
     .letter = 'f',
     .arg = "F",
     .offset = offsetof(diff_cli_t, format),
     .choices = diff_format_choices,
     .help = "instead of the table"},
    {.name = "output",
     .letter = 'o',
     .arg = "FILE",
     .offset = offsetof(diff_cli_t, output),
     .help = "where --format goes"},
    {.name = "help", .letter = 'h', .kind = BR_CLI_OPT_HELP, .help = "this text"},
};

static const br_cli_opts_t diff_options = {
    .command = "diff",
    .rows = diff_rows,
    .count = BR_CLI_OPTS_COUNT(diff_rows),
    .column = 21,
    .usage = diff_usage,
};

int br_cli_diff(int argc, char **argv)
{
	diff_cli_t o = {NULL, NULL};
	int parsed = br_cli_opts_parse(&diff_options, argc, argv, &o);
	if (parsed != -1)
		return parsed;
	const char *format = o.format, *output = o.output;
	if (argc - optind != 2) {
		fprintf(stderr, "benchrack diff: two records, OLD and NEW; try 'benchrack diff "
		                "--help'\n");
		return 2;
	}
	const char *old_path = argv[optind], *new_path = argv[optind + 1];
	bool old_elf = br_elf_file_is_elf(old_path), new_elf = br_elf_file_is_elf(new_path);
	if (old_elf || new_elf) {
		/* beside an ELF, a file that cannot be read: the ELF reader says why */
		bool old_ok = old_elf || access(old_path, R_OK) != 0;
		bool new_ok = new_elf || access(new_path, R_OK) != 0;
		if (old_ok && new_ok)
			return diff_elfs(old_path, new_path, format, output);
		fprintf(stderr,
		        "benchrack diff: %s is an ELF and %s is not: give two records or two "
		        "ELFs\n",
		        old_elf ? old_path : new_path, old_elf ? new_path : old_path);
		return 2;
	}
	br_error_t err;
	br_error_clear(&err);
	const br_format_t *fmt = NULL;
	if (br_report_output_format(format, output, &fmt, &err) != BR_OK)
		return br_cli_report(&err);
	br_run_record_t old_rec, new_rec;
	br_diff_t diff;
	if (br_diff_files(old_path, new_path, &old_rec, &new_rec, &diff, &err) != BR_OK)
		return br_cli_report(&err);
	br_report_t report = {
	    .run = &new_rec, .run_path = new_path, .diff = &diff, .baseline_path = old_path};
	int code = 0;
	if (br_report_output_write(&report, 1, format, output, NULL, stdout, br_cli_colour(stdout),
	                           &err) != BR_OK)
		code = br_cli_report(&err);
	br_diff_free(&diff);
	const br_run_record_t *recs[] = {&old_rec, &new_rec};
	const char *paths[] = {old_path, new_path};
	for (size_t i = 0; code == 0 && i < 2; i++) {
		if (recs[i]->status != BR_RECORD_COMPLETE)
			fprintf(stderr,
			        "benchrack: note: %s is an unfinished run (%s%s%s) with %zu "
			        "benches\n",
			        paths[i], br_record_status_name(recs[i]->status),
			        recs[i]->error[0] != '\0' ? ": " : "", recs[i]->error,
			        recs[i]->bench_count);
	}
	br_run_record_free(&old_rec);
	br_run_record_free(&new_rec);
	return code;
}
