#!/usr/bin/env python3
"""The Debian packages end to end (issue 30), when BENCHRACK_DEBIAN_TEST=1
and as root (tools/test-all sets it in its plain build: CI runs it); it
builds the packages and installs them into a fresh root. Otherwise it skips
(exit 77). Each step prints the seconds since the start.

- `dpkg-buildpackage -us -uc -b` builds benchrack and benchrack-stub from a
  copy of the source tree (debian/, debhelper-compat 13, its Meson support);
- lintian reports no error and no warning on them (its informational tags
  are printed);
- in a fresh Debian 12 root (debootstrap minbase, as
  /work/shared/tools/fresh-ci makes it) `apt-get install ./benchrack*.deb`
  installs both with their dependencies; then, from a folder of its own,
  `benchrack run default` measures the installed default suite (exit 0),
  `benchrack --version` names the package's version, the installed bash
  completion completes a command and a board name, `man benchrack` shows a
  true NAME line, and the CMake example
  (examples/cmake-firmware) builds against the installed stub and is
  measured, every bench exact.

What makes it cheap enough for CI: the package build leaves the tests out
(-Dtests=false, debian/rules); the root's dependencies — the packages'
Depends, read from the built .debs, and what the test itself runs (QEMU,
the cross compiler, CMake, man) — are installed first without Recommends,
the .debs apt asks for taken from the host's own apt cache where it holds
the same file (apt checks each against the signed index as for a
download); a base system debootstrap made is kept in CACHE_DIR. (Keeping
the root with its dependencies as a tar was tried: 900 MB, and unpacking
it took as long as installing them from the seeded cache.)

usage: test_debian_package.py SOURCE_DIR [CACHE_DIR]
"""
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

SOURCE = os.path.abspath(sys.argv[1])
CACHE = os.path.abspath(sys.argv[2]) if len(sys.argv) > 2 else None
# What the test runs in the root besides the packages: the emulated board
# (benchrack recommends it), the CMake example's compiler and build tools,
# and man.
TOOLS = ["qemu-system-arm", "gcc-arm-none-eabi", "cmake", "make", "man-db"]
HOST_ARCHIVES = "/var/cache/apt/archives"
failures = []
STARTED = time.monotonic()


def check(cond, what, detail=""):
    print(("ok   " if cond else "FAIL ") + what + f"  [{time.monotonic() - STARTED:.0f} s]",
          flush=True)
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


def mirror():
    """The host's Debian mirror (its apt sources), else deb.debian.org."""
    for path in glob.glob("/etc/apt/sources.list.d/*.sources") + ["/etc/apt/sources.list"]:
        try:
            with open(path, encoding="utf-8") as f:
                for line in f:
                    words = line.split()
                    if len(words) >= 2 and words[0] in ("URIs:", "deb"):
                        return words[1]
        except OSError:
            pass
    return "http://deb.debian.org/debian"


def base_system(scratch):
    """A minimal Debian 12 root as a tar: fresh-ci's or CACHE's if there is
    one, else made here by debootstrap (and kept in CACHE)."""
    for tar in [os.path.join(tempfile.gettempdir(), "fresh-ci-bookworm-minbase.tar"),
                os.path.join(CACHE or scratch, "minbase.tar")]:
        if os.path.isfile(tar):
            return tar
    root = os.path.join(scratch, "debootstrap")
    rc, out = sh(["debootstrap", "--variant=minbase", "bookworm", root, mirror()])
    if not check(rc == 0, "debootstrap a Debian 12 root", out):
        return None
    tar = os.path.join(CACHE or scratch, "minbase.tar")
    os.makedirs(os.path.dirname(tar), exist_ok=True)
    sh(["tar", "-C", root, "-cf", tar + ".part", "."])
    os.replace(tar + ".part", tar)
    shutil.rmtree(root, ignore_errors=True)
    return tar


def in_root(root, script, timeout=1800):
    return sh(["chroot", root, "/bin/bash", "-c", "set -e\n" + script], timeout=timeout)


def depends_of(debs):
    """The package names the .debs depend on (the first of each alternative),
    without the .debs themselves."""
    own = {os.path.basename(d).split("_")[0] for d in debs}
    names = set()
    for deb in debs:
        rc, out = sh(["dpkg-deb", "-f", deb, "Depends"])
        for dep in out.replace("\n", " ").split(","):
            name = re.split(r"[\s(|:]", dep.strip(), maxsplit=1)[0]
            if name and name not in own:
                names.add(name)
    return sorted(names)


def seed_archives(root, packages):
    """Links into the root's apt cache each .deb apt would download for
    packages that the host's cache holds under the same name and size."""
    rc, out = in_root(root, "apt-get install -y -qq --no-install-recommends --print-uris " +
                      " ".join(packages))
    seeded = 0
    for line in out.splitlines():
        m = re.match(r"'[^']+' (\S+\.deb) (\d+) ", line)
        if not m:
            continue
        src = os.path.join(HOST_ARCHIVES, m.group(1))
        dst = os.path.join(root, "var/cache/apt/archives", m.group(1))
        if os.path.isfile(src) and os.path.getsize(src) == int(m.group(2)):
            try:
                os.link(src, dst)
            except OSError:
                shutil.copy(src, dst)
            seeded += 1
    return seeded


