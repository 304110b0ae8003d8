"""Running `benchrack profile` from tests: the exit code, what it printed, and
the output file in the format asked (parsed JSON for json and speedscope)."""
import json
import os
import subprocess
import tempfile

TIMEOUT_S = 100  # under the tests' own meson timeouts, so a hang fails the check


def profile(benchrack, elf, *args, fmt="json", timeout=TIMEOUT_S):
    """(exit code, stdout, stderr, output or None) of
    `benchrack profile ELF ARGS... --format FMT --output FILE`."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "profile.out")
        p = subprocess.run([benchrack, "profile", elf, *args, "--format", fmt,
                            "--output", path],
                           capture_output=True, text=True, timeout=timeout)
        result = None
        if os.path.exists(path):
            with open(path, encoding="utf-8") as f:
                text = f.read()
            result = json.loads(text) if fmt in ("json", "speedscope") else text
    return p.returncode, p.stdout, p.stderr, result


def functions(record):
    """{name: function entry} of a json profile record."""
    return {f["name"]: f for f in record["functions"]} if record else {}
