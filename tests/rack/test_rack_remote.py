#!/usr/bin/env python3
"""A rack of 8 remote boards on loopback (issue 10): eight QEMUs started
halted with an idle image (fw_loop.elf), each reached as a gdbserver at
`remote: 127.0.0.1:PORT` on a qemu-netduinoplus2 board, the suite firmware
loaded over RSP by each worker. One QEMU is killed in the middle of its
suite (while its `stall` bench spins). Then:

- exit 3; seven boards pass with counts equal to the launched path's
  (`benchrack run` on a QEMU benchrack launches), exactly; the killed board
  alone is an infrastructure error, with its reason;
- `-n 20` on the rack: every bench of every board has 20 samples;
- `--format lava` lines run through the real `lava-test-case` helper of
  Debian's lava-dispatcher package (`apt-get download lava-dispatcher`,
  `dpkg-deb -x`; no LAVA server) and yield one `<LAVA_SIGNAL_TESTCASE ...>`
  line per bench and board, with its measurement and units.

usage: test_rack_remote.py BENCHRACK QEMU SUITE_ELF GATE_ELF IDLE_ELF LAVA_CACHE
"""
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from racklib import boards_by_name, check, figures, finish, rack, run_rack, suite  # noqa: E402
from qemu_gdbstub import start_qemu  # noqa: E402

BENCHRACK, QEMU, SUITE_ELF, GATE_ELF, IDLE_ELF, LAVA_CACHE = sys.argv[1:7]
WORK = tempfile.mkdtemp(prefix="rack-remote-")
BENCHES = ["empty", "nop1000", "crc32_64", "crc32_256", "memcpy_1k"]
EXACT = {"empty": 1, "nop1000": 1001, "crc32_64": 655, "crc32_256": 2575}
BOARDS = 8
VICTIM = "b8"
N = 20
HELPER = "usr/lib/python3/dist-packages/lava_dispatcher/lava_test_shell"


def lava_helper():
    """The directory holding Debian's lava-test-case, unpacked from the
    lava-dispatcher package into LAVA_CACHE (downloaded once); None when the
    package cannot be had (no network, no apt)."""
    unpacked = os.path.join(LAVA_CACHE, "root")
    if not os.path.exists(os.path.join(unpacked, HELPER, "lava-test-case")):
        os.makedirs(LAVA_CACHE, exist_ok=True)
        debs = glob.glob(os.path.join(LAVA_CACHE, "lava-dispatcher_*.deb"))
        if not debs:
            p = subprocess.run(["apt-get", "download", "lava-dispatcher"], cwd=LAVA_CACHE,
                               capture_output=True, text=True, timeout=120)
            print(f"apt-get download lava-dispatcher: exit {p.returncode} {p.stderr.strip()}")
            debs = glob.glob(os.path.join(LAVA_CACHE, "lava-dispatcher_*.deb"))
        if not debs:
            return None
        subprocess.run(["dpkg-deb", "-x", debs[0], unpacked], check=True, timeout=60)
    # LAVA writes the interpreter line in when it deploys the helpers
    # (the script's own first comment says so); do the same here.
    bindir = os.path.join(WORK, "lava-bin")
    os.makedirs(bindir, exist_ok=True)
    for name in ("lava-test-case", "lava-common-functions"):
        with open(os.path.join(unpacked, HELPER, name)) as f:
            text = f.read()
        with open(os.path.join(bindir, name), "w") as f:
            f.write("#!/bin/sh\n" + text)
        os.chmod(os.path.join(bindir, name), 0o755)
    return bindir


def run_alone(suite_path):
    out = os.path.join(WORK, "alone.json")
    p = subprocess.run([BENCHRACK, "run", suite_path, "-n", str(N), "--json", out,
                        "--results-dir", os.path.join(WORK, "alone")],
                       capture_output=True, text=True, timeout=120)
    check(p.returncode == 0, "the launched path (benchrack run): exit 0", p.stderr[-800:])
    return figures(out) if p.returncode == 0 else {}


def victim_mid_run(results):
    """True once the victim's run record holds nop1000: its `stall` spins now."""
    for path in glob.glob(os.path.join(results, "racks", VICTIM, "runs", "*.json")):
        try:
            with open(path) as f:
                rec = json.load(f)
        except (OSError, ValueError):
            continue
        if any(b["name"] == "nop1000" for b in rec.get("benches", [])):
            return True
    return False


