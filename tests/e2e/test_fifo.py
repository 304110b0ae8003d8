#!/usr/bin/env python3
"""No hang on a FIFO, no secret through a planted link (issue 31, NH1/NS2).

A FIFO where benchrack expects a regular file used to block it forever, past
every timeout: in results/spool/ (run, check, upload), in results/runs/
(report), as the baseline (check) and as a sink's token_file (upload). Each
command here runs with a FIFO in one of those places (nobody ever opens its
other end) and must return well within its limit, saying which file it
refused. A symbolic link planted in spool/, runs/ and as the baseline, to a
file holding a secret, must be refused by name: the secret never appears in
anything the command prints.

usage: test_fifo.py BENCHRACK (the default suite, configs/suites/default.yaml, on --board host)
"""
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
from gate_lib import Checker  # noqa: E402

BENCHRACK = os.path.abspath(sys.argv[1])
SUITE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "configs", "suites",
                     "default.yaml")
LIMIT_S = 20  # a command that has not returned by then hangs
SECRET = "hunter2-SECRET-token-0123456789"
c = Checker()


def br(args, cwd):
    """(exit code or None on a hang, stdout + stderr)."""
    try:
        p = subprocess.run([BENCHRACK, *args], capture_output=True, text=True, cwd=cwd,
                           timeout=LIMIT_S)
    except subprocess.TimeoutExpired:
        return None, ""
    return p.returncode, p.stdout + p.stderr


def fresh(tmp, name):
    """A results folder with one host run and its baseline, and an upload
    config whose webhook sink is down (its uploads wait in the spool)."""
    d = os.path.join(tmp, name)
    os.makedirs(d)
    code, out = br(["run", SUITE, "--board", "host", "-n", "3", "--results-dir", "R",
                    "--write-baseline"], d)
    assert code == 0, out
    with open(os.path.join(d, "token"), "w", encoding="utf-8") as f:
        f.write("plain-token\n")
    with open(os.path.join(d, "secret.txt"), "w", encoding="utf-8") as f:
        f.write(SECRET + "\n")
    os.makedirs(os.path.join(d, "R", "spool"), exist_ok=True)
    with open(os.path.join(d, "upload.yaml"), "w", encoding="utf-8") as f:
        f.write("max_total_seconds: 2\nmax_attempts: 1\nsinks:\n"
                "  - {name: hook, kind: webhook, url: 'http://127.0.0.1:1/h', "
                "token_file: token}\n")
    return d


def case(label, d, args, plant, refused_words):
    plant(d)
    code, out = br(args, d)
    c.check(code is not None, f"{label}: returned within {LIMIT_S} s")
    if code is None:
        return
    # any piece of it: a parser's error quotes a few bytes "near" the fault
    c.check(SECRET[:6] not in out, f"{label}: no byte of the secret is printed", out)
    if refused_words:
        c.check(any(w in out for w in refused_words),
                f"{label}: says which file it refused ({' / '.join(refused_words)})", out)


def fifo(path):
    def go(d):
        p = os.path.join(d, path)
        if os.path.exists(p):
            os.unlink(p)
        os.mkfifo(p)
    return go


def link(path, target="secret.txt"):
    def go(d):
        p = os.path.join(d, path)
        if os.path.lexists(p):
            os.unlink(p)
        os.symlink(os.path.join(d, target), p)
    return go


def token_fifo(d):
    os.unlink(os.path.join(d, "token"))
    os.mkfifo(os.path.join(d, "token"))


BASE = ["--results-dir", "R"]
RUN = ["run", SUITE, "--board", "host", "-n", "3", "--upload-config", "upload.yaml", *BASE]
CHECK = ["check", SUITE, "--board", "host", "-n", "3", "--upload-config", "upload.yaml", *BASE]
UPLOAD = ["upload", "--upload-config", "upload.yaml", *BASE]
REPORT = ["report", "-o", "page.html", *BASE]
SPOOL_ITEM = "R/spool/20261201T000000.000Z-host--hook.json"
RUN_ITEM = "R/runs/20261201T000000.000Z-host.json"
BASELINE = "R/baselines/default/host.json"
FIFO_WORDS = ["a FIFO"]
LINK_WORDS = ["symbolic link"]

CASES = [
    ("run, a FIFO in spool/", RUN, fifo(SPOOL_ITEM), FIFO_WORDS),
    ("check, a FIFO in spool/", CHECK, fifo(SPOOL_ITEM), FIFO_WORDS),
    ("upload, a FIFO in spool/", UPLOAD, fifo(SPOOL_ITEM), FIFO_WORDS),
    ("report, a FIFO in runs/", REPORT, fifo(RUN_ITEM), FIFO_WORDS),
    ("check, a FIFO as the baseline", CHECK, fifo(BASELINE), FIFO_WORDS),
    ("upload, a FIFO as token_file", UPLOAD, token_fifo, FIFO_WORDS),
    ("upload, a link in spool/", UPLOAD, link(SPOOL_ITEM), LINK_WORDS),
    ("report, a link in runs/", REPORT, link(RUN_ITEM), LINK_WORDS),
    ("check, a link as the baseline", CHECK, link(BASELINE), LINK_WORDS),
]


def main():
    tmp = tempfile.mkdtemp(prefix="benchrack-fifo-")
    try:
        for i, (label, args, plant, words) in enumerate(CASES):
            d = fresh(tmp, f"case{i}")
            if "token_file" in label:
                # an upload waiting in the spool, so the token is needed
                code, out = br(RUN, d)
                c.check(code is not None, f"{label}: the run that spools returned", out)
            case(label, d, args, plant, words)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return c.finish()


if __name__ == "__main__":
    sys.exit(main())
