#!/usr/bin/env python3
"""The load path against a real OpenOCD gdb server with no hardware (the dummy
adapter and a fake ARM7TDMI, dummy.cfg), reached as a remote board
(`server: {kind: remote, ..., flavour: openocd}`), as far as that server
allows:

- its features: no memory map is offered (the dummy target has no flash
  bank), so the image goes out as X writes, not vFlash, and is checked by
  qCRC, which this OpenOCD offers;
- `load: always`: written, then qCRC disagrees (the fake target's memory
  reads garbage): exit 3 naming the segment's address and both CRCs;
- `load: if-different`: qCRC first says it differs, then the same as always;
- `load: never`: straight to reset and halt, `monitor reset halt`, which
  this OpenOCD refuses in its own words ("how to reset?"): exit 3 quoting it.

- `selftest`: its calibration image written to the board's RAM and read
  back: the fake target's memory differs, exit 3 saying so.

Not exercised here (the dummy cannot): vFlashErase/Write/Done (needs a flash
bank in the server's memory map), a successful verify, SP and PC against the
vector table after a real reset, the DWT counter, selftest's windows. They run on a real board
only; README "Not verified yet" says so.

usage: test_openocd_load.py BENCHRACK OPENOCD DUMMY_CFG PLAIN_ELF
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from ports import free_port, wait_listening  # noqa: E402

BENCHRACK, OPENOCD, DUMMY, PLAIN = sys.argv[1:5]
WORK = tempfile.mkdtemp(prefix="benchrack-ocd-load-")
BOARD = """name: ocd-dummy
core: cortex-m4
server: {{kind: remote, host: 127.0.0.1, port: {port}, flavour: openocd}}
counter: {{kind: dwt}}
clock_hz: 16000000
load: {load}
memory:
  - {{name: flash, kind: flash, origin: 0x08000000, length: 512K}}
  - {{name: sram, kind: ram, origin: 0x20000000, length: 128K}}
"""
failures = 0


def check(ok, what, detail=""):
    global failures
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures += 1
        if detail:
            print("     " + detail.replace("\n", "\n     "))


def with_openocd(fn):
    port = free_port()
    log = open(os.path.join(WORK, "openocd.log"), "w")
    p = subprocess.Popen([OPENOCD, "-f", DUMMY, "-c", f"gdb_port {port}", "-c",
                          "telnet_port disabled", "-c", "tcl_port disabled", "-c",
                          "bindto 127.0.0.1"], stdout=log, stderr=subprocess.STDOUT)
    try:
        if not wait_listening(port, 10, p):
            check(False, "OpenOCD with the dummy adapter listens")
            return
        fn(port)
    finally:
        p.terminate()
        try:
            p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
        log.close()


def benchrack(*args):
    p = subprocess.run([BENCHRACK, *args], capture_output=True, text=True, timeout=60)
    return p.returncode, p.stdout, p.stderr


def board(port, load):
    path = os.path.join(WORK, "ocd-dummy.yaml")
    with open(path, "w") as f:
        f.write(BOARD.format(port=port, load=load))
    return path


def features(port):
    rc, out, err = benchrack("probe", "--remote", f"127.0.0.1:{port}", "--flavour", "openocd")
    line = next((ln for ln in out.splitlines() if ln.startswith("features:")), "")
    check("memory map no" in line and "no-ack mode on" in line,
          f"its dialect: {line.strip()}", out + err)


def load(policy, port):
    rc, out, err = benchrack("measure", PLAIN, "--function", "plain_fixed", "--board",
                             board(port, policy))
    print(f"--- load: {policy}: exit {rc}\n{err.strip()}")
    m = re.search(r"the (\d+) bytes at (0x[0-9a-f]{8}) differ from the ELF \(qCRC "
                  r"(0x[0-9a-f]{8}), expected (0x[0-9a-f]{8})\)", err)
    check(rc == 3 and m is not None and m.group(2) == "0x08000000",
          f"load: {policy}: written, checked by qCRC, the difference named at "
          f"{m and m.group(2)}: exit {rc}", err)
    check("checked by qCRC" in err and "vFlash" not in err,
          f"load: {policy}: qCRC verification, no vFlash (no flash in the server's map)", err)
    check(out.strip() == "", f"load: {policy}: no figure printed", out)


def reset(port):
    rc, out, err = benchrack("measure", PLAIN, "--function", "plain_fixed", "--board",
                             board(port, "never"))
    print(f"--- load: never: exit {rc}\n{err.strip()}")
    check(rc == 3 and "monitor reset halt" in err and "how to reset?" in err,
          f"load: never: reset and halt sent as `monitor reset halt`, OpenOCD's refusal "
          f"quoted: exit {rc}", err)


def selftest(port):
    rc, out, err = benchrack("selftest", "--board", board(port, "never"))
    print(f"--- selftest: exit {rc}\n{err.strip()}")
    check(rc == 3 and "calibration image written at 0x20000000 reads back different" in err,
          f"selftest: the image written to the board's RAM (X writes) and read back, the "
          f"fake target's garbage refused: exit {rc}", err)
    check(out.strip() == "", "selftest: no verdict printed", out)


try:
    with_openocd(features)
    with_openocd(selftest)
    with_openocd(lambda port: load("always", port))
    with_openocd(lambda port: load("if-different", port))
    with_openocd(reset)
finally:
    shutil.rmtree(WORK, ignore_errors=True)
print(f"{failures} failed")
sys.exit(1 if failures else 0)
