/* The openocd kind's command line (debug/server_kind_table.h): OpenOCD's gdb
 * server on 127.0.0.1 at the port benchrack found free (it binds the port
 * itself: the held socket is let go first), telnet and tcl servers off,
 * failed memory reads reported as errors (gdb_report_data_abort enable:
 * otherwise they read as zeros), the interface and target scripts and the
 * probe's serial as the board gives them. */
#include <stdio.h>

#include "debug/server.h"
#include "debug/server_kind.h"

br_status_t br_server_cmdline_openocd(const br_server_launch_t *opts, const char *path,
                                      br_server_t *server, int held, br_server_cmdline_t *cl,
                                      br_error_t *err)
{
	(void)err;
	(void)held;
	char *gdb_port = cl->text[0], *serial = cl->text[1];
	snprintf(gdb_port, sizeof(cl->text[0]), "gdb_port %u", (unsigned)server->port);
	br_server_cmdline_push(cl, path);
	/* Before the configuration files: they may call init themselves. */
	const char *first[] = {"-c", "bindto " BR_SERVER_HOST, "-c", gdb_port,
	                       "-c", "telnet_port disabled",   "-c", "tcl_port disabled"};
	for (size_t i = 0; i < sizeof(first) / sizeof(first[0]); i++)
		br_server_cmdline_push(cl, first[i]);
	const char *interface_cfg = opts->params[BR_OPENOCD_KEY_INTERFACE];
	const char *target_cfg = opts->params[BR_OPENOCD_KEY_TARGET];
	const char *probe_serial = opts->params[BR_OPENOCD_KEY_SERIAL];
	if (interface_cfg != NULL) {
		br_server_cmdline_push(cl, "-f");
		br_server_cmdline_push(cl, interface_cfg);
	}
	if (probe_serial != NULL) {
		snprintf(serial, sizeof(cl->text[1]), "adapter serial %s", probe_serial);
		br_server_cmdline_push(cl, "-c");
		br_server_cmdline_push(cl, serial);
	}
	if (target_cfg != NULL) {
		br_server_cmdline_push(cl, "-f");
		br_server_cmdline_push(cl, target_cfg);
	}
	br_server_cmdline_extra(cl, opts);
	/* A failed read must be an error, never zeros (DESIGN.md). */
	br_server_cmdline_push(cl, "-c");
	br_server_cmdline_push(cl, "gdb_report_data_abort enable");
	return BR_OK;
}
