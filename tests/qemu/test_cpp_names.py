#!/usr/bin/env python3
"""C++ names as written, on a real C++ firmware (benches/cpp/, cpp-O2.elf) on
the build's QEMU board (tests/lib/test_board.py; exact instruction counts:
TIM2 on the netduinos, QEMU's icount elsewhere):
  - `measure --function 'dsp::Fir::step'` exits 0, exact (min == max), and
    equals the same measurement through the mangled name _ZN3dsp3Fir4stepEs;
    the output names the function as written, dsp::Fir::step(short); and
    `profile --function 'dsp::Fir::step' --exact` single-steps one call in
    exactly as many instructions (an independent count), naming it as written;
  - `--function dsp::mix` (an overload set) exits 2 and lists both
    candidates; `--function 'dsp::mix(int)'` measures;
  - `--from 'dsp::Fir::step' --to 'dsp::mix(short)'` resolves both ends;
  - `--sizes` lists dsp::Fir::step(short), no mangled name.

Usage: test_cpp_names.py BENCHRACK CPP_ELF
Exit status 0 when every check holds, 1 otherwise.
"""

import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from measure_cli import Checks, measure  # noqa: E402
import test_board  # noqa: E402

N = "20"
BOARD = ("--board", test_board.NAME)


def main(argv):
    benchrack, elf = argv[1], argv[2]
    c = Checks()

    rc, out, err, res = measure(benchrack, elf, *BOARD, "--function", "dsp::Fir::step", "-n", N)
    c.show(out, err)
    if c.check(rc == 0 and res is not None, f"--function dsp::Fir::step: exit {rc}"):
        summary = res["raw"]
        c.check(summary["min"] == summary["max"] and summary["median"] > 0,
                f"exact: min {summary['min']} == max {summary['max']}")
        c.check("dsp::Fir::step(short)" in out, "the output names dsp::Fir::step(short)")
        rc2, out2, err2, res2 = measure(benchrack, elf, *BOARD, "--function", "_ZN3dsp3Fir4stepEs",
                                        "-n", N)
        if c.check(rc2 == 0 and res2 is not None, f"--function _ZN3dsp3Fir4stepEs: exit {rc2}"):
            s2 = res2["raw"]
            c.check(s2["median"] == summary["median"],
                    f"same count by either name: {summary['median']} == {s2['median']}")
        # An independent count: the profiler single-steps one call.
        p = subprocess.run([benchrack, "profile", elf, *BOARD, "--function", "dsp::Fir::step",
                            "--exact", "--no-exec-log"],
                           capture_output=True, text=True, timeout=60)
        m = re.search(r"exact: (\d+) instructions single-stepped", p.stdout)
        c.check(p.returncode == 0 and m is not None and int(m.group(1)) == summary["median"]
                and "dsp::Fir::step(short)" in p.stdout,
                f"profile --exact single-steps {m.group(1) if m else '?'} instructions, "
                f"the measured {summary['median']}; its table names dsp::Fir::step(short)")

    rc, out, err, _ = measure(benchrack, elf, *BOARD, "--function", "dsp::mix", "-n", "5")
    c.check(rc == 2 and "ambiguous" in err and "dsp::mix(short)" in err
            and "dsp::mix(int)" in err,
            f"--function dsp::mix: exit {rc} (want 2) listing both: {err.strip()}")

    # A misspelt C++ name: "did you mean" with the nearest names, demangled.
    rc, out, err, _ = measure(benchrack, elf, *BOARD, "--function", "dsp::Fir::stpe", "-n", "5")
    c.check(rc == 2 and "did you mean 'dsp::Fir::step(short)'" in err and "_ZN" not in err,
            f"--function dsp::Fir::stpe: exit {rc} (want 2), did you mean the demangled "
            f"name: {err.strip()}")

    rc, out, err, res = measure(benchrack, elf, *BOARD, "--function", "dsp::mix(int)", "-n", "5")
    c.check(rc == 0, f"--function 'dsp::mix(int)': exit {rc} {err.strip()}")

    rc, out, err, res = measure(benchrack, elf, *BOARD, "--from", "dsp::Fir::step",
                                "--to", "dsp::mix(short)", "-n", "5")
    c.check(rc == 0, f"--from dsp::Fir::step --to 'dsp::mix(short)': exit {rc} {err.strip()}")

    p = subprocess.run([benchrack, "measure", elf, *BOARD, "--sizes"], capture_output=True,
                       text=True, timeout=60)
    c.check(p.returncode == 0 and "dsp::Fir::step(short)" in p.stdout
            and "_ZN" not in p.stdout, "--sizes names functions as written")
    return c.finish()


if __name__ == "__main__":
    sys.exit(main(sys.argv))
