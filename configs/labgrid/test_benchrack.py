"""`benchrack check` on a labgrid target: the strategy (benchrack_strategy.py)
brings the board to "gdb" -- powered, halted, its gdbserver listening --
and publishes where; benchrack attaches there, measures the suite and says
by its exit code what came of it: 0 every bench measured within budgets
(pass), 1 a regression or budget exceeded (fail), 2 a configuration error,
3 nothing could be measured (the board, probe or gdbserver failed). Every
bench's median goes into the JUnit report as a property
(<suite>.<board>.<bench> = "<median> <unit>"), and benchrack's table is
printed, so the figures are in pytest's output and its JUnit XML."""
import json
import os
import subprocess

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
WHAT = {1: "a regression or budget exceeded", 2: "a usage or configuration error",
        3: "could not measure (board, probe or gdbserver)"}


@pytest.fixture
def gdbserver(target, strategy):
    strategy.transition("gdb")
    yield strategy.gdbserver
    strategy.transition("off")


def test_benchrack_check(gdbserver, strategy, pytestconfig, record_property, tmp_path):
    opt = pytestconfig.getoption
    suite = opt("--benchrack-suite") or os.path.join(HERE, "..", "suites", "default.yaml")
    report = tmp_path / "benchrack.json"
    cmd = [opt("--benchrack"), "check", suite, "--board", strategy.board,
           "--remote", gdbserver, "--flavour", strategy.flavour,
           "--results-dir", opt("--benchrack-results"),
           "--format", "json", "--output", str(report)]
    if opt("--benchrack-firmware"):
        cmd += ["--firmware", opt("--benchrack-firmware")]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    print(p.stdout, end="")
    print(p.stderr, end="")
    if report.exists():
        for run in json.loads(report.read_text())["runs"]:
            for bench in run["benches"]:
                if bench.get("median") is not None:
                    record_property(f'{run["suite"]}.{run["board"]}.{bench["name"]}',
                                    f'{bench["median"]:g} {run["counter"]["unit"].split()[0]}')
    assert p.returncode == 0, f"benchrack exit {p.returncode}: {WHAT.get(p.returncode, '?')}"
