#!/usr/bin/env python3
"""benchrack inside labgrid (issue 28): labgrid's own pytest plugin (Debian's
python3-labgrid) runs configs/labgrid/test_benchrack.py against
configs/labgrid/qemu-env.yaml -- QEMUDriver starting QEMU netduinoplus2 with
the suite firmware, BenchrackStrategy taking it off -> gdb (powered, halted,
gdbserver published), benchrack checking the default suite there. Then:

- pytest passes (exit 0), its output carries benchrack's table with every
  bench's README figure, and its JUnit XML (--junitxml) has a passing
  testcase whose properties hold each bench's figure and unit;
- the same test with the strategy publishing a gdbserver address nobody
  listens on fails (pytest exit 1), the JUnit failure naming benchrack's
  exit 3 ("could not measure"), no figure recorded;
- configs/labgrid/test_benchrack_rack.py on qemu-rack-env.yaml (two
  targets, two QEMUs): every target brought to "gdb", one `benchrack rack`
  over both gdbservers passes, each board's every bench in the JUnit
  properties with its README figure.

usage: test_labgrid.py SRCDIR BENCHRACK QEMU SUITE_ELF
"""
import os
import re
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from farmlib import check, default_benches, finish  # noqa: E402
from ports import free_port  # noqa: E402

SRC, BENCHRACK, QEMU, SUITE_ELF = sys.argv[1:5]
LG = os.path.join(SRC, "configs", "labgrid")





def pytest(work, env_file, name, test="test_benchrack.py"):
    xml = os.path.join(work, name + ".xml")
    # nothing written into the source tree (configs/labgrid is installed)
    env = dict(os.environ, LG_GDB_PORT=str(free_port()), LG_GDB_PORT_B=str(free_port()),
               LG_FIRMWARE=SUITE_ELF, PYTHONDONTWRITEBYTECODE="1")
    t0 = time.monotonic()
    p = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-rA",
                        "--lg-env", env_file, os.path.join(LG, test),
                        "--benchrack", BENCHRACK, "--benchrack-firmware", SUITE_ELF,
                        "--benchrack-results", os.path.join(work, name + "-results"),
                        f"--junitxml={xml}"],
                       cwd=work, env=env, capture_output=True, text=True, timeout=150)
    secs = time.monotonic() - t0
    return p, xml, secs


def testcase(xml):
    try:
        return next(ET.parse(xml).getroot().iter("testcase"))
    except (ET.ParseError, OSError, StopIteration) as e:
        print(f"no testcase in {xml}: {e}")
        return None


def main():
    work = tempfile.mkdtemp(prefix="farm-labgrid-")
    benches, expected = default_benches(SRC)

    p, xml, secs = pytest(work, os.path.join(LG, "qemu-env.yaml"), "pass")
    print(f"labgrid pytest, QEMUDriver, default suite: {secs:.1f} s")
    check(p.returncode == 0, f"pytest passes (exit {p.returncode})\n{p.stdout[-3000:]}{p.stderr}")
    for b in benches:
        row = re.search(rf"^{b}\s+100\s+{expected[b]}\s", p.stdout, re.M)
        check(row is not None, f"pytest's output carries {b}: {expected[b]} instructions")
    tc = testcase(xml)
    props = {} if tc is None else {q.get("name"): q.get("value") for q in tc.iter("property")}
    want = {f"default.qemu-netduinoplus2.{b}": f"{expected[b]} instructions" for b in benches}
    check(tc is not None and tc.find("failure") is None and tc.find("error") is None,
          "JUnit: the test case passes")
    check(props == want, f"JUnit: each bench's figure and unit as a property ({props})")

    # the strategy publishes a gdbserver nobody listens on
    dead_env = os.path.join(work, "dead-env.yaml")
    with open(os.path.join(LG, "qemu-env.yaml")) as f:
        text = f.read()
    text = text.replace('gdbserver: !template "127.0.0.1:$LG_GDB_PORT"',
                        f'gdbserver: "127.0.0.1:{free_port()}"')
    text = text.replace("- benchrack_strategy.py", f"- {os.path.join(LG, 'benchrack_strategy.py')}")
    with open(dead_env, "w") as f:
        f.write(text)
    p, xml, secs = pytest(work, dead_env, "dead")
    print(f"labgrid pytest, dead gdbserver: {secs:.1f} s")
    check(p.returncode == 1, f"dead gdbserver: pytest fails (exit {p.returncode})")
    tc = testcase(xml)
    failure = None if tc is None else tc.find("failure")
    message = "" if failure is None else (failure.get("message") or "")
    check(failure is not None and "benchrack exit 3" in message and "could not measure" in message,
          f"dead gdbserver: JUnit failure names benchrack's exit 3 ({message!r})")
    check(tc is not None and not list(tc.iter("property")), "dead gdbserver: no figure recorded")

    # two boards of one environment, one benchrack rack over both
    p, xml, secs = pytest(work, os.path.join(LG, "qemu-rack-env.yaml"), "rack",
                          test="test_benchrack_rack.py")
    print(f"labgrid pytest, two targets, benchrack rack: {secs:.1f} s")
    check(p.returncode == 0, f"rack: pytest passes (exit {p.returncode})\n{p.stdout[-3000:]}{p.stderr}")
    tc = testcase(xml)
    props = {} if tc is None else {q.get("name"): q.get("value") for q in tc.iter("property")}
    want = {f"default.{t}.{b}": f"{expected[b]} instructions"
            for t in ("np2-a", "np2-b") for b in benches}
    check(props == want, f"rack: every bench of both targets, its figure and unit ({props})")
    for t in ("np2-a", "np2-b"):
        check(re.search(rf"^{t}\s+default\s+pass\b", p.stdout, re.M) is not None,
              f"rack: pytest's output carries {t}'s outcome: pass")
    return finish(work)


if __name__ == "__main__":
    sys.exit(main())
