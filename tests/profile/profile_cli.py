"""Running `benchrack profile` from tests: the exit code, what it printed, and
the output file in the format asked (parsed JSON for json and speedscope)."""
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from measure_cli import measure  # noqa: E402

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


def rounds(header):
    """PROFILE_ROUNDS of benches/profile/profile.h: calls of each leaf per call
    of profile_caller."""
    with open(header, encoding="utf-8") as f:
        return int(re.search(r"#define PROFILE_ROUNDS (\d+)U", f.read()).group(1))


def per_call(checks, benchrack, elf, name):
    """The instructions of one call of name by `benchrack measure --function`,
    checked to be the same for every call; None when not."""
    rc, out, err, res = measure(benchrack, elf, "--function", name, "-n", "5")
    checks.show(out, err)
    s = res["raw"] if res else None
    ok = rc == 0 and s is not None and s["min"] == s["max"]
    checks.check(ok, f"measure --function {name}: one count for every call "
                     f"({s and s['median']})")
    return s["median"] if ok else None


def profile_enough(benchrack, elf, *args, duration, enough, tries=3):
    """profile(benchrack, elf, *args, "--duration", D) until enough(record)
    holds: D = duration first, then 3 times as long each try (tries in all).
    A sampled count reached in a fixed time falls with the host's load (16
    times fewer samples seen in a loaded ASan CI run), so a test asks for the
    samples its checks need, not for seconds; the last try is returned
    whether it sufficed or not, for the test's own checks to judge."""
    d = duration
    for i in range(tries):
        rc, out, err, rec = profile(benchrack, elf, *args, "--duration", f"{d:g}")
        if rc != 0 or rec is None or enough(rec) or i == tries - 1:
            return rc, out, err, rec
        print(f"too few samples in {d:g} s on this host ({rec.get('samples_taken')} taken): "
              f"again for {3 * d:g} s")
        d *= 3
    return rc, out, err, rec
