#!/usr/bin/env python3
"""`meson install --destdir D` as a user gets it, then a user's firmware built
against what was installed and measured by the installed benchrack.

Checks:
  - D holds bin/benchrack, a man page per command (roff, from scdoc), the
    bash completion, the stub's headers, pkg-config file and CMake package,
    the shipped board files and the default suite image;
  - the installed benchrack's default firmware is under D, not in the build
    tree (no build-machine path is its default), and `run --board` on an
    emulated board measures that board's installed image;
  - `pkg-config --cflags --libs benchrack-stub` works on D (and picks another
    core's library with --define-variable=core=...);
  - examples/cmake-firmware configures (toolchain file, CMAKE_PREFIX_PATH=D),
    builds, and `benchrack run` measures its ELF on QEMU netduinoplus2: exit 0,
    every bench measured and exact (min == max), the ELF's build-id in the
    record, and fir_64 - fir_32 a whole number of 32 equal per-sample costs;
  - the Make snippet builds the same sources into an ELF benchrack runs;
  - so does a Meson project through dependency('benchrack-stub') and the
    installed wrap's fallback.

Usage: test_install.py BUILD_DIR PREFIX SOURCE_DIR COMMAND...
(COMMAND: the subcommands that must have man pages)
Exit status 0 when every check holds, 1 otherwise.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from measure_cli import Checks  # noqa: E402

CHECKS = Checks()
check = CHECKS.check


def run(argv, **kw):
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=120, **kw)
    if proc.returncode != 0:
        print(f"$ {' '.join(argv)}\n{proc.stdout}\n{proc.stderr}")
    return proc


def measure(benchrack, elf, tmp, name):
    out = os.path.join(tmp, name + ".json")
    proc = run([benchrack, "run", elf, "--board", "qemu-netduinoplus2", "-n", "20",
                "--results-dir", os.path.join(tmp, "results"), "--json", out])
    if not check(proc.returncode == 0, f"{name}: benchrack run exit {proc.returncode}"):
        return None
    print(proc.stdout)
    return json.load(open(out))


MESON_USER_PROJECT = """project('userfw', 'c', meson_version: '>=1.0.0',
  default_options: ['benchrack-stub:counter=tim2'])
stub = dependency('benchrack-stub')
template = subproject('benchrack-stub').get_variable('stub_linker_script_template')
ld = configure_file(input: template, output: 'fw.ld', configuration: {
  'BOARD': 'netduinoplus2', 'FLASH_ORIGIN': '0x08000000', 'FLASH_LENGTH': '1M',
  'RAM_ORIGIN': '0x20000000', 'RAM_LENGTH': '128K', 'STACK_SIZE': '8K'})
executable('fw', 'fir.c', 'benches.c', name_suffix: 'elf', dependencies: stub,
  c_args: ['-O2'], link_args: ['-T' + meson.current_build_dir() / 'fw.ld'], link_depends: ld)
