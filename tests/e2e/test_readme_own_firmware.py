#!/usr/bin/env python3
"""Issue 23: the README's worked example of a suite of unmodified firmware,
run as the README writes it, from `build:` to `check --against`.

In a temporary git repository holding a plain firmware (own vector table and
linker script, no stub: own_firmware.py), its build script and the README's
suite (its ```yaml block under "Your own firmware, from `build:` to `check
--against`"), each line of that section's ```sh block runs in order with
`benchrack` on PATH, and exits with the code its comment names. Then:
- `check --against HEAD~1` (exit 1) measured both sides: the base's record
  names the worktree's ELF and the base commit, the head's the repository's;
  work's change is +4..+6 % (3002 -> 3152), and the exit message names work;
- `--against HEAD` exits 0;
- an entry whose ELF is outside the repository is measured on the head only,
  and stderr says why;
- nothing in the results folder is unreadable or left `running`.

usage: test_readme_own_firmware.py BENCHRACK README
"""
import glob
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
import own_firmware  # noqa: E402
from gate_lib import Checker, left_out, load  # noqa: E402

BENCHRACK, README = os.path.abspath(sys.argv[1]), sys.argv[2]
c = Checker()
HEADING = "## Your own firmware, from `build:` to `check --against`"
ENV = {k: v for k, v in os.environ.items() if k not in ("BENCHRACK_RESULTS_DIR",
                                                         "BENCHRACK_GIT_COMMIT")}
ENV.update(GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@t", GIT_COMMITTER_NAME="t",
           GIT_COMMITTER_EMAIL="t@t", NO_COLOR="1")

text = open(README, encoding="utf-8").read()
section = text[text.index(HEADING):]
section = section[:section.index("\n## ", 1)]
suite_yaml = re.search(r"```yaml\n(.*?)```", section, re.S).group(1)
commands = re.search(r"```sh\n(.*?)```", section, re.S).group(1).strip().splitlines()
c.check(len(commands) >= 4, f"the README's example has {len(commands)} commands")


def git(repo, *args):
    return subprocess.run(["git", "-C", repo] + list(args), check=True, capture_output=True,
                          text=True, env=ENV).stdout.strip()


with tempfile.TemporaryDirectory() as tmp:
    bindir = os.path.join(tmp, "bin")
    os.makedirs(bindir)
    os.symlink(os.path.abspath(BENCHRACK), os.path.join(bindir, "benchrack"))
    env = dict(ENV, PATH=bindir + os.pathsep + ENV.get("PATH", ""))
    repo = os.path.join(tmp, "repo")
    own_firmware.write(repo)
    with open(os.path.join(repo, ".gitignore"), "w", encoding="utf-8") as f:
        f.write("build/\nresults/\n")
    with open(os.path.join(repo, "bench.yaml"), "w", encoding="utf-8") as f:
        f.write(suite_yaml)
    subprocess.run(["git", "init", "-q", repo], check=True, env=env)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "the firmware, its build script and its suite")

    outputs = []
    for line in commands:
        want = re.search(r"#\s*exit (\d+)", line)
        cmd = line.split(" # ")[0].strip() if want else line.strip()
        p = subprocess.run(["sh", "-c", cmd], cwd=repo, env=env, capture_output=True,
                           text=True, timeout=300)
        outputs.append((cmd, p))
        print(f"$ {cmd}\n{p.stdout}{p.stderr}")
        expected = int(want.group(1)) if want else 0
        c.check(p.returncode == expected, f"`{cmd}` exits {expected}", f"exit {p.returncode}")

    results = os.path.join(repo, "results")
    head, base = git(repo, "rev-parse", "HEAD"), git(repo, "rev-parse", "HEAD~1")
    ab = [p for cmd, p in outputs if "--against HEAD~1" in cmd]
    c.check(len(ab) == 1 and re.search(r"check failed on \S+: work: instructions 3152 vs "
                                       r"baseline 3002: \+150 instructions \(\+5\.0 %\)", ab[0].stderr) is not None,
            "--against HEAD~1 names work at +5.0 %", ab[0].stderr if ab else "")
    bases = sorted(glob.glob(os.path.join(results, "runs", "*-base.json")))
    first = load(bases[0]) if bases else {}
    head_rec = load(bases[0].replace("-base.json", ".json")) if bases else {}
    med = {side: {b["name"]: b.get("median") for b in r.get("benches", [])}
           for side, r in (("base", first), ("head", head_rec))}
    change = (100.0 * (med["head"].get("work", 0) - med["base"].get("work", 1)) /
              med["base"].get("work", 1)) if bases else 0
    c.check(4.0 <= change <= 6.0 and med["base"].get("tick") == med["head"].get("tick") == 5,
            f"both sides measured: work {med['base'].get('work')} -> {med['head'].get('work')} "
            f"({change:+.1f} %), tick 5 on both", str(med))
    worktree_elf = os.path.join(results, "worktrees", base, "build", "app.elf")
    bw = [b for b in first.get("benches", []) if b["name"] == "work"]
    c.check(bw and os.path.realpath(os.path.join(repo, bw[0]["firmware"]["path"])) ==
            os.path.realpath(worktree_elf)
            and bw[0]["firmware"]["git_commit"] == base and
            bw[0]["firmware"]["build_id"] == own_firmware.readelf_build_id(worktree_elf),
            "the base's work measured the worktree's ELF built at HEAD~1", str(bw))
    hw = [b for b in head_rec.get("benches", []) if b["name"] == "work"]
    repo_elf = os.path.join(repo, "build", "app.elf")
    c.check(hw and os.path.realpath(os.path.join(repo, hw[0]["firmware"]["path"])) ==
            os.path.realpath(repo_elf)
            and hw[0]["firmware"]["git_commit"] == head and
            head_rec["against"]["base_commit"] == base,
            "the head's work measured the repository's ELF at HEAD", str(hw))

    # an entry benchrack cannot rebuild at the ref: the head alone, said so
    outside = os.path.join(tmp, "outside")
    own_firmware.write(outside, loops=10)
    own_firmware.build(outside)
    with open(os.path.join(repo, "mixed.yaml"), "w", encoding="utf-8") as f:
        f.write(suite_yaml.replace("name: app", "name: mixed") +
                f"  - {{name: far, elf: {outside}/build/app.elf, function: work}}\n")
    p = subprocess.run([BENCHRACK, "check", "mixed.yaml", "--against", "HEAD"], cwd=repo,
                       env=env, capture_output=True, text=True, timeout=300)
    c.check(p.returncode == 0 and re.search(r"bench far: not compared with HEAD: .*outside the "
                                            r"repository.*measured on this side only",
                                            p.stderr) is not None,
            "an ELF outside the repository: measured on the head only, and stderr says why",
            f"exit {p.returncode}\n{p.stderr}")

    bad = left_out(BENCHRACK, results, os.path.join(tmp, "report.html"))
    c.check(bad == [], f"no unreadable or unfinished record among "
            f"{len(glob.glob(os.path.join(results, 'runs', '*.json')))} in results/runs",
            "\n".join(bad))
    empty = [f for f in glob.glob(os.path.join(results, "runs", "*")) if os.path.getsize(f) == 0]
    c.check(empty == [], "no empty file in results/runs", str(empty))

sys.exit(c.finish())
