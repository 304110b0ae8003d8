#!/usr/bin/env python3
"""`benchrack gdb`: gdb-multiarch on the board as `measure` reaches it.

On the build's QEMU board (--board NAME, tests/lib/test_board.py: its
machine, memory and counter; fw_region.c and fw_loop.c are linked for it):
- Launched QEMU: `benchrack gdb ELF --board NAME -- -batch -ex 'break
  region_stop' -ex continue -ex 'p/x $pc'` exits 0, stops at region_stop
  ($pc is region_stop's address, from nm), and leaves no server behind (no
  process runs with the image, a copy under a name of this test's own);
- `--from region_start --to region_stop`: the breakpoints are set before gdb
  takes over, and two `continue`s stop at each in turn;
- a board reached as a remote gdbserver (a QEMU of the board's machine this
  test started halted with another image, in record mode when the board's
  counter is icount; the board's own file with `server: {kind: remote}`,
  `load: always`): the image is loaded (gdb stops at
  region_stop in it, and gdb's compare-sections finds .text matched), the board is locked meanwhile (`benchrack measure` on
  the same board from inside gdb: exit 3, "in use"), and the server runs on
  afterwards (benchrack did not launch it, so it does not stop it); on a
  machine whose QEMU copies its -kernel image back at each reset (microbit,
  mps2-an500, mps2-an505) this holds only when benchrack resets before it
  loads (controller/run/image_start.h);
- an ambiguous or unknown --function is exit 2 before anything starts;
  a debugger that cannot be started (--gdb, or the board file's gdb:) is
  exit 3 naming it.

usage: test_gdb_cmd.py BENCHRACK QEMU NM REGION_ELF IDLE_ELF
"""
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
from measure_cli import Checks  # noqa: E402
from ports import connect  # noqa: E402
from qemu_gdbstub import start_qemu  # noqa: E402
import test_board  # noqa: E402

BENCHRACK, QEMU, NM, REGION, IDLE = sys.argv[1:6]
TIMEOUT_S = 60
BOARD = ["--board", test_board.NAME]
c = Checks()


def symbol(elf, name):
    out = subprocess.run([NM, elf], capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[2] == name:
            return int(parts[0], 16) & ~1
    raise KeyError(name)


def processes_with(text):
    """pids whose command line mentions text."""
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                if text.encode() in f.read():
                    found.append(int(pid))
        except OSError:
            pass
    return found


def gdb(*args, env=None):
    p = subprocess.run([BENCHRACK, "gdb", *args], capture_output=True, text=True,
                       timeout=TIMEOUT_S, env=env)
    c.show(p.stdout, p.stderr)
    return p


def main():
    work = tempfile.mkdtemp(prefix="benchrack-gdb-")
    os.environ["BENCHRACK_LOCK_DIR"] = os.path.join(work, "locks")
    try:
        elf = os.path.join(work, "region-under-gdb-test.elf")
        shutil.copy(REGION, elf)
        stop = symbol(elf, "region_stop")
        start = symbol(elf, "region_start")

        p = gdb(elf, *BOARD, "--", "-batch", "-ex", "break region_stop", "-ex", "continue",
                "-ex", "p/x $pc")
        c.check(p.returncode == 0, f"gdb ... -- -batch: exit {p.returncode}")
        c.check("region_stop" in p.stdout and f"$1 = {stop:#x}" in p.stdout,
                f"stopped at region_stop ({stop:#x})")
        c.check(processes_with(elf) == [], "no server left behind (nothing runs the image)")

        p = gdb(elf, *BOARD, "--from", "region_start", "--to", "region_stop", "--", "-batch",
                "-ex", "continue", "-ex", "p/x $pc", "-ex", "continue", "-ex", "p/x $pc")
        c.check(p.returncode == 0 and f"$1 = {start:#x}" in p.stdout
                and f"$2 = {stop:#x}" in p.stdout,
                "--from/--to: stops at region_start, then at region_stop")
        c.check("breakpoints at" in p.stderr and "(region_start)" in p.stderr,
                "says where the breakpoints are")
        c.check(processes_with(elf) == [], "no server left behind after --from/--to")

        proc, port = start_qemu(QEMU, IDLE, machine=test_board.qemu_machine(),
                                icount=test_board.qemu_icount(work))
        try:
            connect(port, process=proc).close()
            board = os.path.join(work, "remote-qemu.yaml")
            with open(board, "w") as f:
                f.write(test_board.remote_board_yaml("remote-qemu", "127.0.0.1", port, "always"))
            inner = (f"shell {BENCHRACK} measure {elf} --board {board} --function region_stop "
                     f"-n 1 > {work}/inner.out 2>&1; echo inner-exit=$?")
            p = gdb(elf, "--board", board, "--", "-batch", "-ex", "break region_stop",
                    "-ex", "continue", "-ex", "p/x $pc", "-ex", "compare-sections .text",
                    "-ex", inner)
            c.check(p.returncode == 0 and f"$1 = {stop:#x}" in p.stdout,
                    "remote board: stopped at region_stop")
            c.check("matched" in p.stdout and "MIS-MATCHED" not in p.stdout,
                    "remote board: the image was loaded (gdb's compare-sections .text matched)")
            inner_out = open(os.path.join(work, "inner.out")).read()
            c.check("inner-exit=3" in p.stdout and "in use" in inner_out,
                    f"the board is locked while gdb runs: {inner_out.strip()}")
            c.check(proc.poll() is None, "the remote server runs on after gdb exits")
        finally:
            proc.kill()
            proc.wait()

        p = gdb(elf, *BOARD, "--function", "no_such_function", "--", "-batch")
        c.check(p.returncode == 2 and "no_such_function" in p.stderr,
                f"unknown --function: exit {p.returncode} (want 2)")
        p = gdb(elf, *BOARD, "--gdb", "/nonexistent/gdb", "--", "-batch")
        c.check(p.returncode == 3 and "/nonexistent/gdb" in p.stderr,
                f"missing debugger: exit {p.returncode} (want 3)")
        board = os.path.join(work, "gdb-key.yaml")
        # The build's board's own file, with a gdb: key of its own.
        with open(test_board.board_file(), encoding="utf-8") as f:
            text = f.read()
        with open(board, "w") as f:
            f.write(text.replace(f"name: {test_board.NAME}\n", "name: gdb-key\n", 1)
                    + "gdb: /nonexistent/board-gdb\n")
        p = gdb(elf, "--board", board, "--", "-batch")
        c.check(p.returncode == 3 and "/nonexistent/board-gdb" in p.stderr,
                f"the board's gdb: program is the one started: exit {p.returncode}")
        c.check(processes_with(elf) == [], "no server left behind after a failed start")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return c.finish()


if __name__ == "__main__":
    sys.exit(main())
