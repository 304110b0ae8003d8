#include <stdio.h>

#include "cli/cli.h"

int br_cli_report(const br_error_t *err)
{
	fprintf(stderr, "benchrack: %s\n", err->message[0] != '\0' ? err->message : "failed");
	return br_status_exit_code(err->status);
}

int br_cli_usage_error(const char *cmd, const char *message)
{
	fprintf(stderr, "benchrack %s: %s; try 'benchrack %s --help'\n", cmd, message, cmd);
	return 2;
}
