/*
 * The names of the two closed sets about the gdbserver in front of a board,
 * each declared once, here, for config/ (board files) and debug/ (the
 * flavour table, endpoints) alike: parsers, help texts and the "expected one
 * of" of errors are all made from these lists
 * (tests/style/check_closed_sets.py fails on a name written elsewhere).
 */
#ifndef BENCHRACK_COMMON_SERVER_NAMES_H
#define BENCHRACK_COMMON_SERVER_NAMES_H

/* The gdbserver flavours (debug/flavour.h has a row of quirks for each):
 * one name per flavour, then the list of them in table order. Adding a
 * flavour is a name and an id here and its row in debug/flavour.c. */
#define BR_FLAVOUR_QEMU_NAME "qemu"
#define BR_FLAVOUR_OPENOCD_NAME "openocd"
#define BR_FLAVOUR_JLINK_NAME "jlink"
#define BR_FLAVOUR_PYOCD_NAME "pyocd"
#define BR_FLAVOUR_BMP_NAME "bmp"
#define BR_FLAVOUR_GENERIC_NAME "generic"
#define BR_FLAVOUR_LIST(X) X(QEMU) X(OPENOCD) X(JLINK) X(PYOCD) X(BMP) X(GENERIC)

/* The flavour names in list order, NULL-terminated (a config schema's enum
 * names), and joined by ", " for help texts and messages. */
extern const char *const br_flavour_name_list[];
const char *br_flavour_name_joined(void);

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
