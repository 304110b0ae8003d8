"""What the farm tests share: the check log, and the figures they hold
benchrack to -- the README table's medians for the benches of
configs/suites/default.yaml (exact QEMU counts, each checked against
disassembly and QEMU's own counts by tests/firmware and tests/qemu)."""
import os
import shutil
import re

failures = []


def check(ok, what):
    """Prints ok/FAIL and what; a failure is kept for finish()."""
    print(("ok   " if ok else "FAIL ") + what, flush=True)
    if not ok:
        failures.append(what)


def finish(work):
    """The exit code: 1 (work kept and named) when a check failed; 0, with
    the work folder removed, when every check passed."""
    if failures:
        print(f"{len(failures)} failed; work kept in {work}")
        return 1
    shutil.rmtree(work, ignore_errors=True)
    return 0


def readme_figures(src):
    """bench -> median of the README's table."""
    out = {}
    with open(os.path.join(src, "README.md")) as f:
        for line in f:
            m = re.match(r"^(\w+)\s+100\s+(\d+)\s+\d+\s+\d+\s+\d+\s+\d+\s+\d+\s", line)
            if m:
                out[m.group(1)] = int(m.group(2))
    return out


def default_benches(src):
    """The benches configs/suites/default.yaml lists, in order, checked to
    each have a README figure; returns (benches, figures)."""
    with open(os.path.join(src, "configs", "suites", "default.yaml")) as f:
        benches = re.findall(r"^  - name: (\w+)", f.read(), re.M)
    figures = readme_figures(src)
    check(len(benches) == 7 and all(b in figures for b in benches),
          f"every bench of the default suite has a figure in the README ({benches})")
    return benches, figures
