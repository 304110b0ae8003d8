"""Runs a test where what it asserts exists, or skips it saying why.

usage: run_if.py yes|no REASON -- COMMAND [ARG...]

Meson decides from the build's cross file ([properties] of
configs/cross/*.ini: its board, its stub counter) whether the test can hold
there: "yes" runs COMMAND in this process's place (a .py through this
Python), its exit status the test's; "no" runs nothing, prints REASON and
exits 77, which Meson counts as a skip. So a test written for another
board's figures never passes where it did not run (issue 29: every shipped
cross file's build runs `meson test`). Standard library only."""
import os
import sys


def main(argv):
    if len(argv) < 5 or argv[1] not in ("yes", "no") or argv[3] != "--":
        print("usage: run_if.py yes|no REASON -- COMMAND [ARG...]", file=sys.stderr)
        return 2
    if argv[1] == "no":
        print(f"SKIP: {argv[2]}")
        return 77
    command = argv[4:]
    if command[0].endswith(".py"):
        command = [sys.executable] + command
    os.execv(command[0], command)
    return 3  # not reached: execv replaces this process or raises


if __name__ == "__main__":
    sys.exit(main(sys.argv))
