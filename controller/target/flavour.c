#include "target/flavour.h"

#include <stddef.h>
#include <string.h>

/* QEMU 7.2's gdbstub, facts of DESIGN.md ("The emulated board"). */
#define QEMU_MAX_READ_BYTES 0x800U

static const br_flavour_t flavours[] = {
	{
		.name = "qemu",
		.reset_command = "system_reset",
		.detach_packet = "D",
		.max_read_bytes = QEMU_MAX_READ_BYTES,
		.steps_over_breakpoints = false,
		.question_clears_breakpoints = true,
		.registers_need_target_xml = true,
	},
	{
		.name = "generic",
		.reset_command = "reset",
		.detach_packet = "D",
		.max_read_bytes = 0,
		.steps_over_breakpoints = false,
		.question_clears_breakpoints = false,
		.registers_need_target_xml = true,
	},
};

const br_flavour_t *br_flavour_find(const char *name)
{
	for (size_t i = 0; i < sizeof(flavours) / sizeof(flavours[0]); i++) {
		if (strcmp(flavours[i].name, name) == 0)
			return &flavours[i];
	}
	return NULL;
}

const br_flavour_t *br_flavour_qemu(void)
{
	return &flavours[0];
}
