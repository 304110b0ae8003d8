/*
 * How a board's gdbserver is reached (launched or attached), declared once,
 * here, for config/ (board files) and debug/ (endpoints) alike: parsers, help
 * texts and the "expected one of" of errors are all made from this list
 * (tests/style/check_closed_sets.py fails on a name written elsewhere). The
 * gdbserver flavours are rows of debug/flavour_table.h.
 */
#ifndef BENCHRACK_COMMON_SERVER_NAMES_H
#define BENCHRACK_COMMON_SERVER_NAMES_H

/* How benchrack reaches a board's server (a board's server: kind:), as
 * X(ID, name): launch QEMU, launch OpenOCD, attach at host:port, attach on a
 * serial device. */
#define BR_SERVER_KIND_LIST(X)                                                                     \
	X(QEMU, "qemu")                                                                            \
	X(OPENOCD, "openocd")                                                                      \
	X(REMOTE, "remote")                                                                        \
	X(SERIAL, "serial")

/* The kind names in list order, NULL-terminated. */
extern const char *const br_server_kind_names[];

/* The programs launched for a qemu and an openocd server when the board or
 * the command line names none (found on PATH). */
#define BR_QEMU_PROGRAM "qemu-system-arm"
#define BR_OPENOCD_PROGRAM "openocd"

#endif