def main():
    exact = suite(WORK, "exact", SUITE_ELF, BENCHES)
    doomed = suite(WORK, "doomed", GATE_ELF, ["empty", "nop1000", "stall"], timeout=60)
    reference = run_alone(exact)
    qemus = [start_qemu(QEMU, IDLE_ELF) for _ in range(BOARDS)]
    try:
        entries = []
        for i, (_, port) in enumerate(qemus):
            name = f"b{i + 1}"
            entries.append({"name": name, "board": "qemu-netduinoplus2",
                            "suites": [doomed if name == VICTIM else exact],
                            "remote": f"127.0.0.1:{port}"})
        r = rack(WORK, "remote8", entries, retries=0)
        lava = os.path.join(WORK, "lava.sh")
        p, doc = run_rack(BENCHRACK, r, WORK, "-n", str(N), "--format", "lava", "--output",
                          lava, background=True)
        deadline = time.monotonic() + 90
        while not victim_mid_run(os.path.join(WORK, "results")) and time.monotonic() < deadline:
            time.sleep(0.05)
        killed = victim_mid_run(os.path.join(WORK, "results"))
        qemus[BOARDS - 1][0].kill()
        check(killed, f"{VICTIM}'s QEMU killed in the middle of its suite (after nop1000)")
        out, err = p.communicate(timeout=180)
    finally:
        for q, _ in qemus:
            q.kill()
            q.wait()
    with open(doc) as f:
        document = json.load(f)
    check(p.returncode == 3, f"exit 3 (got {p.returncode})", out[-1500:] + err[-1500:])
    by = boards_by_name(document)
    check(len(by) == BOARDS, f"{BOARDS} boards in the document")
    for name, b in sorted(by.items()):
        if name == VICTIM:
            continue
        s = b["suites"][0]
        check(b["outcome"] == "pass" and s["outcome"] == "pass", f"{name}: passes",
              str({k: v for k, v in s.items() if k != "failed_attempts"}))
        f = figures(s["run"]) if s.get("run") else {}
        same = all(f.get(k, (None,))[:5] == reference.get(k, (1,))[:5] for k in BENCHES)
        check(same and all(f.get(k, (0, 0, 0))[1:3] == (N, EXACT[k]) for k in EXACT),
              f"{name}: {N} samples per bench, counts exact and equal to the launched path "
              f"({', '.join(f'{k} {f.get(k, (0, 0, None))[2]}' for k in BENCHES)})",
              str({k: v[:6] for k, v in f.items()}))
    v = by.get(VICTIM, {})
    vs = v.get("suites", [{}])[0]
    check(v.get("outcome") == "infra" and vs.get("outcome") == "infra",
          f"{VICTIM}: the killed board alone is an infrastructure error", str(vs))
    reason = (vs.get("reason") or "").lower()
    check("closed the connection" in reason or "connection" in reason,
          f"{VICTIM}: with its reason ({vs.get('reason')})")
    check("7 pass" in out and "1 infrastructure error" in out,
          "the summary: 7 pass, 1 infrastructure error", out[-600:])

    lines = open(lava).read().splitlines()
    cases = [ln for ln in lines if ln.startswith("lava-test-case ")]
    # one per bench and board, and one for the run that did not complete
    check(len(cases) == 7 * len(BENCHES) + 3 + 1 and len(set(cases)) == len(cases) and
          f"lava-test-case doomed.{VICTIM} --result fail" in cases,
          f"--format lava: one line per bench and board, and the killed run's own "
          f"({len(cases)})", "\n".join(cases))
    bindir = lava_helper()
    if bindir is None:
        check(False, "Debian's lava-test-case helper could be had (apt-get download "
              "lava-dispatcher; dpkg-deb -x)")
        return
    env = dict(os.environ, PATH=bindir + os.pathsep + os.environ["PATH"],
               LAVA_RESULT_DIR=os.path.join(WORK, "lava-results"))
    lp = subprocess.run(["sh", lava], capture_output=True, text=True, env=env, timeout=60)
    signals = re.findall(r"<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=(\S+) RESULT=(\w+)"
                         r"(?: UNITS=(\S+))?(?: MEASUREMENT=(\S+))?>", lp.stdout)
    print("\n".join(lp.stdout.splitlines()[:3]))
    check(lp.returncode == 0 and len(signals) == len(cases),
          f"the real lava-test-case turns every line into <LAVA_SIGNAL_TESTCASE ...> "
          f"({len(signals)} of {len(cases)})", lp.stdout[-600:] + lp.stderr[-600:])
    got = {tc: (res, units, meas) for tc, res, units, meas in signals}
    check(got.get("exact.b1.nop1000") == ("pass", "instructions", "1001"),
          f"exact.b1.nop1000: pass, 1001 instructions ({got.get('exact.b1.nop1000')})")
    check(all(got.get(f"exact.b{i}.crc32_256") == ("pass", "instructions", "2575")
              for i in range(1, BOARDS)),
          "every passing board's crc32_256: 2575 instructions")
    check(got.get(f"doomed.{VICTIM}.stall", ("",))[0] == "fail",
          f"the killed board's unfinished bench: RESULT=fail ({got.get(f'doomed.{VICTIM}.stall')})")


try:
    main()
finally:
    shutil.rmtree(WORK, ignore_errors=True)
finish()
