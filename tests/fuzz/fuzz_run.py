#!/usr/bin/env python3
"""A short libFuzzer run of one fuzz target on its committed corpus, as a
test (suite fuzz-run, built with -Dfuzzers=true and clang; tools/test-all
runs it in CI). New inputs go to a scratch folder, never into the committed
corpus; a crash, leak or broken invariant fails the test and its input is
kept in ARTIFACTS (named in the output) to add to the corpus once fixed.

usage: fuzz_run.py TARGET CORPUS ARTIFACTS SECONDS [LIBFUZZER_ARG...]
"""
import os
import re
import subprocess
import sys
import tempfile

target, corpus, artifacts, seconds = sys.argv[1:5]
extra = sys.argv[5:]
os.makedirs(artifacts, exist_ok=True)
with tempfile.TemporaryDirectory(prefix="fuzz-run-") as scratch:
    p = subprocess.run([target, f"-max_total_time={seconds}", "-print_final_stats=1",
                        f"-artifact_prefix={artifacts}/", *extra, scratch, corpus],
                       capture_output=True, text=True, timeout=int(seconds) + 120)
done = re.search(r"Done (\d+) runs in (\d+) second", p.stderr)
if p.returncode != 0:
    sys.stdout.write(p.stderr[-6000:])
    print(f"fuzz_run: {os.path.basename(target)} exited {p.returncode}; inputs kept in {artifacts}")
    sys.exit(1)
if not done:
    sys.stdout.write(p.stderr[-3000:])
    print("fuzz_run: libFuzzer ran but did not report its runs")
    sys.exit(1)
print(f"fuzz_run: {os.path.basename(target)}: {done.group(1)} runs in {done.group(2)} s, "
      "no crash, leak or broken invariant")
