#!/usr/bin/env python3
"""The server dies while benchrack measures (issue 12): no crash, exit 3 with
the server's words, and nothing left claiming to be complete or running.

Each way a gdbserver can end, in the middle of a breakpoint measurement
(`benchrack measure --function`) and of a `benchrack run` of a suite of
breakpoint entries:
  exited    it says W00 and closes (what QEMU does on SIGTERM)
  killed    it says X0f and closes
  eof       it closes without a word (FIN)
  rst       the connection is reset (RST)
  mute      it stops answering, the connection open (then an interrupt
            goes unanswered too: the server is blamed, not the firmware)
  (these five through faultproxy.py, in place of a stop reply half way
  through the clean run's stops), and
  sigterm   the QEMU benchrack launched gets SIGTERM 2 s after the start
  sigkill   ... gets SIGKILL
  (the issue's reproduction: `measure plain-O2.elf --function plain_long -n 40`;
  and `probe --run`, which must not then say "health: ok").
Every case: exit 3 (not a signal, not 139), a 'benchrack' message saying
what the server did (its words), no sanitizer report. measure --json: a
record with status "failed", that reason and the 40 samples asked for. run:
its record in RESULTS/runs says "failed" with that reason (never "running").

And `run` of a stub suite (GATE_ELF's bench that never returns) whose QEMU is
signalled while the bench runs: the same, record failed with the reason.

usage: test_server_death.py BENCHRACK QEMU PLAIN_ELF GATE_ELF
"""
import glob
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from faultproxy import Proxy  # noqa: E402
from measure_cli import Checks  # noqa: E402
from qemu_gdbstub import remote_board_yaml, start_qemu  # noqa: E402

BENCHRACK, QEMU, PLAIN, GATE = sys.argv[1:5]
PLAIN, GATE = os.path.abspath(PLAIN), os.path.abspath(GATE)
WORK = tempfile.mkdtemp(prefix="benchrack-server-death-")
ASKED = 40
KILL_AFTER_S = 2.0
# What the message must say, per way of ending: the server's own words.
WORDS = {
    "exited": r"exit(ed)? (with )?code 0",
    "killed": r"signal 15",
    "eof": r"closed the connection",
    "rst": r"reset by peer",
    "mute": r"the server stopped answering",
    "sigterm": r"exit(ed)? (with )?code 0|closed the connection|reset by peer",
    "sigkill": r"closed the connection|reset by peer",
}
CRASH = re.compile(r"runtime error|AddressSanitizer|LeakSanitizer|Segmentation|core dumped")
SUITE = """name: death
boards: [{board}]
default_iterations: {n}
benches:
  - name: calls
    elf: {elf}
    function: {function}
"""
c = Checks()


def suite_file(function, board):
    path = os.path.join(WORK, f"suite-{function}.yaml")
    with open(path, "w", encoding="utf-8") as f:
        f.write(SUITE.format(board=board, n=ASKED, elf=PLAIN, function=function))
    return path


def command(what, label, port):
    """(argv, folder) of one measure or run; port None: benchrack launches QEMU."""
    folder = os.path.join(WORK, f"{what}-{label}")
    os.makedirs(folder)
    json_path = os.path.join(folder, "out.json")
    function = "plain_long" if port is None else "plain_fixed"
    if what == "stub-run":
        path = os.path.join(folder, "stub.yaml")
        with open(path, "w", encoding="utf-8") as f:
            f.write(f"name: stub\nfirmware: {GATE}\nboards: [qemu-netduinoplus2]\n"
                    "timeout_seconds: 60\nbenches:\n  - empty\n  - stall\n")
        return [BENCHRACK, "run", path, "--results-dir", folder], folder
    if what == "probe":
        return [BENCHRACK, "probe", "--kernel", PLAIN, "--run", "30000"], folder
    if what == "measure":
        argv = [BENCHRACK, "measure", PLAIN, "--function", function, "-n", str(ASKED),
                "-w", "0", "--timeout", "5", "--json", json_path]
        if port is not None:
            argv += ["--remote", f"127.0.0.1:{port}", "--flavour", "qemu", "--load", "never"]
    else:
        name = "qemu-netduinoplus2" if port is None else "death"
        argv = [BENCHRACK, "run", suite_file(function, name), "--results-dir", folder,
                "--timeout", "5", "--json", json_path]
        if port is not None:
            board = os.path.join(folder, "death.yaml")
            with open(board, "w", encoding="utf-8") as f:
                f.write(remote_board_yaml("death", port, "never"))
            argv += ["--board", board]
    return argv, folder


def run(argv, timeout=150):
    return subprocess.run(argv, capture_output=True, text=True, timeout=timeout)


