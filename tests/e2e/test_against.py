#!/usr/bin/env python3
"""`benchrack check SUITE --against REF`: base and head on the same board in
one run, interleaved per bench, gated on the difference.

A scratch clone of this source tree gets two real commits: the default suite
as this tree has it (HEAD~1), then 100 more nops in nop1000 (HEAD). The head
firmware is built there with the suite's own build: command.
- --against HEAD~1 exits 1 naming nop1000 at +10.0 %; both commits are in
  the records; the second call reuses the worktree's build, not building
  it again (both timed, printed);
- --against HEAD exits 0 (the same commit on both sides);
- the interleaved A/B gives exactly the per-bench differences of two
  separate runs of the two firmwares (QEMU's counts are exact);
- a ref whose build fails is an infrastructure error (exit 3) quoting the
  build's last lines.

usage: test_against.py BENCHRACK SOURCE_ROOT
"""
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))
from gate_lib import Checker, load, run  # noqa: E402

BENCHRACK, SOURCE = sys.argv[1:3]
c = Checker()
ENV = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@t", GIT_COMMITTER_NAME="t",
           GIT_COMMITTER_EMAIL="t@t")


def git(repo, *args):
    return subprocess.run(["git", "-C", repo] + list(args), check=True, capture_output=True,
                          text=True, env=ENV).stdout.strip()


def medians(path):
    return {b["name"]: b["median"] for b in load(path)["benches"] if b["status"] == "measured"}


with tempfile.TemporaryDirectory() as tmp:
    repo = os.path.join(tmp, "repo")
    subprocess.run(["git", "clone", "-q", SOURCE, repo], check=True)
    suite = os.path.join(repo, "configs", "suites", "default.yaml")
    shutil.copy(os.path.join(SOURCE, "configs", "suites", "default.yaml"), suite)
    git(repo, "commit", "-q", "--allow-empty", "-am", "the default suite with its build: section")
    nop = os.path.join(repo, "benches", "nop1000.c")
    with open(nop, encoding="utf-8") as f:
        text = f.read()
    with open(nop, "w", encoding="utf-8") as f:
        f.write(text.replace("__asm__ volatile(NOP_1000);", "__asm__ volatile(NOP_1000 NOP_100);"))
    git(repo, "commit", "-q", "-am", "nop1000: 100 more nops")
    head, base = git(repo, "rev-parse", "HEAD"), git(repo, "rev-parse", "HEAD~1")
    c.check(git(repo, "diff", "--stat", "HEAD~1", "HEAD").count("nop1000.c") == 1,
            "the commit changes nop1000.c")

    # the head firmware, built in the clone with the suite's own command
    command = re.search(r'command: "(.*)"', open(suite, encoding="utf-8").read()).group(1)
    firmware = re.search(r"^  firmware: (\S+)", open(suite, encoding="utf-8").read(),
                         re.M).group(1)
    subprocess.run(["sh", "-c", command], cwd=repo, check=True, capture_output=True)
    head_elf = os.path.join(repo, firmware)
    results = os.path.join(tmp, "results")
    common = ["--firmware", head_elf, "--results-dir", results, "-n", "20"]

    t0 = time.monotonic()
    code, out, err = run(BENCHRACK, ["check", suite, "--against", "HEAD~1", "--json",
                                     os.path.join(tmp, "ab.json")] + common, timeout=240)
    first = time.monotonic() - t0
    print(out, err)
    c.check(code == 1, f"--against HEAD~1 exits 1 (took {first:.1f} s)", f"exit {code}")
    c.check(re.search(r"check failed on \S+: nop1000\b.*\+100 instructions \(\+10\.0 %\)", err)
            is not None,
            "exit 1 names nop1000 at +10.0 %", err)
    c.check(re.search(r"^nop1000 .*instructions\s+1001\s+1101\s+\+10\.0%\s+\+100 instructions "
                      r"\(\+10\.0 %\)", out, re.M)
            is not None, "the table: base 1001, head 1101, +10.0 %, +100 instructions", out)
    c.check("built in" in err, "the base was built", err)
    c.check(0 <= err.find("checking it out and building it") < err.find("built in"),
            "before the build, a line says it is building (issue 30)", err)
    ab = load(os.path.join(tmp, "ab.json"))
    base_files = glob.glob(os.path.join(results, "runs", "*-base.json"))
    c.check(len(base_files) == 1, "the base's record is kept beside the head's", str(base_files))
    base_rec = load(base_files[0]) if base_files else {}
    c.check(ab["against"] == {"role": "head", "ref": "HEAD~1", "base_commit": base,
                              "head_commit": head} and
            base_rec.get("against", {}).get("role") == "base" and
            base_rec["firmware"]["git_commit"] == base,
            "the records hold both commits", json.dumps(ab.get("against")))

    t0 = time.monotonic()
    code, out, err = run(BENCHRACK, ["check", suite, "--against", "HEAD~1"] + common,
                         timeout=240)
    second = time.monotonic() - t0
    c.check(code == 1 and "reused" in err,
            f"the second call reuses the worktree's build: {second:.1f} s against {first:.1f} s",
            err)
    # reused, not rebuilt: no build line (a wall-time comparison of the two
    # calls can fail on a loaded host, where measuring varies more than a build)
    c.check(re.search(r"base HEAD~1 = \S+: built in", err) is None,
            "and does not build the base again", err)

    code, out, err = run(BENCHRACK, ["check", suite, "--against", "HEAD"] + common, timeout=240)
    c.check(code == 0, "--against HEAD exits 0", f"exit {code}\n{out}\n{err}")

    # exactly the differences of two separate runs
    base_elf = os.path.join(results, "worktrees", base, firmware)
    sep = {}
    for side, elf in (("base", base_elf), ("head", head_elf)):
        path = os.path.join(tmp, side + ".json")
        code, _, err = run(BENCHRACK, ["run", suite, "--firmware", elf, "--json", path,
                                       "--results-dir", results, "-n", "20"], timeout=240)
        c.check(code == 0, f"a separate run of the {side} firmware", err)
        sep[side] = medians(path)
    ab_base, ab_head = medians(base_files[0]), medians(os.path.join(tmp, "ab.json"))
    separate = {n: sep["head"][n] - sep["base"][n] for n in sep["head"]}
    interleaved = {n: ab_head[n] - ab_base[n] for n in ab_head}
    c.check(separate == interleaved and separate.get("nop1000") == 100 and
            len(separate) >= 7,
            f"interleaved A/B differences equal two separate runs' exactly: {interleaved}",
            f"separate {separate}")

    # a ref that does not build
    with open(os.path.join(repo, "benches", "empty.c"), "a", encoding="utf-8") as f:
        f.write("\n#error this commit does not build\n")
    git(repo, "commit", "-q", "-am", "broken")
    code, out, err = run(BENCHRACK, ["check", suite, "--against", "HEAD"] + common, timeout=240)
    c.check(code == 3 and "failed" in err and "this commit does not build" in err,
            "a ref that does not build: exit 3 with the build's last lines", f"{code}\n{err}")

    # git itself missing: an infrastructure error that says what to install
    no_git = os.path.join(tmp, "no-git-bin")
    os.makedirs(no_git, exist_ok=True)
    code, out, err = run(BENCHRACK, ["check", suite, "--against", "HEAD"] + common,
                         env=dict(ENV, PATH=no_git), timeout=60)
    c.check(code == 3 and "apt-get install git" in err and "not in a git repository" not in err,
            "git not installed: exit 3 saying to install it", f"{code}\n{err}")

sys.exit(c.finish())
