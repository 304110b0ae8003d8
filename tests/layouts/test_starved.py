#!/usr/bin/env python3
"""A timeout caused by a starved host is an infrastructure error, not the
firmware's (issue 31, NU1): an `elf:` entry whose `to:` is never reached,
on a board whose QEMU runs at nice 19 pinned to CPU 0 (a wrapper script as
the board's server program), while a busy loop at nice 0 takes CPU 0 from
one second in: the kernel's scheduler figures show QEMU waiting for a CPU
most of the wait, and `run` says the host was overloaded (naming how long
QEMU waited), exit 3. (Without the busy loop the same entry says "did not
finish" with where the core was, unless the host is overloaded anyway: the
threshold itself is a unit test, tests/unit/target.)

usage: test_starved.py BENCHRACK QEMU ELF
"""
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(__file__)
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
from measure_cli import Checks  # noqa: E402

BENCHRACK, QEMU = sys.argv[1:3]
ELF = os.path.abspath(sys.argv[3])
WORK = tempfile.mkdtemp(prefix="benchrack-starved-")
TIMEOUT_S = 4
c = Checks()

wrapper = os.path.join(WORK, "qemu-niced")
with open(wrapper, "w") as f:
    f.write(f'#!/bin/sh\nexec {shutil.which("nice")} -n 19 {shutil.which("taskset")} -c 0 '
            f'{QEMU} "$@"\n')
os.chmod(wrapper, 0o755)
board = os.path.join(WORK, "niced.yaml")
with open(board, "w") as f:
    f.write("name: niced\ncore: cortex-m4\n"
            f"server: {{kind: qemu, program: {wrapper}, machine: netduinoplus2}}\n"
            "counter: {kind: tim2}\nmemory:\n"
            "  - {name: flash, kind: flash, origin: 0x08000000, length: 1M}\n"
            "  - {name: sram, kind: ram, origin: 0x20000000, length: 128K}\n")


def suite(name, board_ref):
    path = os.path.join(WORK, name + ".yaml")
    with open(path, "w") as f:
        f.write(f"name: {name}\nboards: [{board_ref}]\ndefault_iterations: 3\nwarmup_runs: 0\n"
                f"timeout_seconds: {TIMEOUT_S}\nbenches:\n"
                f"  - {{name: stuck, elf: {ELF}, from: layout_fixed, to: layout_never}}\n")
    return path


def run(path):
    p = subprocess.run([BENCHRACK, "run", path, "--results-dir", os.path.join(WORK, "r")],
                       capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout + p.stderr


# The busy loop starts a second in (QEMU is up and at the region by then)
# and stops by itself.
hog = subprocess.Popen(["taskset", "-c", "0", sys.executable, "-c",
                        "import time\ntime.sleep(1.0)\nend = time.monotonic() + "
                        f"{TIMEOUT_S + 3}\nwhile time.monotonic() < end: pass\n"])
try:
    rc, text = run(suite("starved", board))
finally:
    hog.kill()
    hog.wait()
c.show(text)
c.check(rc == 3, f"starved: exit {rc} == 3")
c.check("but the host was overloaded: " in text and "waited for a CPU" in text,
        "starved: says the host was overloaded, with QEMU's wait for a CPU")

sys.exit(c.finish())
