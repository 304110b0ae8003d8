/* The qemu kind's command line (debug/server_kind_table.h): QEMU started
 * halted (-S) with -icount shift=0 (one virtual nanosecond per instruction),
 * its gdbstub listening on the socket benchrack holds, the firmware loaded
 * by -kernel. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "debug/server.h"
#include "debug/server_kind.h"

/* QEMU's record file (record mode), alone in a directory of its own. */
#define QEMU_RR_DIR_TEMPLATE "/tmp/benchrack-rr-XXXXXX"

/* The -icount argument: plain, or record mode with its file in a temporary
 * directory of the server's own (made at the first attempt, kept across). */
static br_status_t qemu_icount(const br_server_launch_t *opts, br_server_t *server, char *out,
                               size_t cap, br_error_t *err)
{
	if (!opts->record) {
		snprintf(out, cap, "shift=0");
		return BR_OK;
	}
	if (server->rr_dir[0] == '\0') {
		char tmpl[] = QEMU_RR_DIR_TEMPLATE;
		if (mkdtemp(tmpl) == NULL)
			return br_error_set(err, BR_ERR_INFRA,
			                    "cannot create a directory for QEMU's record file: %s",
			                    strerror(errno));
		snprintf(server->rr_dir, sizeof(server->rr_dir), "%s", tmpl);
	}
	snprintf(out, cap, "shift=0,rr=record,rrfile=%s/" BR_SERVER_RR_FILE, server->rr_dir);
	return BR_OK;
}

/* QEMU listens on the held socket itself (-chardev socket,fd=N). */
br_status_t br_server_cmdline_qemu(const br_server_launch_t *opts, const char *path,
                                   br_server_t *server, int held, br_server_cmdline_t *cl,
                                   br_error_t *err)
{
	char *chardev = cl->text[0], *icount = cl->text[1];
	br_status_t st = qemu_icount(opts, server, icount, sizeof(cl->text[1]), err);
	if (st != BR_OK)
		return st;
	/* nodelay=on as QEMU's own -gdb tcp: sets it: without it every small
	 * reply waits on Nagle's algorithm and a halt costs milliseconds. */
	snprintf(chardev, sizeof(cl->text[0]),
	         "socket,id=benchrack-gdb,fd=%d,server=on,wait=off,nodelay=on", held);
	cl->inherit_fd = held;
	const char *fixed[] = {path,
	                       "-M",
	                       opts->params[BR_QEMU_KEY_MACHINE],
	                       "-icount",
	                       icount,
	                       "-display",
	                       "none",
	                       "-monitor",
	                       "none",
	                       "-serial",
	                       "null",
	                       "-S",
	                       "-chardev",
	                       chardev,
	                       "-gdb",
	                       "chardev:benchrack-gdb"};
	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		br_server_cmdline_push(cl, fixed[i]);
	if (opts->kernel != NULL) {
		br_server_cmdline_push(cl, "-kernel");
		br_server_cmdline_push(cl, opts->kernel);
	}
	if (opts->semihosting) {
		br_server_cmdline_push(cl, "-semihosting-config");
		br_server_cmdline_push(cl, "enable=on,target=gdb");
	}
	br_server_cmdline_extra(cl, opts);
	return BR_OK;
}
