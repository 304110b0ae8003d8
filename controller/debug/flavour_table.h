/*
 * The gdbserver flavours: one row each, the whole of what benchrack knows of
 * a server (its name as board files and options spell it, its description,
 * every quirk: the columns of br_flavour_t in debug/flavour.h). Adding a
 * flavour is one row here: its name joins the board schema's enum, the
 * "expected one of" of errors, help texts and completion, and attaching
 * through it (a board's server: {kind: remote | serial, flavour: NAME}, or
 * --remote-flavour) reads its quirks from the row
 * (tests/unit/target/test_flavour_row.c builds the tree with one row more
 * and attaches through it). A name is written only here
 * (tests/style/check_closed_sets.py).
 *
 * A row is X(ID, NAME, DESCRIPTION, .column = value, ...): the
 * designated initializers of its br_flavour_t; a column left out is 0,
 * false or NULL. The QEMU and OpenOCD rows are established by experiment
 * and each has a test (tests/qemu/test_target_qemu.c,
 * tests/openocd/test_openocd_dialect.c); the J-Link, pyOCD and Black Magic
 * Probe rows come from their documentation and are not verified here (no
 * probe is attached to any machine this was built on).
 */
#ifndef BENCHRACK_DEBUG_FLAVOUR_TABLE_H
#define BENCHRACK_DEBUG_FLAVOUR_TABLE_H

/* QEMU 7.2's gdbstub answers m with at most this many bytes (DESIGN.md). */
#define BR_QEMU_MAX_READ_BYTES 0x800U
/* OpenOCD 0.12 breaks the checksum of a reply of exactly this many characters. */
#define BR_OPENOCD_BROKEN_REPLY_CHARS 1020U
/* xPSR in target.xml: QEMU's m-profile description numbers it 25; OpenOCD's
 * armv7m list puts it right after r15 (16). */
#define BR_QEMU_XPSR_REGNUM 25U
#define BR_ARMV7M_XPSR_REGNUM 16U

/* The names other code spells at compile time (a help text's "by default
 * generic", a board's "(default bmp)"); a row no code names needs none. */
#define BR_FLAVOUR_QEMU_NAME "qemu"
#define BR_FLAVOUR_BMP_NAME "bmp"
#define BR_FLAVOUR_GENERIC_NAME "generic"

/* clang-format off */
#define BR_FLAVOUR_ROWS(X)                                                                         \
	X(QEMU, BR_FLAVOUR_QEMU_NAME, "QEMU gdbstub",                                              \
	  .reset_command = "system_reset",                                                         \
	  .reset_halt_command = "system_reset",                                                    \
	  .reset_restores_boot_image = true,                                                       \
	  .max_read_bytes = BR_QEMU_MAX_READ_BYTES,                                                \
	  .detach_needs_pid = true,                                                                \
	  .pipelines_in_ack_mode = true,                                                           \
	  .packets_follow_interrupt = true,                                                        \
	  .only_breakpoints_trap = true,                                                           \
	  .retranslates_on_breakpoint_change = true,                                               \
	  .xpsr_regnum = BR_QEMU_XPSR_REGNUM)                                                      \
	/* Its manual: memory reads while the core runs, the gdb session left                      \
	 * halted (background_*); not run on hardware here. */                                     \
	X(OPENOCD, "openocd", "OpenOCD gdb server",                                                \
	  .reset_command = "reset halt",                                                           \
	  .reset_halt_command = "reset halt",                                                      \
	  .background_run_command = "resume",                                                      \
	  .background_halt_command = "halt",                                                       \
	  .broken_reply_chars = BR_OPENOCD_BROKEN_REPLY_CHARS,                                     \
	  .limits_hardware_breakpoints = true,                                                     \
	  .writes_peripherals = true,                                                              \
	  .xpsr_regnum = BR_ARMV7M_XPSR_REGNUM)                                                    \
	/* J-Link GDB Server manual (UM08001), "monitor reset": resets and halts                   \
	 * the target (the default reset strategy). */                                             \
	X(JLINK, "jlink", "SEGGER J-Link GDB server",                                              \
	  .reset_command = "reset",                                                                \
	  .reset_halt_command = "reset",                                                           \
	  .limits_hardware_breakpoints = true,                                                     \
	  .writes_peripherals = true,                                                              \
	  .xpsr_regnum = BR_ARMV7M_XPSR_REGNUM)                                                    \
	/* pyOCD's gdbserver monitor commands: "reset halt". */                                    \
	X(PYOCD, "pyocd", "pyOCD gdb server",                                                      \
	  .reset_command = "reset halt",                                                           \
	  .reset_halt_command = "reset halt",                                                      \
	  .limits_hardware_breakpoints = true,                                                     \
	  .writes_peripherals = true,                                                              \
	  .xpsr_regnum = BR_ARMV7M_XPSR_REGNUM)                                                    \
	X(BMP, BR_FLAVOUR_BMP_NAME, "Black Magic Probe",                                           \
	  .reset_command = "reset",                                                                \
	  .scan_command = "swdp_scan",                                                             \
	  .limits_hardware_breakpoints = true,                                                     \
	  .writes_peripherals = true,                                                              \
	  .xpsr_regnum = BR_ARMV7M_XPSR_REGNUM)                                                    \
	/* Nothing beyond the GDB manual: the flavour of an unknown server. */                     \
	X(GENERIC, BR_FLAVOUR_GENERIC_NAME, "gdbserver (generic)",                                 \
	  .detach_needs_pid = true,                                                                \
	  .limits_hardware_breakpoints = true,                                                     \
	  .writes_peripherals = true,                                                              \
	  .xpsr_regnum = BR_ARMV7M_XPSR_REGNUM)
/* clang-format on */

#endif
