/*
 * Where benchrack finds what it ships: the board, suite and rack files
 * (configs/) and the suite firmware it measures when given none. Relative to
 * the running executable, never an absolute path of the machine it was built
 * on: installed (`meson install`), they are DATADIR/benchrack/configs and
 * DATADIR/benchrack/firmware beside BINDIR; run from its build tree, the
 * source tree's configs/ and the build tree's benches/. The executable
 * says where those are relative to itself (br_install_paths_set), once,
 * before anything asks.
 */
#ifndef BENCHRACK_RUN_INSTALL_PATHS_H
#define BENCHRACK_RUN_INSTALL_PATHS_H

/* The folders relative to the executable's: installed data
 * (<rel>/configs, <rel>/firmware), and in the build tree the firmware and
 * the configs. The strings must live as long as the program. */
void br_install_paths_set(const char *installed_data_rel, const char *build_firmware_rel,
                          const char *build_configs_rel);

/* The configs folder (boards/, suites/, racks/ inside). Never NULL; computed
 * once, the string lives as long as the program. */
const char *br_configs_dir(void);

/*
 * The suite firmware to measure on the board named board (NULL: the build's
 * own board): FIRMWARE/suite-O2-<board>.elf when that image exists (the
 * per-core matrix of benches/meson.build), else FIRMWARE/suite-O2.elf. The
 * string lives until the next call.
 */
const char *br_default_firmware(const char *board);

/* The benches as a host program (benches/host/, `--board host`):
 * FIRMWARE/host/benchrack-host-benches. The string lives as long as the
 * program. */
const char *br_host_benches(void);

#endif
