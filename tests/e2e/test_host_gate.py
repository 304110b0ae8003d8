#!/usr/bin/env python3
"""The gate on a noisy figure, on the host (results/metric_rule.h: host ns
against a stored baseline are judged with the run as the unit, against the
runs the baseline keeps, stats/run_shift.h; interleaved, by the samples'
test), end to end with the real host clock, at the DEFAULT limit
(fail_on_regression_percent 5, no `regression:` entry):
- a baseline of one run of benchrack-host-gate's `work` bench (2000 rounds):
  it keeps its samples and its one run; 20 checks of the unchanged program:
  no failure, and where the samples alone tell the runs apart (the host
  drifts from one run to the next: medians of an unchanged program 3-14 %
  apart here, a shared 2-core machine) the verdict is can't tell, saying
  the drift is not known and what would decide it;
- 9 more runs written to the baseline (`run --write-baseline` adds each),
  then one more after each check, as a main branch's CI would add them (a
  baseline's runs must span the host's moods: 10 runs recorded in one calm
  minute, then checks in a busier one, failed 9 of 20 here): 20 checks of
  the unchanged program: no failure; 20 checks of
  benchrack-host-gate-slower (`work` with 20 % more rounds, nothing else):
  fails in at least 19, each failure worded "worse by N % (lo..hi %, p ...;
  median of 5 runs against K baseline runs)" beyond the 5% limit: check
  takes 5 runs of a noisy bench whose baseline shows its drift (--runs, run/
  board_run.c) and judges their median (stats/run_shift.h), each run's
  median kept in the check's record; with --runs 1 the one run decides
  ("...; K baseline runs)", no median of several);
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
# a percentage as results/diff.c writes it: one decimal, or two significant
# digits below 0.05 (-0.04, 3e-05)
PCT = r"\d+(?:\.\d+)?(?:e[+-]\d+)?"
# the new figure as the median of check's 5 runs (the default --runs)
FIVE = r"median of 5 runs against "


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
                "warmup_runs: 20\nbenches: [work]\n")
    results = os.path.join(tmp, "results")
    common = [suite, "--board", "host", "--results-dir", results]
    rc, out, err = run(BENCHRACK, ["run"] + common + ["--firmware", GATE, "--write-baseline"])
    c.check(rc == 0, f"baseline recorded on the host (exit {rc})", out + err)
    baseline = load(os.path.join(results, "baselines", "host-gate", "host.json"))
    work = baseline["benches"][0]
    c.check(len(work.get("samples", [])) == work["n"] == 200,
            "the host baseline keeps its 200 samples (a noisy figure)")

    c.check([r["median"] for r in work.get("runs", [])] == [work["median"]] and
            work["runs"][0].get("build") == baseline["firmware"].get("sha256"),
            "the baseline keeps its one run, named by the program's SHA-256", str(work.get("runs")))

    def checks(program, runs):
        """check --board host of program runs times: [(exit, work's verdict, output)]."""
        out_list = []
        for _ in range(runs):
            rc, out, err = run(BENCHRACK, ["check"] + common + ["--firmware", program])
            m = re.search(r"^work\s+ns\s+\S+\s+\S+\s+\S+\s+(.*)$", out, re.M)
            out_list.append((rc, m.group(1) if m else "", out + err))
        return out_list

    # one baseline run: the drift between runs is not known
    one = checks(GATE, RUNS)
    failed = [o for rc, _, o in one if rc != 0]
    for o in failed:
        print(o)
    told = [v for _, v, _ in one if "within this run" in v]
    print(f"one baseline run, unchanged: {len(failed)} of {RUNS} checks failed; {len(told)} "
          f"told apart by the samples alone, said as can't tell; verdicts: {set(v for _, v, _ in one)}")
    goal(not failed, f"one baseline run, the unchanged program: 0 failures in {RUNS} checks "
         f"({len(failed)})")
    c.check(all(v.startswith("can't tell (") for _, v, _ in one),
            "one baseline run: every verdict can't tell", str(set(v for _, v, _ in one)))
    c.check(all(re.match(r"can't tell \([+-]" + PCT + r" % within this run, p [<=] [0-9.]+; drift "
                         r"between runs not known: the baseline holds 1 run of this build; add "
                         r"runs with --write-baseline, or check --against REF\)$", v)
                for v in told), "the drift's can't tell says what would decide it", str(told))

    def add_run():
        """run --write-baseline of the unchanged program: one more baseline run."""
        rc, out, err = run(BENCHRACK, ["run"] + common + ["--firmware", GATE, "--write-baseline"])
        c.check(rc == 0, f"a baseline run added (exit {rc})", out + err)

    # runs accumulate over time, as on a main branch whose every CI run adds
    # one: 9 at once, then one after each check (the host's state moves with
    # the minute; runs of one moment would not show how far)
    for _ in range(9):
        add_run()
    unchanged = []
    for _ in range(RUNS):
        unchanged += checks(GATE, 1)
        add_run()
    unchanged_failures = sum(rc != 0 for rc, _, _ in unchanged)
    for rc, _, o in unchanged:
        if rc != 0:
            print(o)
    print(f"10 and more baseline runs, unchanged: {unchanged_failures} of {RUNS} checks failed; "
          f"verdicts: {set(v for _, v, _ in unchanged)}")
    goal(unchanged_failures == 0, f"the unchanged program: 0 failures in {RUNS} checks at the "
         f"default 5 % limit ({unchanged_failures})")
    c.check(all(re.match(r"(can't tell \([+-]" + PCT + r" % \u00b1" + PCT + r" % from run to run, "
                         + FIVE + r"\d+ baseline runs; check --against REF interleaves\)|equal|"
                         r"(better|worse) by .*; " + FIVE + r"\d+ baseline runs\))$", v)
                for _, v, _ in unchanged),
            "each verdict rests on the median of 5 runs against the baseline's runs",
            str(set(v for _, v, _ in unchanged)))
    rc, out, err = run(BENCHRACK, ["check"] + common + ["--firmware", GATE, "--runs", "1",
                                                        "--json", os.path.join(tmp, "one.json")])
    m = re.search(r"^work\s+ns\s+\S+\s+\S+\s+\S+\s+(.*)$", out, re.M)
    one_verdict = m.group(1) if m else out + err
    c.check("median of" not in one_verdict and re.search(r"\d+ baseline runs", one_verdict),
            "--runs 1: the one run decides", one_verdict)
    c.check(len(load(os.path.join(tmp, "one.json"))["benches"][0].get("runs", [])) <= 1,
            "--runs 1: the check's record keeps no further run")
    rc, out, err = run(BENCHRACK, ["check"] + common + ["--firmware", GATE,
                                                        "--json", os.path.join(tmp, "five.json")])
    five = load(os.path.join(tmp, "five.json"))["benches"][0]
    c.check(len(five.get("runs", [])) == 5 and five["runs"][0]["median"] == five["median"],
            "check keeps the median of each of its 5 runs, the first the bench's own",
            str(five.get("runs")))

    slower_failures, worded = 0, 0
    for _ in range(RUNS):
        rc, _, out = checks(SLOWER, 1)[0]
        add_run()
        slower_failures += rc == 1
        said = re.search(r"FAIL regression: work: ns \d+(\.\d)? vs baseline \d+(\.\d)?: worse by "
                         + PCT + r" % \(" + PCT + r"\.\." + PCT + r" %, p [<=] [0-9.]+; " + FIVE
                         + r"\d+ baseline runs\), "
                         r"beyond the 5% regression limit", out) is not None
        worded += said
        if rc == 1 and not said:
            print(out)
    baseline = load(os.path.join(results, "baselines", "host-gate", "host.json"))
    medians = [r["median"] for r in baseline["benches"][0].get("runs", [])]
    c.check(len(medians) == min(30, 10 + 2 * RUNS), f"the baseline holds its latest runs, at "
            f"most 30 ({len(medians)})")
    print(f"baseline runs' medians: {medians}")
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
                "warmup_runs: 20\n"
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
