#!/usr/bin/env python3
"""The Debian packages end to end (issue 30), opt-in: set
BENCHRACK_DEBIAN_TEST=1 (as root; it takes several minutes and downloads
packages into a fresh root). Otherwise it skips (exit 77).

- `dpkg-buildpackage -us -uc -b` builds benchrack and benchrack-stub from a
  copy of the source tree (debian/, debhelper-compat 13, its Meson support);
- lintian reports no error on them;
- in a fresh Debian 12 root (debootstrap minbase, as
  /work/shared/tools/fresh-ci makes it) `apt-get install ./benchrack*.deb`
  installs both with their dependencies; then, from a folder of its own,
  `benchrack run default` measures the installed default suite (exit 0),
  `man benchrack` shows a true NAME line, and the CMake example
  (examples/cmake-firmware) builds against the installed stub and is
  measured, every bench exact.

usage: test_debian_package.py SOURCE_DIR
"""
import glob
import os
import shutil
import subprocess
import sys
import tempfile

SOURCE = os.path.abspath(sys.argv[1])
failures = []


def check(cond, what, detail=""):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)
        if detail:
            print("     " + detail.replace("\n", "\n     ")[-3000:])
    return cond


def sh(cmd, timeout=1800, **kw):
    p = subprocess.run(cmd, shell=isinstance(cmd, str), capture_output=True, text=True,
                       timeout=timeout, **kw)
    return p.returncode, p.stdout + p.stderr


def version():
    with open(os.path.join(SOURCE, "debian", "changelog"), encoding="utf-8") as f:
        return f.readline().split("(", 1)[1].split(")", 1)[0]


def base_system(scratch):
    """A minimal Debian 12 root as a tar: fresh-ci's if it made one, else made here."""
    tar = os.path.join(tempfile.gettempdir(), "fresh-ci-bookworm-minbase.tar")
    if os.path.isfile(tar):
        return tar
    root = os.path.join(scratch, "debootstrap")
    rc, out = sh(["debootstrap", "--variant=minbase", "bookworm", root,
                  "http://deb.debian.org/debian"])
    if not check(rc == 0, "debootstrap a Debian 12 root", out):
        return None
    tar = os.path.join(scratch, "minbase.tar")
    sh(["tar", "-C", root, "-cf", tar, "."])
    shutil.rmtree(root, ignore_errors=True)
    return tar


def in_root(root, script, timeout=1800):
    return sh(["chroot", root, "/bin/bash", "-c", "set -e\n" + script], timeout=timeout)


