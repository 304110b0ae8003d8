/*
 * benchrack — measure firmware on Cortex-M through the debug port.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

static void usage(FILE *out)
{
	fputs("usage: benchrack COMMAND [options]\n"
	      "\n"
	      "commands:\n"
	      "  run [ELF]      measure every bench of a suite firmware (default: the suite\n"
	      "                 built with this benchrack) on the emulated board\n"
	      "\n"
	      "  benchrack COMMAND --help   options of one command\n"
	      "  benchrack --version        the version\n"
	      "\n"
	      "exit codes: 0 measured and within budgets, 1 regression or budget exceeded,\n"
	      "            2 usage or configuration error, 3 infrastructure error\n",
	      out);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	const char *cmd = argv[1];
	if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
		usage(stdout);
		return 0;
	}
	if (strcmp(cmd, "--version") == 0) {
		printf("benchrack %s\n", BENCHRACK_VERSION);
		return 0;
	}
	if (strcmp(cmd, "run") == 0)
		return br_cli_run(argc - 1, argv + 1);
	fprintf(stderr, "benchrack: unknown command '%s'; try 'benchrack --help'\n", cmd);
	return 2;
}