"""


def check_meson_subproject(benchrack, root, example, tmp):
    """A Meson firmware: dependency('benchrack-stub') through the installed
    wrap (pkg-config finds nothing here, so the wrap's fallback builds the
    installed sources), cross-built with the installed cross file."""
    project = os.path.join(tmp, "meson-firmware")
    os.makedirs(os.path.join(project, "subprojects"))
    stub_dir = os.path.join(root, "share", "benchrack", "stub")
    shutil.copy(os.path.join(stub_dir, "benchrack-stub.wrap"),
                os.path.join(project, "subprojects"))
    os.symlink(stub_dir, os.path.join(project, "subprojects", "benchrack-stub"))
    for name in ("fir.c", "fir.h", "benches.c"):
        shutil.copy(os.path.join(example, "src", name), project)
    with open(os.path.join(project, "meson.build"), "w") as f:
        f.write(MESON_USER_PROJECT)
    cross = os.path.join(root, "share", "benchrack", "configs", "cross",
                         "cortex-m4-netduinoplus2.ini")
    env = dict(os.environ)
    env.pop("PKG_CONFIG_PATH", None)
    build = os.path.join(project, "build")
    proc = run(["meson", "setup", build, project, "--cross-file", cross], env=env)
    if not check(proc.returncode == 0 and "Looking for a fallback subproject" in proc.stdout,
                 "Meson: dependency('benchrack-stub') configures through the wrap fallback"):
        return
    proc = run(["ninja", "-C", build])
    elf = os.path.join(build, "fw.elf")
    if check(proc.returncode == 0 and os.path.isfile(elf), "Meson builds fw.elf"):
        record = measure(benchrack, elf, tmp, "meson-firmware")
        if record is not None:
            check([b["name"] for b in record["benches"]] == ["empty", "fir_32", "fir_64"]
                  and all(b["min"] == b["max"] for b in record["benches"]),
                  "meson-firmware: every bench measured, exact")


def main(argv):
    build, prefix, source, commands = argv[1], argv[2], argv[3], argv[4:]
    with tempfile.TemporaryDirectory() as tmp:
        destdir = os.path.join(tmp, "D")
        proc = run(["meson", "install", "-C", build, "--destdir", destdir, "--no-rebuild",
                    "--quiet"])
        if not check(proc.returncode == 0, "meson install --destdir"):
            return 1
        root = destdir + prefix
        host_libs = [os.path.join(root, d) for d in
                     ("lib", "lib64", os.path.join("lib", "x86_64-linux-gnu"))]
        target_lib = os.path.join(root, "lib", "arm-none-eabi", "benchrack")
        benchrack = os.path.join(root, "bin", "benchrack")
        expected = [os.path.join(root, "bin", "benchrack"),
                    os.path.join(root, "share", "bash-completion", "completions", "benchrack"),
                    os.path.join(root, "lib", "arm-none-eabi", "include", "benchrack",
                                 "bench.h"),
                    os.path.join(root, "lib", "arm-none-eabi", "include", "benchrack",
                                 "suite.h"),
                    os.path.join(root, "share", "pkgconfig", "benchrack-stub.pc"),
                    os.path.join(root, "share", "cmake", "benchrack_stub",
                                 "benchrack_stub-config.cmake"),
                    os.path.join(target_lib, "libbenchrack-stub-cortex-m4.a"),
                    os.path.join(root, "share", "benchrack", "stub", "ld",
                                 "benchrack-qemu-netduinoplus2.ld"),
                    os.path.join(root, "share", "benchrack", "stub", "benchrack-stub.mk"),
                    os.path.join(root, "share", "benchrack", "stub", "link.ld.in"),
                    os.path.join(root, "share", "benchrack", "configs", "boards",
                                 "qemu-netduinoplus2.yaml"),
                    os.path.join(root, "share", "benchrack", "firmware", "suite-O2.elf")]
        for page in ["benchrack"] + ["benchrack-" + c for c in commands]:
            expected.append(os.path.join(root, "share", "man", "man1", page + ".1"))
        for path in expected:
            check(os.path.isfile(path), "installed " + os.path.relpath(path, destdir))
        for page in ["benchrack"] + ["benchrack-" + c for c in commands]:
            path = os.path.join(root, "share", "man", "man1", page + ".1")
            if os.path.isfile(path):
                text = open(path).read()
                check(".TH" in text and ".SH OPTIONS" in text or page == "benchrack",
                      f"{page}.1 is a roff page with OPTIONS")
                # issue 30: a true NAME line (a summary, not the exit codes) and a
                # DESCRIPTION with text before the next section
                name = text.split(".SH NAME", 1)[-1].split(".SH", 1)[0]
                desc = text.split(".SH DESCRIPTION", 1)[-1].split(".SH", 1)[0]
                check(".SH NAME" in text and " - " in name and
                      "measured and within budgets" not in name,
                      f"{page}.1: NAME is a summary ({name.strip()[:100]!r})")
                check(".SH DESCRIPTION" in text and len(desc.strip()) > 40,
                      f"{page}.1: DESCRIPTION has text ({desc.strip()[:60]!r})")
                if page == "benchrack":
                    # every exit code of README's table, in EXIT STATUS
                    status = text.split(".SH EXIT STATUS", 1)[-1].split(".SH", 1)[0]
                    missing = [code for code in ["0", "1", "2", "3", "130", "143"]
                               if not re.search(r"(^|[\s,])" + code + r"[\s,]", status)]
                    check(".SH EXIT STATUS" in text and not missing,
                          f"benchrack.1: EXIT STATUS names every exit code (missing {missing})")
        check(os.access(benchrack, os.X_OK), "bin/benchrack is executable")

        proc = run([benchrack, "run", "--help"])
        default = proc.stdout.split("here:\n", 1)[-1].strip().split("\n")[0]
        check(os.path.realpath(default).startswith(os.path.realpath(root)) and
              not os.path.realpath(default).startswith(os.path.realpath(build)),
              f"installed default firmware {default} is under D, not the build tree")

        out = os.path.join(tmp, "installed-an505.json")
        proc = run([benchrack, "run", "--board", "qemu-mps2-an505", "-n", "5",
                    "--results-dir", os.path.join(tmp, "results"), "--json", out])
        if check(proc.returncode == 0, "installed benchrack run --board qemu-mps2-an505"):
            path = json.load(open(out))["firmware"]["path"]
            check(os.path.realpath(path) == os.path.realpath(os.path.join(
                root, "share", "benchrack", "firmware", "suite-O2-qemu-mps2-an505.elf")),
                  f"it measured the installed image for that board ({path})")

        # Issue 30: the README's first command, by the suite's name, from any folder
        anywhere = os.path.join(tmp, "anywhere")
        os.makedirs(anywhere)
        out = os.path.join(tmp, "installed-default.json")
        proc = run([benchrack, "run", "default", "-n", "3", "--results-dir",
                    os.path.join(tmp, "results"), "--json", out], cwd=anywhere)
        if check(proc.returncode == 0, f"installed benchrack run default from another folder "
                 f"(exit {proc.returncode}: {proc.stderr[-300:]})"):
            rec = json.load(open(out))
            check(rec["suite"] == "default" and os.path.realpath(rec["suite_path"]) ==
                  os.path.realpath(os.path.join(root, "share", "benchrack", "configs", "suites",
                                                "default.yaml")),
                  f"it ran the installed default suite ({rec['suite_path']})")
        proc = run([benchrack, "run", "no-such-suite"], cwd=anywhere)
        check(proc.returncode == 2 and "suite 'no-such-suite' not found" in proc.stderr,
              f"an unknown suite name: exit 2, saying where it looked ({proc.stderr.strip()})")

        # issue 30: target libraries never where a host linker looks
        stray = [os.path.join(d, n) for d in host_libs if os.path.isdir(d)
                 for n in os.listdir(d) if n.startswith("libbenchrack")]
        check(not stray, f"no stub library in the host's lib/ ({stray})")
        # nor target headers in the host's include/: a cross compiler given
        # -I/usr/include would take the host's libc headers with them
        check(not os.path.exists(os.path.join(root, "include", "benchrack")),
              "no stub header in the host's include/")
        env = dict(os.environ, PKG_CONFIG_PATH=os.path.join(root, "share", "pkgconfig"))
        proc = run(["pkg-config", "--cflags", "--libs", "benchrack-stub"], env=env)
        flags = proc.stdout.split()
        check({"-mcpu=cortex-m4", "-mthumb", "-mfloat-abi=soft"} <= set(flags),
              f"pkg-config --cflags carries the core's flags ({proc.stdout.strip()})")
        check(proc.returncode == 0 and "-lbenchrack-stub-cortex-m4" in flags and
              any(f.startswith("-I") and os.path.isfile(os.path.join(f[2:], "benchrack",
                                                                     "bench.h"))
                  for f in flags),
              f"pkg-config --cflags --libs benchrack-stub: {proc.stdout.strip()}")
        for f in flags:
            if f.startswith("-L"):
                check(os.path.isfile(os.path.join(f[2:], "libbenchrack-stub-cortex-m4.a")),
                      "pkg-config's -L holds the library")
        proc = run(["pkg-config", "--define-variable=core=cortex-m0", "--libs",
                    "benchrack-stub"], env=env)
        check("-lbenchrack-stub-cortex-m0" in proc.stdout.split(),
              "pkg-config --define-variable=core=cortex-m0 picks the M0 library")
        # the one-line link: pkg-config's flags and its ready linker script
        ld = run(["pkg-config", "--variable=linker_script", "benchrack-stub"],
                 env=env).stdout.strip()
        check(os.path.isfile(ld), f"pkg-config's linker_script is a file ({ld})")
        an386 = run(["pkg-config", "--define-variable=board=qemu-mps2-an505",
                     "--variable=linker_script", "benchrack-stub"], env=env).stdout.strip()
        check(os.path.isfile(an386) and "qemu-mps2-an505" in an386,
              f"and one per board ({an386})")
        example_src = os.path.join(source, "examples", "cmake-firmware", "src")
        pc_elf = os.path.join(tmp, "pc-firmware.elf")
        proc = run(["sh", "-c", 'arm-none-eabi-gcc -O2 $(pkg-config --cflags benchrack-stub) '
                    '-nostdlib -nostartfiles -Wl,--gc-sections '
                    '-T"$(pkg-config --variable=linker_script benchrack-stub)" -o "$0" '
                    '"$1"/fir.c "$1"/benches.c $(pkg-config --libs benchrack-stub)',
                    pc_elf, example_src], env=env)
        if check(proc.returncode == 0, f"the example links with pkg-config alone "
                 f"({proc.stderr[-300:]})"):
            record = measure(benchrack, pc_elf, tmp, "pkg-config-firmware")
            if record is not None:
                check([b["name"] for b in record["benches"]] == ["empty", "fir_32", "fir_64"]
                      and all(b["min"] == b["max"] for b in record["benches"]),
                      "pkg-config-firmware: every bench measured, exact")

        example = os.path.join(source, "examples", "cmake-firmware")
        cm = os.path.join(tmp, "cmake-build")
        proc = run(["cmake", "-S", example, "-B", cm,
                    "-DCMAKE_TOOLCHAIN_FILE=" + os.path.join(example,
                                                             "arm-none-eabi-cortex-m4.cmake"),
                    "-DCMAKE_PREFIX_PATH=" + root])
        if check(proc.returncode == 0, "cmake configures the example against D"):
            proc = run(["cmake", "--build", cm])
            elf = os.path.join(cm, "firmware.elf")
            if check(proc.returncode == 0 and os.path.isfile(elf), "cmake builds firmware.elf"):
                record = measure(benchrack, elf, tmp, "cmake-firmware")
                if record is not None:
                    benches = {b["name"]: b for b in record["benches"]}
                    check(sorted(benches) == ["empty", "fir_32", "fir_64"],
                          f"benches {sorted(benches)}")
                    check(all(b["status"] == "measured" and b["min"] == b["max"]
                              for b in benches.values()), "every bench measured, exact")
                    build_id = run(["arm-none-eabi-readelf", "-n", elf]).stdout
                    check(record["firmware"]["build_id"] in build_id,
                          "the record's build-id is the example ELF's")
                    if {"fir_32", "fir_64"} <= set(benches):
                        step = benches["fir_64"]["median"] - benches["fir_32"]["median"]
                        check(step > 0 and step % 32 == 0,
                              f"fir_64 - fir_32 = {step} = 32 samples x {step / 32:g}")

        stub_dir = os.path.join(root, "share", "benchrack", "stub")
        mk = os.path.join(tmp, "make-firmware")
        os.makedirs(mk)
        with open(os.path.join(mk, "Makefile"), "w") as f:
            f.write(f"""BENCHRACK_STUB_COUNTER := tim2
