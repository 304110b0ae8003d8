#!/usr/bin/env python3
"""Suites and racks named like boards (issue 30), from a folder of the
user's own, on QEMU:

- `benchrack run NAME` finds ./configs/suites/NAME.yaml first (the user's
  own shadows a shipped one of that name), then the shipped configs (from a
  build: the source tree's), so `benchrack run default` works from any
  folder;
- `benchrack rack NAME` finds ./configs/racks/NAME.yaml the same way;
- an unknown name is exit 2 naming every place it looked;
- a file of that name in the folder is still taken as the ELF it is.

usage: test_config_names.py BENCHRACK SUITE_ELF
"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
import test_board  # noqa: E402

BENCHRACK, SUITE = sys.argv[1:3]
# The build's board: the shipped default suite names netduinoplus2, and
# --board takes it to this build's (its image is the build's suite-O2.elf).
BOARD = test_board.NAME
failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def run(args, cwd):
    p = subprocess.run([BENCHRACK] + args, capture_output=True, text=True, timeout=180, cwd=cwd)
    return p.returncode, p.stdout, p.stderr


with tempfile.TemporaryDirectory() as tmp:
    res = os.path.join(tmp, "results")
    here = os.path.join(tmp, "work")
    os.makedirs(os.path.join(here, "configs", "suites"))
    os.makedirs(os.path.join(here, "configs", "racks"))

    # the shipped default suite, by name, from a folder without configs/
    elsewhere = os.path.join(tmp, "elsewhere")
    os.makedirs(elsewhere)
    out = os.path.join(tmp, "default.json")
    rc, _, err = run(["run", "default", "--board", BOARD, "-n", "3", "--results-dir", res,
                      "--json", out], elsewhere)
    check(rc == 0, f"run default from another folder: exit {rc} ({err[-300:]!r})")
    if rc == 0:
        rec = json.load(open(out))
        check(rec["suite"] == "default" and
              rec["suite_path"].endswith(os.path.join("configs", "suites", "default.yaml")),
              f"it is the shipped default suite ({rec['suite_path']})")

    # the user's own shadows it
    with open(os.path.join(here, "configs", "suites", "default.yaml"), "w") as f:
        f.write(f"name: shadow\nfirmware: {SUITE}\nboards: [{BOARD}]\n"
                "default_iterations: 2\nbenches: [empty]\n")
    out = os.path.join(tmp, "shadow.json")
    rc, _, err = run(["run", "default", "--results-dir", res, "--json", out], here)
    check(rc == 0 and json.load(open(out))["suite"] == "shadow",
          f"./configs/suites/default.yaml comes first: exit {rc} ({err[-200:]!r})")

    # a rack by name
    with open(os.path.join(here, "configs", "racks", "desk.yaml"), "w") as f:
        f.write("name: desk\nsuites: [../suites/default.yaml]\n"
                f"boards:\n  - {{name: a, board: {BOARD}}}\n")
    rc, _, err = run(["rack", "desk", "--results-dir", res, "--lock-dir",
                      os.path.join(tmp, "locks")], here)
    check(rc == 0 and os.path.isfile(os.path.join(res, "racks", "desk.json")),
          f"rack desk: exit {rc} ({err[-200:]!r})")

    # unknown names
    rc, _, err = run(["run", "nosuch"], here)
    check(rc == 2 and "suite 'nosuch' not found" in err and
          "configs/suites/nosuch.yaml" in err and err.count("nosuch.yaml") == 2,
          f"run nosuch: exit 2, both places named ({err.strip()!r})")
    rc, _, err = run(["rack", "nosuch"], here)
    check(rc == 2 and "rack 'nosuch' not found" in err, f"rack nosuch: exit 2 ({err.strip()!r})")

    # a file of that name is what it is: an ELF
    os.symlink(SUITE, os.path.join(here, "default"))
    out = os.path.join(tmp, "elf.json")
    rc, _, err = run(["run", "default", "--board", BOARD, "-n", "2", "--results-dir", res,
                      "--json", out], here)
    check(rc == 0 and json.load(open(out))["suite"] is None,
          f"a file named default is run as the ELF it is: exit {rc} ({err[-200:]!r})")

print(f"{len(failures)} failed")
sys.exit(1 if failures else 0)
