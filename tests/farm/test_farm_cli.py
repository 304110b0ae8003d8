#!/usr/bin/env python3
"""`benchrack check SUITE --remote HOST:PORT --flavour qemu --format F`
(issue 28): one board behind a gdbserver benchrack did not start, no rack
file, the farm's output on stdout.

A QEMU netduinoplus2 is started halted (-S) holding the suite firmware, its
gdbstub on a port of 127.0.0.1, as a farm's board would be; then:

- --format lava: exactly one `lava-test-case default.qemu-netduinoplus2.B
  --result pass --measurement M --units instructions` line per bench of
  configs/suites/default.yaml, M the README table's figure; exit 0;
- --format junit: a testcase per bench (and the firmware's), no failure; --format json: the
  report document with the same medians;
- a gdbserver that is gone (the port closed): exit 3, a failing LAVA case
  for the board and no bench passing;
- --flavour without --remote, an unknown flavour, a malformed HOST:PORT,
  --remote with a suite of two boards: exit 2 before anything runs.

usage: test_farm_cli.py SRCDIR BENCHRACK QEMU SUITE_ELF
"""
import json
import os
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from farmlib import check, default_benches, finish  # noqa: E402
from ports import HOST, connect, free_port  # noqa: E402
from qemu_gdbstub import start_qemu  # noqa: E402

SRC, BENCHRACK, QEMU, SUITE_ELF = sys.argv[1:5]
SUITE = os.path.join(SRC, "configs", "suites", "default.yaml")





def benchrack(work, *args):
    t0 = time.monotonic()
    p = subprocess.run([BENCHRACK, "check", SUITE, "--results-dir", os.path.join(work, "results"),
                        "--firmware", SUITE_ELF, *args], capture_output=True, text=True,
                       timeout=90)
    return p, time.monotonic() - t0


def main():
    work = tempfile.mkdtemp(prefix="farm-cli-")
    benches, expected = default_benches(SRC)
    q, port = start_qemu(QEMU, SUITE_ELF)
    try:
        connect(port, process=q).close()
        remote = ["--remote", f"{HOST}:{port}", "--flavour", "qemu"]
        p, secs = benchrack(work, *remote, "--format", "lava")
        print(f"check --remote --format lava: {secs:.1f} s")
        lines = p.stdout.splitlines()
        check(p.returncode == 0, f"exit 0 (got {p.returncode}: {p.stderr.strip()})")
        want = [f"lava-test-case default.qemu-netduinoplus2.{b} --result pass --measurement "
                f"{expected[b]} --units instructions" for b in benches]
        check(lines == want, "stdout is one lava-test-case line per bench, in order, with "
              f"the README's figures and units\n  got:  {lines}\n  want: {want}")

        p, _ = benchrack(work, *remote, "--format", "junit")
        check(p.returncode == 0, f"--format junit: exit 0 ({p.stderr.strip()})")
        try:
            cases = ET.fromstring(p.stdout).iter("testcase")
            # the firmware's size is a testcase of its own
            names = [c.get("name") for c in cases if c.find("failure") is None and
                     c.get("name") != "(firmware)"]
        except ET.ParseError as e:
            names = [str(e)]
        check(names == benches, f"--format junit: a passing testcase per bench ({names})")

        p, _ = benchrack(work, *remote, "--format", "json")
        try:
            doc = json.loads(p.stdout)
            run = doc["runs"][0]
            medians = {b["name"]: b["median"] for b in run["benches"]}
        except (ValueError, KeyError, IndexError) as e:
            medians = {"error": str(e)}
        check(p.returncode == 0 and medians == {b: expected[b] for b in benches},
              f"--format json: the report with the same medians ({medians})")
    finally:
        q.kill()
        q.wait()

    dead = free_port()
    p, secs = benchrack(work, "--remote", f"{HOST}:{dead}", "--flavour", "qemu",
                        "--format", "lava")
    print(f"check against a dead port: {secs:.1f} s")
    check(p.returncode == 3, f"dead gdbserver: exit 3 (got {p.returncode}: {p.stderr.strip()})")
    check("--result pass" not in p.stdout and
          "lava-test-case default.qemu-netduinoplus2 --result fail" in p.stdout.splitlines(),
          f"dead gdbserver: the board's LAVA case fails, no bench passes ({p.stdout!r})")

    two = os.path.join(work, "two.yaml")
    with open(two, "w") as f:
        f.write("name: two\nboards: [qemu-netduinoplus2, qemu-netduino2]\nbenches: [empty]\n")
    for args, what in [(["--flavour", "qemu"], "--flavour without --remote"),
                       (["--remote", f"{HOST}:1", "--flavour", "nope"], "an unknown flavour"),
                       (["--remote", "nowhere"], "a malformed HOST:PORT")]:
        p, _ = benchrack(work, *args)
        check(p.returncode == 2 and p.stderr.strip() != "", f"{what}: exit 2 ({p.stderr.strip()})")
    p = subprocess.run([BENCHRACK, "check", two, "--remote", f"{HOST}:1"], capture_output=True,
                       text=True, timeout=30)
    check(p.returncode == 2 and "--board" in p.stderr,
          f"--remote with a suite of two boards: exit 2 asking for --board ({p.stderr.strip()})")
    return finish(work)


if __name__ == "__main__":
    sys.exit(main())
