#!/usr/bin/env python3
"""Where output goes when the path or the disk is hostile (issue 31, NX2,
ND4, NU).

- `report -o` onto a character device (a copy of /dev/null made with mknod
  in a temporary folder) writes through it: exit 0, still a device (before,
  the device node was replaced by a regular file);
- `report -o` onto a copy of /dev/full (mknod, never the machine's own):
  exit 3, "no space left" on stderr, never "written", still a device;
- `report -o` onto a symbolic link: refused (exit 2), the link and its
  target unchanged; onto a FIFO nobody reads: refused at once;
- `run > /dev/full`: exit 3 with the reason on stderr; `run` with stdout
  closed: exit 3; `run` into a pipe whose reader went away: exit 3 (EPIPE),
  not killed by SIGPIPE;
- a full disk (a 64 KiB tmpfs, filled; skipped where mounting is not
  allowed): `run` exits 3 naming the record's path and "no space left", and
  leaves no file in runs/ (before, a 0-byte record that diff and report
  reject).

usage: test_output_paths.py BENCHRACK (the default suite on --board host)
"""
import os
import shutil
import stat
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
from gate_lib import Checker  # noqa: E402

BENCHRACK = os.path.abspath(sys.argv[1])
SUITE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "configs", "suites",
                     "default.yaml")
c = Checker()


def br(args, cwd, stdout=subprocess.PIPE):
    p = subprocess.run([BENCHRACK, *args], stdout=stdout, stderr=subprocess.PIPE, text=True,
                       cwd=cwd, timeout=60)
    return p.returncode, (p.stdout or "") + p.stderr, p.stderr


def main():
    tmp = tempfile.mkdtemp(prefix="benchrack-outpaths-")
    try:
        run = ["run", SUITE, "--board", "host", "-n", "3", "--results-dir", "R"]
        code, out, _ = br(run, tmp)
        c.check(code == 0, f"a clean run exits 0 ({code})", out)
        report = ["report", "--results-dir", "R", "-o"]

        dev = os.path.join(tmp, "null")
        os.mknod(dev, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
        code, out, _ = br(report + [dev], tmp)
        c.check(code == 0, f"report -o a device: exit 0 ({code})", out)
        c.check(stat.S_ISCHR(os.lstat(dev).st_mode), "report -o a device: still a device")

        # A copy of /dev/full (never the machine's own: the code before the
        # fix replaced the node it was given by a regular file).
        full_dev = os.path.join(tmp, "full-device")
        os.mknod(full_dev, 0o666 | stat.S_IFCHR, os.makedev(1, 7))
        code, out, err = br(report + [full_dev], tmp)
        c.check(code == 3, f"report -o a /dev/full: exit 3 ({code})", out)
        c.check("no space left" in err.lower(), "report -o a /dev/full: says no space left", err)
        c.check("written" not in out, "report -o a /dev/full: never says written", out)
        c.check(stat.S_ISCHR(os.lstat(full_dev).st_mode), "the /dev/full copy is still a device")

        target = os.path.join(tmp, "target.html")
        with open(target, "w", encoding="utf-8") as f:
            f.write("keep me\n")
        link = os.path.join(tmp, "link.html")
        os.symlink(target, link)
        code, out, _ = br(report + [link], tmp)
        c.check(code == 2 and "symbolic link" in out, f"report -o a link: refused ({code})", out)
        c.check(os.path.islink(link) and open(target, encoding="utf-8").read() == "keep me\n",
                "report -o a link: the link and its target unchanged")

        fifo = os.path.join(tmp, "fifo.html")
        os.mkfifo(fifo)
        code, out, _ = br(report + [fifo], tmp)
        c.check(code == 2 and "FIFO" in out, f"report -o a FIFO nobody reads: refused ({code})",
                out)
        c.check(stat.S_ISFIFO(os.lstat(fifo).st_mode), "report -o a FIFO: still a FIFO")

        with open(full_dev, "w") as full:
            code, out, err = br(run, tmp, stdout=full)
        c.check(code == 3, f"run > /dev/full: exit 3 ({code})", err)
        c.check("standard output" in err and "no space left" in err,
                "run > /dev/full: says so on stderr", err)
        p = subprocess.run([BENCHRACK, *run], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           text=True, cwd=tmp, timeout=60,
                           preexec_fn=lambda: os.close(1))
        c.check(p.returncode == 3 and "standard output is closed" in p.stderr,
                f"run with stdout closed: exit 3 ({p.returncode})", p.stderr)
        # A reader that went away: EPIPE, exit 3 and a word on stderr, not a
        # death by SIGPIPE (the code before: killed, -13, nothing said).
        r, w = os.pipe()
        os.close(r)
        with os.fdopen(w, "w") as broken:
            code, out, err = br(run, tmp, stdout=broken)
        c.check(code == 3, f"run | (its reader gone): exit 3, not killed by SIGPIPE ({code})",
                err)
        c.check("standard output" in err and "Broken pipe" in err,
                "run | (its reader gone): says so on stderr", err)

        mnt = os.path.join(tmp, "full")
        os.mkdir(mnt)
        m = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", mnt],
                           capture_output=True, text=True)
        if m.returncode != 0:
            print(f"skip: a full disk (mount: {m.stderr.strip()})")
        else:
            try:
                with open(os.path.join(mnt, "fill"), "wb") as f:
                    try:
                        f.write(b"\0" * (128 * 1024))
                    except OSError:
                        pass
                code, out, err = br(["run", SUITE, "--board", "host", "-n", "3",
                                     "--results-dir", os.path.join(mnt, "R")], tmp)
                c.check(code == 3, f"run on a full disk: exit 3 ({code})", err)
                c.check("no space left" in err.lower() and os.path.join(mnt, "R", "runs") in err,
                        "run on a full disk: names the record's path and 'no space left'", err)
                runs = os.path.join(mnt, "R", "runs")
                left = os.listdir(runs) if os.path.isdir(runs) else []
                c.check(left == [], f"run on a full disk: no partial record left ({left})")
            finally:
                subprocess.run(["umount", mnt], check=False)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return c.finish()


if __name__ == "__main__":
    sys.exit(main())
