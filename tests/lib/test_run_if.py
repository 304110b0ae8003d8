#!/usr/bin/env python3
"""tests/lib/run_if.py: "yes" runs the command in its place (its exit status
and output the test's, a .py through this Python), "no" runs nothing, prints
the reason and exits 77 (Meson's skip); a malformed call is a usage error.

usage: test_run_if.py RUN_IF"""
import os
import subprocess
import sys
import tempfile

RUN_IF = sys.argv[1]
failures = 0


def check(cond, what):
    global failures
    print(("ok   " if cond else "FAIL ") + what)
    failures += 0 if cond else 1


def run(*args):
    return subprocess.run([sys.executable, RUN_IF, *args], capture_output=True, text=True,
                          timeout=30)


with tempfile.TemporaryDirectory() as tmp:
    mark = os.path.join(tmp, "ran")
    script = os.path.join(tmp, "t.py")
    with open(script, "w", encoding="utf-8") as f:
        f.write(f"import sys\nopen({mark!r}, 'w').write(' '.join(sys.argv[1:]))\n"
                "print('from the test')\nsys.exit(5)\n")
    p = run("yes", "some reason", "--", script, "a", "b c")
    check(p.returncode == 5, f"yes: the command's exit status ({p.returncode})")
    check("from the test" in p.stdout and "SKIP" not in p.stdout, "yes: its output, no skip")
    check(os.path.exists(mark) and open(mark).read() == "a b c", "yes: its arguments as given")
    os.remove(mark)
    p = run("no", "the board has no such counter", "--", script, "a")
    check(p.returncode == 77, f"no: exit 77, a skip ({p.returncode})")
    check(p.stdout.strip() == "SKIP: the board has no such counter", f"no: the reason ({p.stdout!r})")
    check(not os.path.exists(mark), "no: the command did not run")
    p = run("yes", "reason", script)
    check(p.returncode == 2 and "usage" in p.stderr, "no '--': a usage error, exit 2")
    p = run("maybe", "reason", "--", script)
    check(p.returncode == 2 and not os.path.exists(mark), "neither yes nor no: exit 2, nothing run")
    p = run("yes", "reason", "--", "/bin/true")
    check(p.returncode == 0, "yes: a program that is not a .py runs as it is")

print(f"{failures} failed" if failures else "all passed")
sys.exit(1 if failures else 0)
