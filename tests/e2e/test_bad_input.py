#!/usr/bin/env python3
"""The CLI's documented errors, end to end: each bad input gives a one-line
message that says what to do, and the exit code the README documents
(2 usage/input, 3 infrastructure).

usage: test_bad_input.py BENCHRACK SUITE_ELF
"""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
import test_board  # noqa: E402
from elfpatch import Elf32  # noqa: E402

BENCHRACK, SUITE = sys.argv[1], sys.argv[2]
# The build's board: its images are linked for it (tests/lib/test_board.py).
BOARD = test_board.NAME
ON_BOARD = ["--board", BOARD]
CB_MAGIC = 0x42524342
CB_VERSION = 2
failures = 0


def run(args, env=None):
    p = subprocess.run([BENCHRACK] + args, capture_output=True, text=True, timeout=60, env=env)
    return p.returncode, p.stdout, p.stderr


def expect(name, args, code, *phrases, env=None):
    global failures
    rc, out, err = run(args, env)
    lines = [l for l in err.splitlines() if l.strip()]
    problems = []
    if rc != code:
        problems.append(f"exit code {rc}, expected {code}")
    if len(lines) != 1:
        problems.append(f"{len(lines)} lines on stderr, expected one")
    for ph in phrases:
        if ph not in err:
            problems.append(f"stderr lacks {ph!r}")
    if out.strip():
        problems.append("printed figures on stdout")
    status = "ok" if not problems else "FAIL: " + "; ".join(problems)
    print(f"{name}: {status}\n    {err.strip()}")
    if problems:
        failures += 1


with tempfile.TemporaryDirectory() as tmp:
    expect("missing ELF", ["run", os.path.join(tmp, "nope.elf")], 2, "nope.elf")
    expect("not an ELF", ["run", __file__], 2, "test_bad_input.py", "not")
    expect("not ARM", ["run", sys.executable], 2, "ARM")

    elf = Elf32(SUITE)
    cb, _ = elf.symbol("br_control_block")
    assert elf.read_u32(cb) == CB_MAGIC, "the suite's control block starts with the magic"

    bad_magic = Elf32(SUITE)
    bad_magic.write_u32(cb, 0xDEADBEEF)
    path = os.path.join(tmp, "bad-magic.elf")
    bad_magic.save(path)
    expect("wrong magic", ["run", *ON_BOARD, path], 2, "magic", "0xdeadbeef", "stub")

    bad_version = Elf32(SUITE)
    bad_version.write_u32(cb + 4, CB_VERSION + 1)
    path = os.path.join(tmp, "bad-version.elf")
    bad_version.save(path)
    expect("wrong version", ["run", *ON_BOARD, path], 2, f"version {CB_VERSION + 1}", "rebuild")

    # An ARM ELF without the stub: the suite with its control block symbol renamed.
    no_stub = Elf32(SUITE)
    no_stub.rename_symbol("br_control_block", "xx_control_block")
    path = os.path.join(tmp, "no-stub.elf")
    no_stub.save(path)
    expect("no control block", ["run", *ON_BOARD, path], 2, "no control block", "benchrack measure")

    env = dict(os.environ, PATH=tmp)  # a machine without QEMU
    expect("QEMU not installed", ["run", *ON_BOARD, SUITE], 3, "qemu-system-arm not found",
           "apt-get install qemu-system-arm", env=env)
    expect("QEMU path wrong", ["run", *ON_BOARD, "--qemu", os.path.join(tmp, "qemu"), SUITE], 3,
           "not found")

    expect("unknown command", ["frobnicate"], 2, "unknown command")
    expect("bad iterations", ["run", "-n", "abc", SUITE], 2, "--iterations")
    expect("too many iterations", ["run", "-n", "5000", SUITE], 2, "--iterations")

    # Issue 12: a number out of range says so, with the range the command
    # accepts (0 was refused while the message said "from 0", or silently).
    plain = ["--function", "main", *ON_BOARD]
    for name, args, phrase in [
        ("measure --timeout 0", ["measure", SUITE, *plain, "--timeout", "0"],
         "--timeout takes a whole number from 1 to"),
        ("measure -n 0", ["measure", SUITE, *plain, "-n", "0"],
         "--iterations takes a whole number from 1 to"),
        ("measure -n -1", ["measure", SUITE, *plain, "-n", "-1"],
         "--iterations takes a whole number from 1 to"),
        ("run --timeout 0", ["run", "--timeout", "0", SUITE],
         "--timeout takes a whole number from 1 to"),
        ("run -n 0", ["run", "-n", "0", SUITE], "--iterations takes a whole number from 1 to 1024"),
        ("check --timeout 0", ["check", "--timeout", "0", SUITE],
         "benchrack check: --timeout takes a whole number from 1 to"),
        ("rack --timeout 0", ["rack", "r.yaml", "--timeout", "0"],
         "benchrack rack: --timeout takes a whole number from 1 to"),
        ("rack --parallel 0", ["rack", "r.yaml", "--parallel", "0"],
         "--parallel takes a whole number from 1 to"),
    ]:
        expect(name, args, 2, phrase, "not '")

# Issue 12: what a suite names but is not there is the suite file's error, at
# the key that names it (file:line:col), before any board starts.
with tempfile.TemporaryDirectory() as tmp:
    suite_elf = os.path.abspath(SUITE)
    missing = os.path.join(tmp, "gone.elf")
    for name, text, where, phrase in [
        ("bench not in the firmware",
         f"name: s\nfirmware: {suite_elf}\nboards: [{BOARD}]\n"
         "benches:\n  - empty\n  - nosuchbench\n",
         "s.yaml:6:5: ", "bench 'nosuchbench' is not in the firmware"),
        ("firmware: path wrong",
         f"name: s\nfirmware: {missing}\nboards: [{BOARD}]\nbenches:\n  - empty\n",
         "s.yaml:2:11: ", "firmware: " + missing + ": cannot open"),
        ("elf: path wrong",
         f"name: s\nboards: [{BOARD}]\nbenches:\n  - name: x\n"
         f"    elf: {missing}\n    function: main\n",
         "s.yaml:5:10: ", "elf: " + missing + ": cannot open"),
    ]:
        path = os.path.join(tmp, "s.yaml")
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        results = os.path.join(tmp, "results")
        expect(name, ["run", path, "--results-dir", results], 2, path[:-len("s.yaml")] + where,
               phrase)
        runs = os.path.join(results, "runs")
        if os.path.isdir(runs) and os.listdir(runs):
            print(f"{name}: FAIL: a run was started ({os.listdir(runs)})")
            failures += 1

print(f"{failures} failed")
sys.exit(1 if failures else 0)