def clean_stops(what):
    """How many stop replies the clean measurement gets (through a counting proxy)."""
    qemu, qport = start_qemu(QEMU, PLAIN)
    proxy = Proxy(qport, "pass")
    try:
        argv, _ = command(what, "clean", proxy.port)
        p = run(argv)
    finally:
        proxy.close()
        qemu.kill()
        qemu.wait()
    c.check(p.returncode == 0, f"{what} clean: exit 0 ({p.returncode}) with {proxy.stops} stops")
    if p.returncode != 0:
        c.show(p.stdout, p.stderr)
    return proxy.stops


def through_proxy(what, mode, nth):
    qemu, qport = start_qemu(QEMU, PLAIN)
    proxy = Proxy(qport, mode, nth=nth)
    try:
        argv, folder = command(what, mode, proxy.port)
        p = run(argv)
    finally:
        proxy.close()
        qemu.kill()
        qemu.wait()
    c.check(proxy.injected == 1, f"{what} {mode}: the server ended at stop {nth}")
    return p, folder


def children(pid):
    """The pids of pid's child processes."""
    out = []
    for task in glob.glob(f"/proc/{pid}/task/*/children"):
        try:
            with open(task, encoding="ascii") as f:
                out += [int(x) for x in f.read().split()]
        except OSError:
            pass
    return out


def qemu_named(pid):
    try:
        with open(f"/proc/{pid}/comm", encoding="ascii") as f:
            return "qemu" in f.read()
    except OSError:
        return False


def kill_launched(what, mode):
    """The issue's reproduction: benchrack launches QEMU; it is signalled
    KILL_AFTER_S after it started, while benchrack still measures."""
    argv, folder = command(what, mode, None)
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    qemus = []
    deadline = time.monotonic() + 30  # a loaded machine may be slow to start it
    while not qemus and p.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
        qemus = [k for k in children(p.pid) if qemu_named(k)]
    time.sleep(KILL_AFTER_S)
    alive = p.poll() is None
    c.check(alive and len(qemus) == 1,
            f"{what} {mode}: benchrack still measuring with its QEMU ({qemus}) "
            f"{KILL_AFTER_S} s in")
    for k in qemus:
        os.kill(k, signal.SIGTERM if mode == "sigterm" else signal.SIGKILL)
    try:
        out, err = p.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
    return subprocess.CompletedProcess(argv, p.returncode, out, err), folder


def verdict(what, mode, p, folder):
    label = f"{what} {mode}"
    message = " ".join(line for line in p.stderr.splitlines() if "benchrack" in line)
    c.check(p.returncode == 3, f"{label}: exit 3 ({p.returncode})")
    c.check(re.search(WORDS[mode], message) is not None,
            f"{label}: the message says what the server did /{WORDS[mode]}/: {message!r}")
    c.check(not CRASH.search(p.stderr), f"{label}: no crash or sanitizer report")
    c.check("back in step" not in message,
            f"{label}: a dead server is not blamed on out-of-step replies")
    c.check(not re.search(r"was not called|did not return|fix the firmware", message),
            f"{label}: nor on the firmware")
    if p.returncode != 3:
        c.show(p.stdout, p.stderr)
    if what == "probe":
        c.check("NOT HEALTHY" in p.stdout and "health:     ok" not in p.stdout,
                f"{label}: not reported healthy")
        return
    doc_path = os.path.join(folder, "out.json")
    doc = json.load(open(doc_path, encoding="utf-8")) if os.path.exists(doc_path) else None
    if what == "measure":
        c.check(doc is not None and doc.get("status") == "failed"
                and re.search(WORDS[mode], doc.get("error") or "") is not None
                and doc.get("asked") == ASKED
                and len(doc.get("samples") or []) < ASKED,
                f"{label}: --json says failed, why, and {ASKED} asked "
                f"({doc and {k: doc.get(k) for k in ('status', 'error', 'asked')}})")
        return
    records = glob.glob(os.path.join(folder, "runs", "**", "*.json"), recursive=True)
    c.check(len(records) == 1, f"{label}: one run record ({records})")
    for r in records:
        rec = json.load(open(r, encoding="utf-8"))
        c.check(rec.get("status") == "failed"
                and re.search(WORDS[mode], rec.get("error") or "") is not None,
                f"{label}: the record is closed as failed with the reason "
                f"({rec.get('status')}: {rec.get('error')!r})")


for what in ("measure", "run"):
    nth = clean_stops(what) // 2
    for mode in ("exited", "killed", "eof", "rst", "mute"):
        p, folder = through_proxy(what, mode, nth)
        verdict(what, mode, p, folder)
    for mode in ("sigterm", "sigkill"):
        p, folder = kill_launched(what, mode)
        verdict(what, mode, p, folder)

# `probe --run` while its QEMU is killed: not healthy (it said "health: ok"
# when QEMU's W00 on SIGTERM passed for the firmware's own exit).
for what in ("stub-run", "probe"):
    for mode in ("sigterm", "sigkill"):
        p, folder = kill_launched(what, mode)
        verdict(what, mode, p, folder)

sys.exit(c.finish())