def unpack(tar, root):
    """A new folder root holding what tar holds."""
    os.makedirs(root)
    sh(["tar", "-C", root, "-xf", tar])
    return root


def mount_root(root, mounts):
    shutil.copy("/etc/resolv.conf", os.path.join(root, "etc", "resolv.conf"))
    for kind, what in [("proc", "proc"), ("dev", "/dev"), ("sys", "/sys")]:
        target = os.path.join(root, kind)
        args = ["mount", "-t", "proc", "proc", target] if kind == "proc" else \
            ["mount", "--rbind", what, target]
        if sh(args)[0] == 0:
            mounts.append(target)


def unmount_root(mounts):
    """Unmounts what mount_root mounted; a busy one is detached (umount -l),
    so that removing the root never reaches into the host's /dev or /sys."""
    for target in reversed(mounts):
        sh(["umount", "-R", target])
        if os.path.ismount(target):
            sh(["umount", "-lR", target])
        if os.path.ismount(target):
            print(f"FAIL {target} is still mounted: leaving the scratch folder in place")
            os._exit(1)
    mounts.clear()


def prepare_root(scratch, debs, mounts):
    """A fresh Debian 12 root (mounted; its mounts added to mounts) with
    every dependency of debs and TOOLS installed, not the debs; None when
    it cannot be made."""
    packages = sorted(set(depends_of(debs)) | set(TOOLS))
    tar = base_system(scratch)
    if tar is None:
        return None
    root = unpack(tar, os.path.join(scratch, "root"))
    mount_root(root, mounts)
    rc, out = in_root(root, "apt-get update -q")
    if not check(rc == 0, "apt-get update in a fresh root", out):
        return None
    seeded = seed_archives(root, packages)
    rc, out = in_root(root, "export DEBIAN_FRONTEND=noninteractive\n"
                      "apt-get install -y -q --no-install-recommends " + " ".join(packages))
    if not check(rc == 0, f"the root's dependencies: {' '.join(packages)} "
                 f"({seeded} .debs from the host's apt cache)", out):
        return None
    return root


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
        rc, out = sh(["lintian", "--fail-on", "error,warning", "--tag-display-limit", "0",
                      "--display-info"] + changes)
        check(rc == 0 and "\nE: " not in "\n" + out and "\nW: " not in "\n" + out,
              "lintian: no error, no warning", out)
        print(out)

        # 2. a fresh Debian 12 root with the packages' dependencies
        mounts = []
        try:
            root = prepare_root(scratch, debs, mounts)
            if root is None:
                return 1
            rc, out = in_root(root, "! dpkg -s benchrack >/dev/null 2>&1\n"
                              "! dpkg -s benchrack-stub >/dev/null 2>&1\n"
                              "! command -v benchrack")
            check(rc == 0, "the root holds no benchrack before the install", out)
            os.makedirs(os.path.join(root, "pkgs"))
            for deb in debs:
                shutil.copy(deb, os.path.join(root, "pkgs"))
            shutil.copytree(os.path.join(SOURCE, "examples", "cmake-firmware"),
                            os.path.join(root, "example"))
            rc, out = in_root(root, "export DEBIAN_FRONTEND=noninteractive\n"
                              "apt-get install -y -q --no-install-recommends "
                              "./pkgs/benchrack_*.deb ./pkgs/benchrack-stub_*.deb")
            if not check(rc == 0, "apt-get install ./benchrack*.deb in a fresh root", out):
                return 1
            rc, out = in_root(root, "mkdir -p /home/user/anywhere && cd /home/user/anywhere\n"
                              "benchrack run default -n 5 --json run.json\n"
                              "grep -q '\"suite\": \"default\"' run.json")
            check(rc == 0, "benchrack run default from any folder", out)
            rc, out = in_root(root, "cd / && benchrack --version")
            check(rc == 0 and out.strip() == f"benchrack {version().split('-')[0]}",
                  f"benchrack --version: {out.strip()!r}", out)
            # the installed completion, as bash calls it: commands, board names
            rc, out = in_root(root, ". /usr/share/bash-completion/completions/benchrack\n"
                              "COMP_WORDS=(benchrack ru); COMP_CWORD=1; _benchrack || true\n"
                              "echo \"commands: ${COMPREPLY[*]}\"\n"
                              "COMP_WORDS=(benchrack run --board qemu-netduinop); COMP_CWORD=3\n"
                              "_benchrack || true; echo \"boards: ${COMPREPLY[*]}\"")
            check(rc == 0 and "commands: run\n" in out and "boards: qemu-netduinoplus2\n" in out,
                  "bash completion: 'benchrack ru' -> run, '--board qemu-netduinop' -> "
                  "qemu-netduinoplus2", out)
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
            unmount_root(mounts)
    print(f"{len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
