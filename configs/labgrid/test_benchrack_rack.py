"""`benchrack rack` on the boards of a labgrid environment: every target's
strategy (benchrack_strategy.py) brings its board to "gdb" -- powered,
halted, its gdbserver listening -- and a rack file is written whose boards
are those gdbservers (`remote:`), one per target, named after it; benchrack
measures the suite on all of them at once (a worker per board, each board
locked while in use) and its exit code says what came of it, as in
test_benchrack.py. Every board's and bench's median goes into the JUnit
report as a property (<suite>.<target>.<bench> = "<median> <unit>")."""
import os
import re
import shlex
import subprocess

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
WHAT = {1: "a regression or budget exceeded", 2: "a usage or configuration error",
        3: "could not measure (board, probe or gdbserver)"}


@pytest.fixture
def strategies(env):
    """{target name: its BenchrackStrategy, in "gdb"} for every target."""
    found = {}
    for name in env.config.get_targets():
        strategy = env.get_target(name).get_driver("BenchrackStrategy")
        strategy.transition("gdb")
        found[name] = strategy
    yield found
    for strategy in found.values():
        strategy.transition("off")


def test_benchrack_rack(strategies, pytestconfig, record_property, tmp_path):
    opt = pytestconfig.getoption
    suite = opt("--benchrack-suite") or os.path.join(HERE, "..", "suites", "default.yaml")
    rack = tmp_path / "labgrid-rack.yaml"
    lines = ["name: labgrid", f"suites: [{os.path.abspath(suite)}]", "boards:"]
    for name, s in strategies.items():
        lines.append(f"  - {{name: {name}, board: {s.board}, remote: '{s.gdbserver}'}}")
    rack.write_text("\n".join(lines) + "\n")
    cases = tmp_path / "benchrack-lava.sh"
    cmd = [opt("--benchrack"), "rack", str(rack), "--results-dir", opt("--benchrack-results"),
           "--lock-dir", str(tmp_path / "locks"), "--format", "lava", "--output", str(cases)]
    # the suite's firmware (the image of benchrack's build tree, or the
    # suite's own), loaded over the debug port where a board holds another
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
    print(p.stdout, end="")
    print(p.stderr, end="")
    if cases.exists():
        for line in cases.read_text().splitlines():
            words = shlex.split(line)
            if len(words) < 2 or words[0] != "lava-test-case":
                continue
            args = dict(zip(words[2::2], words[3::2]))
            if "--measurement" in args and re.match(r"^\w+\.", words[1]):
                record_property(words[1], f'{args["--measurement"]} {args.get("--units", "")}')
    assert p.returncode == 0, f"benchrack exit {p.returncode}: {WHAT.get(p.returncode, '?')}"