BENCHRACK_FLASH_ORIGIN := 0x08000000
BENCHRACK_FLASH_LENGTH := 1M
BENCHRACK_RAM_ORIGIN := 0x20000000
BENCHRACK_RAM_LENGTH := 128K
BENCHRACK_STACK_SIZE := 8K
include {stub_dir}/benchrack-stub.mk
ARCH := -mcpu=cortex-m4 -mthumb -mfloat-abi=soft
fw.elf: {example}/src/fir.c {example}/src/benches.c $(BENCHRACK_STUB_SRCS) $(BENCHRACK_STUB_LD)
\tarm-none-eabi-gcc $(ARCH) -O2 $(BENCHRACK_STUB_CFLAGS) -nostdlib -nostartfiles \\
\t  -Wl,--gc-sections -T$(BENCHRACK_STUB_LD) -o $@ $(filter %.c,$^)
""")
        proc = run(["make", "-C", mk])
        if check(proc.returncode == 0, "the Make snippet builds fw.elf"):
            record = measure(benchrack, os.path.join(mk, "fw.elf"), tmp, "make-firmware")
            if record is not None:
                check([b["name"] for b in record["benches"]] == ["empty", "fir_32", "fir_64"]
                      and all(b["min"] == b["max"] for b in record["benches"]),
                      "make-firmware: every bench measured, exact")
        check_meson_subproject(benchrack, root, example, tmp)
    return CHECKS.finish()


if __name__ == "__main__":
    sys.exit(main(sys.argv))