def main():
    if os.environ.get("BENCHRACK_DEBIAN_TEST") != "1":
        print("skipped: set BENCHRACK_DEBIAN_TEST=1 (as root) to build and install the packages")
        return 77
    if os.geteuid() != 0:
        print("skipped: needs root (chroot, mounts)")
        return 77
    with tempfile.TemporaryDirectory() as scratch:
        # 1. build from a copy of the tree (dpkg-buildpackage writes beside it)
        src = os.path.join(scratch, f"benchrack-{version()}")
        rc, out = sh(f"tar -C {SOURCE} --exclude=./build --exclude=./.git --exclude='./build-*' "
                     f"-cf - . | (mkdir -p {src} && tar -C {src} -xf -)")
        check(rc == 0, "copy of the source tree", out)
        rc, out = sh(["dpkg-buildpackage", "-us", "-uc", "-b"], cwd=src, timeout=3600)
        if not check(rc == 0, "dpkg-buildpackage -us -uc -b", out):
            return 1
        debs = sorted(glob.glob(os.path.join(scratch, "*.deb")))
        debs = [d for d in debs if "-dbgsym_" not in d]
        names = sorted(os.path.basename(d).split("_")[0] for d in debs)
        check(names == ["benchrack", "benchrack-stub"], f"two binary packages ({names})")
        for deb in debs:
            rc, out = sh(["dpkg-deb", "-c", deb])
            listing = out
            if os.path.basename(deb).startswith("benchrack-stub_"):
                check("./usr/lib/arm-none-eabi/benchrack/libbenchrack-stub-cortex-m4.a" in listing
                      and "./usr/share/pkgconfig/benchrack-stub.pc" in listing and
                      "./usr/share/cmake/benchrack_stub/benchrack_stub-config.cmake" in listing
                      and "./usr/lib/arm-none-eabi/include/benchrack/bench.h" in listing,
                      "benchrack-stub: headers, per-core libraries under arm-none-eabi, "
                      "pkg-config, CMake", listing)
            else:
                check("./usr/bin/benchrack" in listing and
                      "./usr/share/man/man1/benchrack.1.gz" in listing and
                      "./usr/share/bash-completion/completions/benchrack" in listing and
                      "./usr/share/benchrack/configs/suites/default.yaml" in listing and
                      "./usr/share/benchrack/firmware/suite-O2.elf" in listing,
                      "benchrack: the command, man pages, completion, configs, suite images",
                      listing)
        changes = glob.glob(os.path.join(scratch, "*.changes"))
        rc, out = sh(["lintian", "--fail-on", "error", "--tag-display-limit", "0"] + changes)
        check(rc == 0 and "\nE: " not in "\n" + out, "lintian: no error", out)
        print(out)

        # 2. a fresh Debian 12 root
        tar = base_system(scratch)
        if tar is None:
            return 1
        root = os.path.join(scratch, "root")
        os.makedirs(root)
        sh(["tar", "-C", root, "-xf", tar])
        shutil.copy("/etc/resolv.conf", os.path.join(root, "etc", "resolv.conf"))
        mounts = []
        try:
            for kind, what in [("proc", "proc"), ("dev", "/dev"), ("sys", "/sys")]:
                target = os.path.join(root, kind)
                args = ["mount", "-t", "proc", "proc", target] if kind == "proc" else \
                    ["mount", "--rbind", what, target]
                if sh(args)[0] == 0:
                    mounts.append(target)
            os.makedirs(os.path.join(root, "pkgs"))
            for deb in debs:
                shutil.copy(deb, os.path.join(root, "pkgs"))
            shutil.copytree(os.path.join(SOURCE, "examples", "cmake-firmware"),
                            os.path.join(root, "example"))
            rc, out = in_root(root, "export DEBIAN_FRONTEND=noninteractive\n"
                              "apt-get update -q\n"
                              "apt-get install -y -q ./pkgs/benchrack_*.deb "
                              "./pkgs/benchrack-stub_*.deb cmake make man-db")
            if not check(rc == 0, "apt-get install ./benchrack*.deb in a fresh root", out):
                return 1
            rc, out = in_root(root, "mkdir -p /home/user/anywhere && cd /home/user/anywhere\n"
                              "benchrack run default -n 5 --json run.json\n"
                              "grep -q '\"suite\": \"default\"' run.json")
            check(rc == 0, "benchrack run default from any folder", out)
            rc, out = in_root(root, "man -P cat benchrack 2>/dev/null | sed -n '1,8p'")
            check(rc == 0 and "benchrack - measures firmware on Cortex-M" in out and
                  "measured and within budgets" not in out.split("SYNOPSIS")[0],
                  "man benchrack: a true NAME line", out)
            rc, out = in_root(root, "cd /example\n"
                              "cmake -S . -B /tmp/cm "
                              "-DCMAKE_TOOLCHAIN_FILE=/example/arm-none-eabi-cortex-m4.cmake\n"
                              "cmake --build /tmp/cm\n"
                              "cd /tmp && benchrack run /tmp/cm/firmware.elf --board "
                              "qemu-netduinoplus2 -n 10 --json /tmp/cm.json\n"
                              "grep -q fir_64 /tmp/cm.json")
            check(rc == 0, "the CMake example builds against the installed stub and runs",
                  out)
        finally:
            for target in reversed(mounts):
                sh(["umount", "-R", target])
    print(f"{len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
