#!/usr/bin/env python3
"""The gate on a noisy figure, on the host (results/metric_rule.h: host ns are
judged by the shift test on both sample sets, the baseline keeping its
samples), end to end with the real host clock:
- a baseline of benchrack-host-gate's `work` bench (2000 rounds);
- `check --board host` of the unchanged program, 20 times: no failure;
- `check --board host` of benchrack-host-gate-slower (`work` with 20 % more
  rounds, nothing else), 20 times: fails in at least 19, each failure
  worded "worse by N % (lo..hi %, p ...)" beyond the limit;
- the limit is `regression: {ns: 10%}`: the shift test tells a change apart
  within one run's samples, but the host drifts between runs (measured here,
  a shared 2-core machine under load: medians of an unchanged program 5-11 %
  apart from one run to the next); a limit on a stored baseline must be
  above that drift (check --against, interleaved, is what cancels it);
- the baseline keeps the samples the test needs;
- `check --board host --against HEAD` in a scratch git repository whose
  build: command yields the same program (an unchanged ref): base and head
  interleaved per bench in one run, 20 times: every verdict "can't tell" or
  "equal", exit 0.
Prints how many of each failed.

usage: test_host_gate.py BENCHRACK GATE_PROGRAM SLOWER_PROGRAM
"""
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
import bench_mode  # noqa: E402  (takes --smoke out of argv)
from gate_lib import Checker, load, run  # noqa: E402

BENCHRACK, GATE, SLOWER = sys.argv[1:4]
RUNS = bench_mode.rounds(20, 3)
c = Checker()


def goal(ok, what, detail=""):
    """A rate the gate must reach over RUNS runs: checked in a full run,
    printed in the smoke run (three runs on a busy CI machine say nothing of
    a rate)."""
    if bench_mode.SMOKE:
        print(("goal met: " if ok else "GOAL MISSED (smoke run: not gated): ") + what)
    else:
        c.check(ok, what, detail)

with tempfile.TemporaryDirectory() as tmp:
    suite = os.path.join(tmp, "host-gate.yaml")
    with open(suite, "w", encoding="utf-8") as f:
        f.write("name: host-gate\nboards: [qemu-netduinoplus2]\ndefault_iterations: 200\n"
                "warmup_runs: 20\nregression: {ns: 10%}\nbenches: [work]\n")
    results = os.path.join(tmp, "results")
    common = [suite, "--board", "host", "--results-dir", results]
    rc, out, err = run(BENCHRACK, ["run"] + common + ["--firmware", GATE, "--write-baseline"])
    c.check(rc == 0, f"baseline recorded on the host (exit {rc})", out + err)
    baseline = load(os.path.join(results, "baselines", "host-gate", "host.json"))
    work = baseline["benches"][0]
    c.check(len(work.get("samples", [])) == work["n"] == 200,
            "the host baseline keeps its 200 samples (a noisy figure)")

    unchanged_failures, words = 0, []
    for _ in range(RUNS):
        rc, out, err = run(BENCHRACK, ["check"] + common + ["--firmware", GATE])
        unchanged_failures += rc != 0
        m = re.search(r"^work\s+ns\s+\S+\s+\S+\s+\S+\s+(.*)$", out, re.M)
        words.append(m.group(1) if m else out + err)
        if rc != 0:
            print(out + err)
    print(f"unchanged: {unchanged_failures} of {RUNS} checks failed; verdicts: {set(words)}")
    goal(unchanged_failures == 0, f"the unchanged program: 0 failures in {RUNS} checks "
         f"({unchanged_failures})")

    slower_failures, worded = 0, 0
    for _ in range(RUNS):
        rc, out, err = run(BENCHRACK, ["check"] + common + ["--firmware", SLOWER])
        slower_failures += rc == 1
        said = re.search(r"FAIL regression: work: ns \d+(\.\d)? vs baseline \d+(\.\d)?: worse by "
                         r"\d+\.\d % \(\d+\.\d\.\.\d+\.\d %, p [<=] [0-9.]+\), beyond the 10% "
                         r"regression limit", out) is not None
        worded += said
        if rc == 1 and not said:
            print(out)
    print(f"20 % more work: {slower_failures} of {RUNS} checks failed")
    goal(slower_failures >= RUNS - 1,
         f"20 % more work fails in at least {RUNS - 1} of {RUNS} checks ({slower_failures})")
    c.check(worded == slower_failures, "each failure says worse by how much, with its interval "
            f"and p ({worded} of {slower_failures})")

    # --against an unchanged ref, interleaved on the host
    repo = os.path.join(tmp, "repo")
    os.makedirs(repo)
    env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@t", GIT_COMMITTER_NAME="t",
               GIT_COMMITTER_EMAIL="t@t")
    ab_suite = os.path.join(repo, "ab.yaml")
    with open(ab_suite, "w", encoding="utf-8") as f:
        f.write("name: host-ab\nboards: [qemu-netduinoplus2]\ndefault_iterations: 200\n"
                "warmup_runs: 20\nregression: {ns: 10%}\n"
                f"build: {{command: 'cp {GATE} prog', firmware: prog, host_program: prog}}\n"
                "benches: [work, nop1000]\n")
    for args in (["init", "-q"], ["add", "ab.yaml"], ["commit", "-qm", "suite"]):
        subprocess.run(["git", "-C", repo] + args, check=True, env=env, capture_output=True)
    verdicts, exits = [], []
    for _ in range(RUNS):
        rc, out, err = run(BENCHRACK, ["check", ab_suite, "--board", "host", "--against", "HEAD",
                                       "--firmware", GATE, "--results-dir", results])
        exits.append(rc)
        rows = re.findall(r"^(work|nop1000)\s+ns\s+\S+\s+\S+\s+\S+\s+(.*)$", out, re.M)
        verdicts += [v for _, v in rows]
        if rc != 0 or len(rows) != 2:
            print(out + err)
    calm = [v for v in verdicts if v.startswith("can't tell (") or v == "equal"]
    print(f"--against an unchanged ref: {len(calm)} of {len(verdicts)} verdicts can't tell or "
          f"equal; exits {set(exits)}")
    c.check(len(verdicts) == 2 * RUNS, f"--against: a verdict per bench in each of {RUNS} runs")
    goal(len(calm) == len(verdicts) and set(exits) == {0},
         f"--against an unchanged ref on the host: can't tell or equal in {RUNS} of {RUNS} "
         "runs, exit 0", str(set(verdicts) - set(calm)))
    base_runs = [n for n in os.listdir(os.path.join(results, "runs")) if n.endswith("-base.json")]
    c.check(len(base_runs) == RUNS, f"each run kept its base's record ({len(base_runs)})")

sys.exit(c.finish())
