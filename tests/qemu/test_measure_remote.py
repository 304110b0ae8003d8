#!/usr/bin/env python3
"""`benchrack measure --remote HOST:PORT`: a gdbserver that is already running
in front of a board that already holds the firmware (here a QEMU this test
starts itself, halted at reset, its gdbstub on a free port of 127.0.0.1).
The count is the same exact figure as with a QEMU benchrack launches, and
afterwards the board runs on: benchrack detached, it did not kill it.

usage: test_measure_remote.py BENCHRACK OBJDUMP QEMU PLAIN_ELF
"""
import os
import socket
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
import disasm  # noqa: E402
from measure_cli import Checks, measure  # noqa: E402

BENCHRACK, OBJDUMP, QEMU, PLAIN = sys.argv[1:5]
READY_S = 10
c = Checks()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_ready(port, process):
    deadline = time.monotonic() + READY_S
    while time.monotonic() < deadline and process.poll() is None:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return True
        except OSError:
            time.sleep(0.02)
    return False


port = free_port()
qemu = subprocess.Popen([QEMU, "-M", "netduinoplus2", "-icount", "shift=0", "-display", "none",
                         "-serial", "null", "-monitor", "none", "-S",
                         "-gdb", f"tcp:127.0.0.1:{port}", "-kernel", PLAIN],
                        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                        stderr=subprocess.PIPE)
try:
    # QEMU's gdbstub serves one client: a probe connection is closed at once
    # and the listener stays for the next.
    c.check(wait_ready(port, qemu), f"QEMU serves on 127.0.0.1:{port}")
    expected = disasm.straight_line_cost(OBJDUMP, PLAIN, "plain_fixed")
    rc, out, err, res = measure(BENCHRACK, PLAIN, "--function", "plain_fixed", "-n", "10",
                                "--remote", f"127.0.0.1:{port}", "--flavour", "qemu")
    c.show(out, err)
    c.check(rc == 0, f"--remote exits 0 (got {rc})")
    raw = res["raw"] if res else {}
    c.check(raw.get("min") == raw.get("max") == expected,
            f"--remote counts plain_fixed exactly: {raw.get('median')} == {expected}")
    c.check(res is not None and f"127.0.0.1:{port}" in res["server"],
            f"the result names the server: {res and res['server']}")
    c.check(qemu.poll() is None, "the board runs on after benchrack detached")
finally:
    qemu.kill()
    qemu.wait()
sys.exit(c.finish())
