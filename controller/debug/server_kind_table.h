/*
 * The server kinds: one row each, the whole of what benchrack knows of how
 * to reach a kind of gdbserver (the columns of br_server_kind_t in
 * debug/server_kind.h). Adding a kind is one row here: its name joins the
 * board schema's kinds and the "expected one of" of errors, its keys the
 * board schema, and a board naming it is launched with the row's builder
 * (its prototype below, its file in debug/meson.build), waited for and
 * stopped as every launched server is (tests/unit/target/server_kind_row/
 * test_server_kind_row.c builds the tree with one row more and launches and
 * attaches through it). A kind's name is written only here
 * (tests/style/check_closed_sets.py).
 *
 * A row is X(ID, NAME, .column = value, ...): the designated initializers of
 * its br_server_kind_t.
 */
#ifndef BENCHRACK_DEBUG_SERVER_KIND_TABLE_H
#define BENCHRACK_DEBUG_SERVER_KIND_TABLE_H

#include "debug/flavour_table.h"
#include "debug/server_cmdline.h"

/* The programs launched for a qemu and an openocd server when the board or
 * the command line names none (found on PATH), and the machine `benchrack
 * probe` launches when told nothing: names help texts spell at compile time. */
#define BR_QEMU_PROGRAM "qemu-system-arm"
#define BR_OPENOCD_PROGRAM "openocd"
#define BR_QEMU_DEFAULT_MACHINE "netduinoplus2"

/* The place of a key in its row's keys (its builder's opts->params[i]), for
 * the code that fills one from the command line. */
#define BR_QEMU_KEY_MACHINE 0U
#define BR_OPENOCD_KEY_INTERFACE 0U
#define BR_OPENOCD_KEY_TARGET 1U
#define BR_OPENOCD_KEY_SERIAL 2U

/* The builders, one file each (debug/server_qemu.c, debug/server_openocd.c). */
br_server_cmdline_fn br_server_cmdline_qemu;
br_server_cmdline_fn br_server_cmdline_openocd;

/* clang-format off */
#define BR_SERVER_KIND_ROWS(X)                                                                     \
	/* qemu-system-arm -M MACHINE, started halted with the image (-kernel) */                 \
	X(QEMU, "qemu",                                                                            \
	  .reach = BR_SERVER_REACH_LAUNCH,                                                         \
	  .flavour = BR_FLAVOUR_QEMU_NAME,                                                         \
	  .title = "QEMU",                                                                         \
	  .program = BR_QEMU_PROGRAM,                                                              \
	  .install = "install QEMU (apt-get install qemu-system-arm) or name the program with "    \
	             "--qemu PATH",                                                                \
	  .cmdline = br_server_cmdline_qemu,                                                       \
	  .keys = {[BR_QEMU_KEY_MACHINE] = {.name = "machine", .required = true, .flag = "-M",     \
	                                    .form = "a QEMU machine name, e.g. netduinoplus2"}},   \
	  .args_example = ", e.g. [-d, guest_errors]",                                             \
	  .takes_image = true,                                                                     \
	  .emulated = true)                                                                        \
	/* openocd -f INTERFACE -f TARGET, on the probe of that serial number */                  \
	X(OPENOCD, "openocd",                                                                      \
	  .reach = BR_SERVER_REACH_LAUNCH,                                                         \
	  .flavour = "openocd",                                                                    \
	  .title = "OpenOCD",                                                                      \
	  .program = BR_OPENOCD_PROGRAM,                                                           \
	  .install = "install OpenOCD (apt-get install openocd)",                                  \
	  .cmdline = br_server_cmdline_openocd,                                                    \
	  .keys = {[BR_OPENOCD_KEY_INTERFACE] = {.name = "interface", .required = true,            \
	            .flag = "-f", .identity = BR_SERVER_KEY_FIRST_PROBE,                           \
	            .form = "an OpenOCD interface script, e.g. interface/stlink.cfg"},             \
	           [BR_OPENOCD_KEY_TARGET] = {.name = "target", .required = true, .flag = "-f",    \
	            .form = "an OpenOCD target script, e.g. target/stm32f4x.cfg"},                 \
	           [BR_OPENOCD_KEY_SERIAL] = {.name = "serial", .identity = BR_SERVER_KEY_PROBE,   \
	            .form = "the probe's serial number, as `adapter serial` takes it"}})           \
	/* any gdbserver already running at host:port */                                          \
	X(REMOTE, "remote",                                                                        \
	  .reach = BR_SERVER_REACH_TCP)                                                            \
	/* a probe speaking RSP on a serial device (Black Magic Probe) */                         \
	X(SERIAL, "serial",                                                                        \
	  .reach = BR_SERVER_REACH_SERIAL,                                                         \
	  .flavour = BR_FLAVOUR_BMP_NAME)
/* clang-format on */

#endif
