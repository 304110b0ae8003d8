/*
 * A command's options as one table (issue 25): each row says an option's
 * names, its argument, how its value is checked and where it is stored, and
 * its help. The getopt_long switches, the value checks with their messages
 * and the option list of the command's --help (and so of its man page,
 * cli/man/help2man.py) are all made from that one table, so that no
 * command's parser is a switch written out and no option is described twice.
 */
#ifndef BENCHRACK_CLI_OPTION_TABLE_H
#define BENCHRACK_CLI_OPTION_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef enum br_cli_opt_kind {
	BR_CLI_OPT_STRING, /* const char * at offset: the argument as given */
	BR_CLI_OPT_FLAG,   /* bool at offset: set true; no argument */
	BR_CLI_OPT_U32,    /* uint32_t at offset: a whole number from min to max */
	BR_CLI_OPT_U64,    /* uint64_t at offset: a whole number from min to max */
	BR_CLI_OPT_INT,    /* int at offset: a whole number from min to max (<= INT_MAX) */
	BR_CLI_OPT_CALL,   /* set(opts, arg): anything else */
	BR_CLI_OPT_HELP,   /* --help: prints the usage to stdout, exit 0 */
	BR_CLI_OPT_NOTE,   /* no option: a term and its words in the listing only */
} br_cli_opt_kind_t;

typedef struct br_cli_opt {
	const char *name; /* the long name, without "--"; NOTE: the term */
	char letter;      /* the short name, or 0 */
	const char *arg;  /* the argument's name in the help ("N"); NULL: none */
	br_cli_opt_kind_t kind;
	size_t offset;     /* STRING, FLAG, U32, U64, INT: of the field in the options */
	uint64_t min, max; /* U32, U64: the inclusive range */
	/* CALL (and after a STRING, FLAG, U32, U64 or INT is stored, when not NULL):
	 * returns 0, or the exit code after printing why (cli/ prints). */
	int (*set)(void *opts, const char *arg);
	const char *help; /* one paragraph, wrapped to the terminal's 80 columns */
	/* When not NULL: " (one of LIST)" after the help, the list made from
	 * the closed set's one declaration. */
	const char *(*choices)(void);
	unsigned group; /* which listing of the usage shows it (0: the first) */
} br_cli_opt_t;

typedef struct br_cli_opts {
	const char *command; /* "measure": messages say `benchrack measure` */
	const br_cli_opt_t *rows;
	size_t count;
	unsigned column;          /* where the help starts in the listing */
	void (*usage)(FILE *out); /* the whole --help text (it lists the rows) */
} br_cli_opts_t;

#define BR_CLI_OPTS_COUNT(rows) (sizeof(rows) / sizeof((rows)[0]))

/*
 * Parses argv's options into opts by t's rows, from argv[1] on (getopt_long;
 * optind is left at the first operand). Returns -1 to go on, 0 after --help
 * printed the usage to stdout, or 2 after a message on stderr: an unknown
 * option (the usage follows), a missing argument, or a value out of its
 * range ("benchrack CMD: --OPT takes a whole number from MIN to MAX, not
 * 'ARG'"); or what a row's set returned.
 */
int br_cli_opts_parse(const br_cli_opts_t *t, int argc, char **argv, void *opts);

/* Writes the listing of t's rows of group: "  -n, --iterations N  help",
 * the help wrapped at 80 columns and continued at t->column. */
void br_cli_opts_usage(FILE *out, const br_cli_opts_t *t, unsigned group);

#endif
