#include "debug/flavour.h"

#include <stddef.h>
#include <string.h>

/* QEMU 7.2's gdbstub answers m with at most this many bytes (DESIGN.md). */
#define QEMU_MAX_READ_BYTES 0x800U
/* OpenOCD 0.12 breaks the checksum of a reply of exactly this many characters. */
#define OPENOCD_BROKEN_REPLY_CHARS 1020U
/* xPSR in target.xml: QEMU's m-profile description numbers it 25; OpenOCD's
 * armv7m list puts it right after r15 (16). */
#define QEMU_XPSR_REGNUM 25U
#define OPENOCD_XPSR_REGNUM 16U

static const br_flavour_t flavours[] = {
    [BR_FLAVOUR_QEMU] =
        {
            .name = BR_FLAVOUR_QEMU_NAME,
            .description = "QEMU gdbstub",
            .reset_command = "system_reset",
            .reset_halt_command = "system_reset",
            .reset_applies_on_resume = true,
            .max_read_bytes = QEMU_MAX_READ_BYTES,
            .steps_over_breakpoints = false,
            .question_clears_breakpoints = true,
            .registers_need_target_xml = true,
            .detach_needs_pid = true,
            .pipelines_in_ack_mode = true,
            .packets_follow_interrupt = true,
            .only_breakpoints_trap = true,
            .limits_hardware_breakpoints = false,
            .kill_ends_server = true,
            .writes_peripherals = false,
            .retranslates_on_breakpoint_change = true,
            .xpsr_regnum = QEMU_XPSR_REGNUM,
        },
    [BR_FLAVOUR_OPENOCD] =
        {
            .name = BR_FLAVOUR_OPENOCD_NAME,
            .description = "OpenOCD gdb server",
            .reset_command = "reset halt",
            .reset_halt_command = "reset halt",
            /* Its manual: memory reads while the core runs, the gdb
             * session left halted; not run on hardware here. */
            .background_run_command = "resume",
            .background_halt_command = "halt",
            .broken_reply_chars = OPENOCD_BROKEN_REPLY_CHARS,
            .steps_over_breakpoints = false,
            .registers_need_target_xml = false,
            .limits_hardware_breakpoints = true,
            .writes_peripherals = true,
            .xpsr_regnum = OPENOCD_XPSR_REGNUM,
        },
    [BR_FLAVOUR_JLINK] =
        {
            .name = BR_FLAVOUR_JLINK_NAME,
            .description = "SEGGER J-Link GDB server",
            .reset_command = "reset",
            /* J-Link GDB Server manual (UM08001), "monitor reset": resets and
             * halts the target (the default reset strategy). */
            .reset_halt_command = "reset",
            .steps_over_breakpoints = false,
            .limits_hardware_breakpoints = true,
            .writes_peripherals = true,
            .xpsr_regnum = OPENOCD_XPSR_REGNUM,
        },
    [BR_FLAVOUR_PYOCD] =
        {
            .name = BR_FLAVOUR_PYOCD_NAME,
            .description = "pyOCD gdb server",
            .reset_command = "reset halt",
            /* pyOCD's gdbserver monitor commands: "reset halt". */
            .reset_halt_command = "reset halt",
            .steps_over_breakpoints = false,
            .limits_hardware_breakpoints = true,
            .writes_peripherals = true,
            .xpsr_regnum = OPENOCD_XPSR_REGNUM,
        },
    [BR_FLAVOUR_BMP] =
        {
            .name = BR_FLAVOUR_BMP_NAME,
            .description = "Black Magic Probe",
            .reset_command = "reset",
            .scan_command = "swdp_scan",
            .steps_over_breakpoints = false,
            .limits_hardware_breakpoints = true,
            .writes_peripherals = true,
            .xpsr_regnum = OPENOCD_XPSR_REGNUM,
        },
    [BR_FLAVOUR_GENERIC] =
        {
            .name = BR_FLAVOUR_GENERIC_NAME,
            .description = "gdbserver (generic)",
            .reset_command = NULL,
            .steps_over_breakpoints = false,
            .registers_need_target_xml = true,
            .detach_needs_pid = true,
            .limits_hardware_breakpoints = true,
            .writes_peripherals = true,
            .xpsr_regnum = OPENOCD_XPSR_REGNUM,
        },
};

#define FLAVOUR_COUNT (sizeof(flavours) / sizeof(flavours[0]))
_Static_assert(FLAVOUR_COUNT == BR_FLAVOUR_COUNT,
               "a row in flavours[] for each BR_FLAVOUR_LIST id");

const br_flavour_t *br_flavour_find(const char *name)
{
	for (size_t i = 0; i < FLAVOUR_COUNT; i++) {
		if (strcmp(flavours[i].name, name) == 0)
			return &flavours[i];
	}
	return NULL;
}

const br_flavour_t *br_flavour_get(br_flavour_id_t id)
{
	return &flavours[id];
}

const br_flavour_t *br_flavour_qemu(void)
{
	return &flavours[BR_FLAVOUR_QEMU];
}

const br_flavour_t *br_flavour_openocd(void)
{
	return &flavours[BR_FLAVOUR_OPENOCD];
}

const br_flavour_t *br_flavour_generic(void)
{
	return &flavours[BR_FLAVOUR_GENERIC];
}

size_t br_flavour_count(void)
{
	return FLAVOUR_COUNT;
}

const br_flavour_t *br_flavour_at(size_t i)
{
	return i < FLAVOUR_COUNT ? &flavours[i] : NULL;
}

const char *br_flavour_names(void)
{
	return br_flavour_name_joined();
}
