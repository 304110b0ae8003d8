/* The scripted tests' shared command line and PEER placeholder. */
#include "scripted_cli.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int scripted_cli_dispatch(int argc, char **argv, scripted_live_fn live, scripted_cases_fn cases)
{
	signal(SIGPIPE, SIG_IGN);
	if (argc == 4 && strcmp(argv[1], "--live") == 0)
		return live((uint16_t)strtoul(argv[2], NULL, 10), argv[3]) ? 0 : 1;
	if (argc != 3 && argc != 4) {
		fprintf(stderr, "usage: %s SCRIPTS_DIR ELF [SCRIPT] | --live PORT ELF\n", argv[0]);
		return 2;
	}
	cases(argv[1], argv[2], argc == 4 ? argv[3] : NULL);
	return -1;
}

void scripted_expand_peer(const char *text, const char *peer, char *out, size_t cap)
{
	size_t used = 0;
	out[0] = '\0';
	for (const char *at; (at = strstr(text, "PEER")) != NULL && used < cap; text = at + 4)
		used += (size_t)snprintf(out + used, cap - used, "%.*s%s", (int)(at - text), text,
		                         peer);
	if (used < cap)
		snprintf(out + used, cap - used, "%s", text);
}
