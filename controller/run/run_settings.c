#include "run/run_settings.h"

#include "run/board_target.h"

br_status_t br_run_settings_endpoint(const br_run_settings_t *s, const br_board_t *board,
                                     const char *elf, br_endpoint_t *ep, br_error_t *err)
{
	br_status_t st = br_board_endpoint(board, elf, ep, err);
	if (st != BR_OK)
		return st;
	if (s->qemu_program != NULL && ep->kind == BR_SERVER_KIND_QEMU)
		ep->launch.program = s->qemu_program;
	if (s->remote_host != NULL) {
		ep->kind = BR_SERVER_KIND_REMOTE;
		ep->host = s->remote_host;
		ep->port = s->remote_port;
		if (s->remote_flavour != NULL)
			ep->flavour = s->remote_flavour;
	}
	return BR_OK;
}
