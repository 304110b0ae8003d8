"""Running `benchrack measure` from tests: the exit code, what it printed, and
the JSON result it wrote (None when it wrote none), plus a tally of checks."""
import json
import os
import subprocess
import tempfile

TIMEOUT_S = 150  # under the tests' own meson timeouts, so a hang fails the check


def measure(benchrack, elf, *args, timeout=TIMEOUT_S):
    """(exit code, stdout, stderr, JSON result or None) of
    `benchrack measure ELF ARGS... --json FILE`."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "measure.json")
        p = subprocess.run([benchrack, "measure", elf, *args, "--json", path],
                           capture_output=True, text=True, timeout=timeout)
        result = None
        if os.path.exists(path):
            with open(path, encoding="utf-8") as f:
                result = json.load(f)
    return p.returncode, p.stdout, p.stderr, result


class Checks:
    """Prints every check; the process exit status says whether all held."""

    def __init__(self):
        self.failures = 0

    def check(self, condition, message):
        print(("ok   " if condition else "FAIL ") + message, flush=True)
        if not condition:
            self.failures += 1
        return condition

    def show(self, *texts):
        """Prints texts (a command's output) for the log."""
        for t in texts:
            if t:
                print("    " + t.rstrip().replace("\n", "\n    "))

    def finish(self):
        print(f"{self.failures} failed")
        return 1 if self.failures else 0
