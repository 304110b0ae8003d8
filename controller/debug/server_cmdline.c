#include "debug/server_cmdline.h"

void br_server_cmdline_push(br_server_cmdline_t *cl, const char *arg)
{
	if (cl->argc + 1U >= BR_SERVER_MAX_ARGS) {
		cl->dropped++;
		return;
	}
	cl->argv[cl->argc++] = arg;
	cl->argv[cl->argc] = NULL;
}

void br_server_cmdline_extra(br_server_cmdline_t *cl, const br_server_launch_t *opts)
{
	for (size_t i = 0; i < opts->extra_arg_count; i++)
		br_server_cmdline_push(cl, opts->extra_args[i]);
}
