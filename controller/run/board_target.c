#include "run/board_target.h"

#include <stdio.h>
#include <string.h>

#include "config/board_locate.h"

#define BOARD_FULL_BITS 32U
#define BOARD_PATH_BYTES 1024U

void br_board_counter(const br_board_t *board, br_counter_t *out)
{
	const br_board_counter_t *c = &board->file.counter;
	switch (board->counter_kind) {
	case BR_BOARD_COUNTER_DWT:
		br_counter_dwt(out, board->clock_hz, board->core == BR_BOARD_CORE_M7);
		break;
	case BR_BOARD_COUNTER_SYSTICK:
		br_counter_systick(out, board->clock_hz);
		break;
	case BR_BOARD_COUNTER_TIM2:
		br_counter_tim2(out, board->clock_hz);
		break;
	case BR_BOARD_COUNTER_ICOUNT:
		br_counter_icount(out);
		break;
	case BR_BOARD_COUNTER_MMIO:
		br_counter_mmio(out, c->name.value, (uint32_t)c->address.value,
		                c->width.set ? (unsigned)c->width.value : BOARD_FULL_BITS,
		                c->direction.set && c->direction.value == 1U, board->clock_hz);
		break;
	}
	br_board_counter_label(board, out);
	if (c->unit.set)
		out->unit = c->unit.value;
}

void br_board_counter_label(const br_board_t *board, br_counter_t *counter)
{
	/* QEMU models a clock, not a core's cycles: a SysTick or DWT figure
	 * there is ticks of that clock, never instructions nor cycles. */
	if (br_board_server_kind(board)->emulated &&
	    (counter->kind == BR_COUNTER_SYSTICK || counter->kind == BR_COUNTER_DWT))
		counter->unit = "ticks";
}

br_status_t br_board_endpoint(const br_board_t *board, const char *elf_path, br_endpoint_t *ep,
                              br_error_t *err)
{
	const br_board_server_t *s = &board->file.server;
	br_endpoint_init(ep);
	ep->flavour = br_board_flavour_name(board);
	br_endpoint_set_kind(ep, board->server_kind);
	const br_server_kind_t *server = br_board_server_kind(board);
	switch (server->reach) {
	case BR_SERVER_REACH_LAUNCH:
		br_board_server_launch(board, &ep->launch);
		if (server->takes_image)
			ep->launch.kernel = elf_path;
		break;
	case BR_SERVER_REACH_TCP:
		ep->host = s->host.value;
		ep->port = (uint16_t)s->port.value;
		break;
	case BR_SERVER_REACH_SERIAL:
		ep->device = s->device.value;
		break;
	}
	for (size_t i = 0; i < board->file.memory.count; i++) {
		const br_board_region_t *r = br_board_region(board, i);
		br_region_kind_t kind =
		    r->kind.value == BR_BOARD_REGION_FLASH ? BR_REGION_FLASH : BR_REGION_RAM;
		br_status_t st = br_memory_map_add(&ep->memory_map, (uint32_t)r->origin.value,
		                                   (uint32_t)r->length.value, kind, 0, err);
		if (st != BR_OK)
			return br_error_prefix(err, "board %s, memory region %s", board->name,
			                       r->name.value);
	}
	ep->hw_breakpoints = board->hardware_breakpoints;
	return BR_OK;
}

br_status_t br_board_open(const char *ref, const char *configs_dir, const char *elf_path,
                          br_board_t *board, br_endpoint_t *ep, br_error_t *err)
{
	char path[BOARD_PATH_BYTES], dir[BOARD_PATH_BYTES];
	snprintf(dir, sizeof(dir), "%s/boards", configs_dir);
	const char *dirs[] = {dir};
	br_status_t st = br_board_locate(ref, "", dirs, 1, path, sizeof(path), err);
	if (st == BR_OK)
		st = br_board_load(path, board, err);
	if (st == BR_OK)
		st = br_board_endpoint(board, elf_path, ep, err);
	return st;
}

br_status_t br_board_reach(const char *ref, const char *configs_dir, const char *elf_path,
                           const char *qemu_program, br_board_t *board, br_endpoint_t *ep,
                           br_counter_t *counter, br_board_load_t *load, br_error_t *err)
{
	br_status_t st = br_board_open(ref, configs_dir, elf_path, board, ep, err);
	if (st != BR_OK)
		return st;
	if (qemu_program != NULL && ep->kind == BR_SERVER_KIND_QEMU)
		ep->launch.program = qemu_program;
	if (counter != NULL)
		br_board_counter(board, counter);
	if (load != NULL)
		*load = board->load;
	return BR_OK;
}
