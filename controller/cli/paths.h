/*
 * Where benchrack finds what it ships: the board, suite and rack files
 * (configs/) and the suite firmware it measures when given none. Relative to
 * the running executable, never an absolute path of the machine it was built
 * on: installed (`meson install`), they are DATADIR/benchrack/configs and
 * DATADIR/benchrack/firmware beside BINDIR; run from its build tree, the
 * source tree's configs/ and the build tree's benches/.
 */
#ifndef BENCHRACK_CLI_PATHS_H
#define BENCHRACK_CLI_PATHS_H

/* The configs folder (boards/, suites/, racks/ inside). Never NULL; computed
 * once, the string lives as long as the program. */
const char *br_cli_configs_dir(void);

/*
 * The suite firmware to measure on the board named board (NULL: the build's
 * own board): FIRMWARE/suite-O2-<board>.elf when that image exists (the
 * per-core matrix of benches/meson.build), else FIRMWARE/suite-O2.elf. The
 * string lives until the next call.
 */
const char *br_cli_default_firmware(const char *board);

/* The benches as a host program (benches/host/, `--board host`):
 * FIRMWARE/host/benchrack-host-benches. The string lives as long as the
 * program. */
const char *br_cli_host_benches(void);

#endif
