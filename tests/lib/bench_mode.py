"""How a benchmark runs: in full (`meson test --benchmark`), or in the smoke
mode CI uses (`meson test --benchmark --test-args=--smoke`), so that no
benchmark can rot unnoticed.

In smoke mode a benchmark runs its whole path once, on the same work of real
size, with the fewest rounds; it still fails when it cannot run or when a
figure it checks is wrong (a count that is not exact, two modes that
disagree), but a missed speed goal is printed, not failed: timing on a
shared CI machine is noise, and a goal belongs to a full run.

Import it before reading sys.argv: it takes "--smoke" out of the arguments.
"""
import sys

SMOKE = "--smoke" in sys.argv[1:]
if SMOKE:
    sys.argv = [a for a in sys.argv if a != "--smoke"]


def rounds(full, smoke=1):
    """The number of rounds (repeats, samples) to use: full, or smoke in
    smoke mode."""
    return smoke if SMOKE else full


def finish(goals_missed, errors=(), blocked=()):
    """Print what went wrong and exit: 1 when there is an error (the
    benchmark could not run or measured a wrong figure) or, in a full run,
    a missed goal; 0 otherwise. goals_missed and errors are lists of
    one-line descriptions; blocked, goals missed for a cause outside the
    product that the benchmark names where it prints them (printed, never
    gated)."""
    for e in errors:
        print("ERROR " + e)
    for b in blocked:
        print("GOAL BLOCKED " + b + " (not gated)")
    for g in goals_missed:
        print("GOAL MISSED " + g + (" (smoke run: not gated)" if SMOKE else ""))
    if errors:
        print(f"{len(errors)} error(s)")
        sys.exit(1)
    if goals_missed:
        print(f"{len(goals_missed)} goal(s) missed")
        sys.exit(0 if SMOKE else 1)
    print("goals met" + (f" ({len(blocked)} blocked, not gated)" if blocked else "")
          + (" (smoke run)" if SMOKE else ""))
    sys.exit(0)
