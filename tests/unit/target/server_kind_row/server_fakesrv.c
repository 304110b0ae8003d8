/* The fakesrv kind's command line: the builder file a new launched kind
 * brings with its row (server_kind_row_add.py). The program is
 * test_server_kind_row itself, which serves RSP when started so: it listens
 * on the socket benchrack holds (--serve-fd N, as QEMU's -chardev fd=N) and
 * writes what it was started with and every packet it gets to the board's
 * log key (--log FILE); the board's args come last. */
#include <stdio.h>

#include "debug/server.h"
#include "debug/server_kind.h"

br_status_t br_server_cmdline_fakesrv(const br_server_launch_t *opts, const char *path,
                                      br_server_t *server, int held, br_server_cmdline_t *cl,
                                      br_error_t *err)
{
	(void)server;
	(void)err;
	snprintf(cl->text[0], sizeof(cl->text[0]), "%d", held);
	cl->inherit_fd = held;
	br_server_cmdline_push(cl, path);
	br_server_cmdline_push(cl, "--serve-fd");
	br_server_cmdline_push(cl, cl->text[0]);
	br_server_cmdline_push(cl, "--log");
	br_server_cmdline_push(cl, opts->params[0]);
	br_server_cmdline_extra(cl, opts);
	return BR_OK;
}
