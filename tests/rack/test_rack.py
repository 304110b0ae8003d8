#!/usr/bin/env python3
"""`benchrack rack` end to end on emulated boards (issue 7).

usage: test_rack.py BENCHRACK QEMU SUITE_ELF GATE_ELF CASE
CASE is one of:
  parallel   six boards (2 netduinoplus2, 2 netduino2, mps2-an386/an500
             health-checked only) at once: all pass, they overlap in time,
             and every board's figures equal what `benchrack run` gives for
             it alone; the combined JUnit parses (a testsuite per board)
             and the LAVA lines match their syntax
  isolation  one rack with a board whose server never answers, one whose
             QEMU is killed mid-suite, one whose firmware hangs, and two
             good boards: infrastructure errors with their reasons within
             their timeouts (retried), the hanging firmware too ("did not
             finish within 2 s" with where the core was: README's exit
             codes, a breakpoint that never hit is 3, as for run, check and
             measure), the good boards complete and exact
  locking    two racks over an overlapping board never hold it at once
             (lock history and documents), a busy board is not run, a
             stale lock of a dead owner is taken over and said so
  retry      a board whose first measuring connection is dropped (a proxy)
             passes on its second attempt, the first attempt's reason kept
  kill9      `kill -9` of a rack of three boards while each measures: 2 s
             later none of its workers or QEMUs is alive; its locks are left
             and the next rack takes them over, says so, and passes (issue 12)
Every step is bounded by a timeout.
"""
import fcntl
import os
import re
import shutil
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import threading
import time
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from racklib import (FAILED, board, boards_by_name, check, figures, finish, free_port,  # noqa: E402
                     rack, run_rack, suite, write)
from ports import wait_listening  # noqa: E402
from qemu_gdbstub import start_qemu  # noqa: E402

BENCHRACK, QEMU, SUITE_ELF, GATE_ELF, CASE = sys.argv[1:6]
WORK = tempfile.mkdtemp(prefix="rack-test-")
BENCHES = ["empty", "nop1000", "crc32_64", "crc32_256", "memcpy_1k"]
LAVA_LINE = re.compile(r"^lava-test-case [A-Za-z0-9._-]+ --result (pass|fail)"
                       r"( --measurement [0-9]+(\.[0-9]+)? --units [A-Za-z0-9._-]+)?$")


def alone(board_name, suite_path):
    """The figures of one board run by itself with `benchrack run --json`."""
    out = os.path.join(WORK, f"alone-{board_name}.json")
    p = subprocess.run([BENCHRACK, "run", suite_path, "--board", board_name, "--json", out,
                        "--results-dir", os.path.join(WORK, "alone")],
                       capture_output=True, text=True, timeout=120)
    check(p.returncode == 0, f"{board_name} alone: exit 0", p.stderr[-800:])
    return figures(out)


def run_path(doc, name, k=0):
    return boards_by_name(doc)[name]["suites"][k]["run"]


def case_parallel():
    s = suite(WORK, "exact", SUITE_ELF, BENCHES)
    entries = [
        {"name": "np2-a", "board": "qemu-netduinoplus2", "suites": [s], "tags": ["exact"]},
        {"name": "np2-b", "board": "qemu-netduinoplus2", "suites": [s], "tags": ["exact"]},
        {"name": "nd2-a", "board": "qemu-netduino2", "suites": [s], "tags": ["exact"]},
        {"name": "nd2-b", "board": "qemu-netduino2", "suites": [s], "tags": ["exact"]},
        {"name": "an386", "board": "qemu-mps2-an386", "tags": ["mps2"]},
        {"name": "an500", "board": "qemu-mps2-an500", "tags": ["mps2"]},
    ]
    r = rack(WORK, "six", entries)
    junit = os.path.join(WORK, "six.xml")
    p, doc, secs = run_rack(BENCHRACK, r, WORK, "--format", "junit", "--output", junit)
    check(p.returncode == 0, "six boards: exit 0", p.stdout[-1500:] + p.stderr[-1500:])
    by = boards_by_name(doc)
    check(sorted(by) == sorted(e["name"] for e in entries), "six boards in the document",
          str(sorted(by)))
    check(all(b["outcome"] == "pass" for b in by.values()), "every board passes",
          str({n: b["outcome"] for n, b in by.items()}))
    check(all(b["health"]["healthy"] for b in by.values()), "every board probed healthy")
    check(all(b["lock"] and b["lock"]["released_ms"] >= b["lock"]["acquired_ms"]
              for b in by.values()), "every board locked and released")
    # parallel: at least two boards were measuring at the same time
    spans = sorted((b["started_ms"], b["ended_ms"]) for b in by.values())
    overlap = any(spans[i + 1][0] < spans[i][1] for i in range(len(spans) - 1))
    check(overlap, "boards ran at the same time", str(spans))
    check("2 emulated at once" in p.stderr or os.cpu_count() != 2,
          "at most the CPUs' number of emulated boards at once by default", p.stderr[:300])
    for name, board_name in (("np2-a", "qemu-netduinoplus2"), ("nd2-a", "qemu-netduino2")):
        mine = figures(run_path(doc, name))
        ref = alone(board_name, s)
        check(mine == ref, f"{name}: every figure (and sample) equals the board run alone",
              f"{mine}\n{ref}")
        check(all(v[0] == "measured" for v in mine.values()) and len(mine) == len(BENCHES),
              f"{name}: every bench measured")
    check(figures(run_path(doc, "np2-a")) == figures(run_path(doc, "np2-b")),
          "two netduinoplus2 give the same exact counts")
    check(figures(run_path(doc, "nd2-a"))["nop1000"][2] == 1001,
          "netduino2: nop1000 is exactly 1001 instructions")
    # JUnit: parses, a testsuite per board (and suite)
    tree = ET.parse(junit)
    suites = tree.getroot().findall("testsuite")
    check(len(suites) == 4, "JUnit: a testsuite per measuring board", str(len(suites)))
    names = {ts.get("name") for ts in suites}
    check(all(any(n in x for x in names) for n in ("np2-a", "np2-b", "nd2-a", "nd2-b")),
          "JUnit: testsuites named by the rack's boards", str(names))
    check(all(sorted(tc.get("name") for tc in ts.findall("testcase")
                     if tc.get("name") in BENCHES) == sorted(BENCHES) for ts in suites),
          "JUnit: a testcase per bench")
    # LAVA lines, on stdout, only the tagged boards
    p2, doc2, _ = run_rack(BENCHRACK, r, WORK, "--format", "lava", "--only", "netduinoplus2",
                           "--only", "np2-a")
    lines = p2.stdout.strip().splitlines()
    check(p2.returncode == 0 and len(lines) == len(BENCHES),
          "--format lava --only: one line per bench of the selected board",
          p2.stdout + p2.stderr[-500:])
    bad = [ln for ln in lines if not LAVA_LINE.match(ln)]
    check(lines and not bad, "LAVA lines match lava-test-case NAME --result pass|fail "
          "--measurement VALUE --units UNIT", str(bad or lines))
    check("lava-test-case exact.np2-a.nop1000 --result pass --measurement 1001 "
          "--units instructions" in lines, "LAVA: the exact figure with its unit", str(lines))
    check(len(boards_by_name(doc2)) == 1, "--only selects by tag or name")


def killer_qemu():
    """A QEMU that is killed 1.5 s after it starts (the 'QEMU killed mid-suite' board)."""
    path = os.path.join(WORK, "qemu-killed.sh")
    write(path, f"""#!/bin/sh
{QEMU} "$@" &
q=$!
trap 'kill -9 $q 2>/dev/null; exit 0' TERM
sleep 1.5
kill -9 $q
wait $q
""")
    os.chmod(path, os.stat(path).st_mode | stat.S_IEXEC)
    return path


def case_isolation():
    good = suite(WORK, "exact", SUITE_ELF, BENCHES)
    # `work` runs, then `stall` never returns: the killer strikes while it spins
    killed = suite(WORK, "killed", GATE_ELF, ["empty", "nop1000", "stall"], timeout=20)
    hang = suite(WORK, "hang", GATE_ELF, ["empty", "stall"], timeout=2)
    board(WORK, "qemu-dies", program=killer_qemu())
    dead_port = free_port()  # nobody listens there
    entries = [
        {"name": "good-a", "board": "qemu-netduinoplus2", "suites": [good]},
        {"name": "dead", "board": "qemu-netduinoplus2", "suites": [good],
         "remote": f"127.0.0.1:{dead_port}"},
        {"name": "killed", "board": os.path.join(WORK, "boards", "qemu-dies.yaml"), "suites": [killed]},
        {"name": "hangs", "board": "qemu-netduinoplus2", "suites": [hang]},
        {"name": "good-b", "board": "qemu-netduino2", "suites": [good]},
    ]
    r = rack(WORK, "isolation", entries, retries=1)
    p, doc, secs = run_rack(BENCHRACK, r, WORK, "--board-timeout", "90", timeout=180)
    check(p.returncode == 3, "isolation: exit 3 (infrastructure errors, and a bench that never "
          "finished: README's table)",
          p.stdout[-1500:] + p.stderr[-1500:])
    by = boards_by_name(doc)
    for name in ("good-a", "good-b"):
        check(by[name]["outcome"] == "pass", f"{name}: passes beside the broken boards",
              str(by[name]))
    ref_np2 = alone("qemu-netduinoplus2", good)
    check(figures(run_path(doc, "good-a")) == ref_np2, "good-a: figures equal the board alone")
    for name, words in (("dead", ["unhealthy", "connect"]),
                        ("killed", ["closed the connection"])):
        b = by[name]
        s = b["suites"][0]
        check(b["outcome"] == "infra" and s["outcome"] == "infra",
              f"{name}: an infrastructure error", str(b))
        reason = s["reason"].lower()
        check(all(w in reason for w in words), f"{name}: the reason says why ({words})",
              s["reason"])
    dead = by["dead"]
    check(not dead["health"]["healthy"] and len(dead["health"]["failed_attempts"]) == 1,
          "dead: probed twice (one retry), each reason kept", str(dead["health"]))
    check(by["killed"]["suites"][0]["attempts"] == 2 and
          len(by["killed"]["suites"][0]["failed_attempts"]) == 1,
          "killed: retried once, the first attempt's reason kept", str(by["killed"]))
    hangs = by["hangs"]["suites"][0]
    check(by["hangs"]["outcome"] == "infra" and hangs["outcome"] == "infra",
          "hangs: exit 3 in the table, as for run and check", str(by["hangs"]))
    check("stall did not finish within 2 s" in hangs["reason"] and
          "the core was at PC 0x" in hangs["reason"],
          "hangs: the reason says which bench did not finish within its timeout, and where "
          "the core was", hangs["reason"])
    # within their timeouts: hang 2 s per attempt, killer 1.5 s per attempt (+ start-up)
    for name, bound in (("dead", 30), ("killed", 20), ("hangs", 30)):
        took = (by[name]["ended_ms"] - by[name]["started_ms"]) / 1000
        check(took < bound, f"{name}: over within {bound} s ({took:.1f} s)")
    # the killed board's run kept what finished before the kill
    killed_run = by["killed"]["suites"][0]["run"]
    if killed_run:
        f = figures(killed_run)
        check(f.get("nop1000", (None,))[0] == "measured",
              "killed: benches finished before the kill are kept", str(f.keys()))
    check("infrastructure error" in p.stdout and "2 pass" in p.stdout and
          "0 regression" in p.stdout,
          "the summary shows the passes, the test failure and the infrastructure errors",
          p.stdout[-800:])


def slow_qemu():
    """A QEMU that starts 1 s late: a board held long enough for two racks to meet."""
    path = os.path.join(WORK, "qemu-slow.sh")
    write(path, f"#!/bin/sh\nsleep 1\nexec {QEMU} \"$@\"\n")
    os.chmod(path, os.stat(path).st_mode | stat.S_IEXEC)
    return path


def history(lock_dir, name):
    out = []
    with open(os.path.join(lock_dir, name + ".history")) as f:
        for line in f:
            what, pid, host, ms = line.split()
            out.append((what, int(pid), int(ms)))
    return out


def case_locking():
    s = suite(WORK, "exact", SUITE_ELF, ["empty", "nop1000"])
    board(WORK, "qemu-slow", program=slow_qemu())
    locks = os.path.join(WORK, "shared-locks")
    a = rack(WORK, "rack-a", [
        {"name": "shared", "board": os.path.join(WORK, "boards", "qemu-slow.yaml"), "suites": [s]},
        {"name": "only-a", "board": "qemu-netduinoplus2", "suites": [s]}])
    b = rack(WORK, "rack-b", [
        {"name": "only-b", "board": "qemu-netduinoplus2", "suites": [s]},
        {"name": "shared", "board": os.path.join(WORK, "boards", "qemu-slow.yaml"), "suites": [s]}])
    pa, doc_a_path = run_rack(BENCHRACK, a, WORK, "--lock-wait", "60", lock_dir=locks,
                              background=True)
    time.sleep(0.3)
    pb, doc_b_path = run_rack(BENCHRACK, b, WORK, "--lock-wait", "60", lock_dir=locks,
                              background=True)
    outa = pa.communicate(timeout=120)
    outb = pb.communicate(timeout=120)
    check(pa.returncode == 0 and pb.returncode == 0, "two racks: both complete",
          outa[1][-800:] + outb[1][-800:])
    import json
    da = boards_by_name(json.load(open(doc_a_path)))
    db = boards_by_name(json.load(open(doc_b_path)))
    la, lb = da["shared"]["lock"], db["shared"]["lock"]
    first, second = sorted((la, lb), key=lambda l: l["acquired_ms"])
    check(second["acquired_ms"] >= first["released_ms"],
          "the shared board: the second rack took it only after the first released it",
          f"{first} {second}")
    h = history(locks, "shared")
    check([w for w, _, _ in h] == ["acquired", "released", "acquired", "released"],
          "lock history: acquired/released twice, never nested", str(h))
    check(h[1][1] == h[0][1] and h[3][1] == h[2][1] and h[0][1] != h[2][1] and
          h[2][2] >= h[1][2], "lock history: two owners, one after the other", str(h))
    # a busy board (someone at a desk holds it): not run, with who holds it
    held = os.path.join(locks, "only-a.lock")
    fd = os.open(held, os.O_RDWR | os.O_CREAT)
    fcntl.flock(fd, fcntl.LOCK_EX)
    os.ftruncate(fd, 0)
    os.write(fd, f"{os.getpid()} desk-pc {int(time.time() * 1000)}\n".encode())
    p, doc, _ = run_rack(BENCHRACK, a, WORK, lock_dir=locks)
    fcntl.flock(fd, fcntl.LOCK_UN)
    os.close(fd)
    by = boards_by_name(doc)
    check(p.returncode == 3 and by["only-a"]["outcome"] == "not-run" and
          "in use by pid" in by["only-a"]["suites"][0]["reason"] and
          "desk-pc" in by["only-a"]["suites"][0]["reason"],
          "a board in use elsewhere is not run, naming its owner (exit 3)",
          str(by.get("only-a")) + p.stderr[-500:])
    check(by["shared"]["outcome"] == "pass", "the other board still runs")
    # a stale lock: a record left by an owner that is gone
    write(os.path.join(locks, "only-a.lock"), "999999 gone-host 1700000000000\n")
    p, doc, _ = run_rack(BENCHRACK, a, WORK, lock_dir=locks)
    by = boards_by_name(doc)
    stale = by["only-a"]["lock"]["stale_taken_over"]
    check(p.returncode == 0 and stale and stale["pid"] == 999999 and
          stale["host"] == "gone-host", "a stale lock is taken over", str(by["only-a"]))
    check("took over a stale lock of pid 999999" in p.stdout + p.stderr,
          "the output says a stale lock was taken over", p.stdout[-600:] + p.stderr[-600:])


class DropFirst:
    """A TCP proxy to QEMU's gdbstub that drops connection number `drop` once
    `after` bytes of the server's replies went through (mid-session)."""

    def __init__(self, upstream, drop, after=200):
        self.upstream, self.drop, self.after, self.count = upstream, drop, after, 0
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(4)
        self.port = self.sock.getsockname()[1]
        threading.Thread(target=self.serve, daemon=True).start()

    def serve(self):
        while True:
            try:
                c, _ = self.sock.accept()
            except OSError:
                return
            self.count += 1
            limit = self.after if self.count == self.drop else None
            u = socket.create_connection(("127.0.0.1", self.upstream))
            threading.Thread(target=self.pump, args=(c, u, None), daemon=True).start()
            threading.Thread(target=self.pump, args=(u, c, limit), daemon=True).start()

    @staticmethod
    def pump(a, b, limit):
        sent = 0
        try:
            while True:
                d = a.recv(4096)
                if not d:
                    break
                if limit is not None and sent + len(d) >= limit:
                    b.sendall(d[:max(0, limit - sent)])
                    break
                b.sendall(d)
                sent += len(d)
        except OSError:
            pass
        for s in (a, b):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


def case_retry():
    s = suite(WORK, "exact", SUITE_ELF, BENCHES)
    q, port = start_qemu(QEMU, SUITE_ELF)
    try:
        wait_listening(port)
        # through the proxy: connection 1 is the probe, 2 the first measuring one
        proxy = DropFirst(port, drop=2)
        r = rack(WORK, "retry", [
            {"name": "flaky", "board": "qemu-netduinoplus2", "suites": [s],
             "remote": f"127.0.0.1:{proxy.port}"}], retries=2)
        p, doc, _ = run_rack(BENCHRACK, r, WORK, timeout=120)
        print(f"proxy: {proxy.count} connections, number {proxy.drop} cut")
        by = boards_by_name(doc)
        f = by.get("flaky", {})
        suites = f.get("suites", [{}])
        failed = suites[0].get("failed_attempts", [])
        check(p.returncode == 0 and f.get("outcome") == "pass",
              "a board whose first connection is dropped passes", p.stdout[-800:] +
              p.stderr[-800:])
        check(len(failed) == 1 and suites[0].get("attempts") == 2 and
              f.get("health", {}).get("failed_attempts") == [],
              "the dropped measuring attempt is recorded with its reason, then retried",
              str(f))
        check(figures(suites[0]["run"]) == alone("qemu-netduinoplus2", s),
              "after the retry, the figures equal the board alone")
    finally:
        q.kill()
        q.wait()


def case_upload():
    """Labs post every run: a rack's runs go to the dashboards their suite
    names, like `benchrack run`'s (spooled first, never changing the exit code)."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "upload"))
    from servers import Receiver  # noqa: E402
    rcv = Receiver([(204, {}, b"")])
    try:
        s = suite(WORK, "posted", SUITE_ELF, ["empty", "nop1000"], iterations=20)
        with open(s, "a") as f:
            f.write("upload:\n  max_total_seconds: 10\n  sinks:\n"
                    f"    - {{name: hook, kind: webhook, url: 'http://127.0.0.1:{rcv.port}/h'}}\n")
        r = rack(WORK, "posting", [
            {"name": "np2-up", "board": "qemu-netduinoplus2", "suites": [s]},
            {"name": "nd2-up", "board": "qemu-netduino2", "suites": [s]}])
        p, doc, _ = run_rack(BENCHRACK, r, WORK, timeout=120)
        check(p.returncode == 0, "the posting rack passes", p.stdout[-800:] + p.stderr[-800:])
        by = boards_by_name(doc)
        runs = {}
        for name in ("np2-up", "nd2-up"):
            with open(run_path(doc, name), "rb") as f:
                runs[name] = f.read()
        bodies = [req["body"] for req in rcv.requests]
        check(len(rcv.requests) == 2 and all(req["method"] == "POST" for req in rcv.requests),
              "one POST per board's run", str([(q["method"], q["path"]) for q in rcv.requests]))
        check(sorted(bodies) == sorted(runs.values()),
              "each POST body is that board's run record on disk, byte for byte")
        spool = os.path.join(WORK, "results", "spool")
        left = [f for f in os.listdir(spool) if f.endswith(".json")] if os.path.isdir(spool) else []
        check(os.path.isdir(spool) and not left,
              "the runs went through the spool, and nothing is left there once delivered",
              str(left))
        check(all(by[n]["outcome"] == "pass" for n in runs), "both boards pass")
    finally:
        rcv.stop()


def descendants(root):
    """{pid: command name} of every living process below root (zombies,
    which hold nothing but an exit status, are not counted)."""
    children, names = {}, {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as f:
                stat = f.read()
        except OSError:
            continue
        comm = stat[stat.index("(") + 1:stat.rindex(")")]
        state, ppid = stat[stat.rindex(")") + 2:].split()[:2]
        if state != "Z":
            children.setdefault(int(ppid), []).append(int(entry))
            names[int(entry)] = comm
    out, todo = {}, [root]
    while todo:
        for k in children.get(todo.pop(), []):
            out[k] = names[k]
            todo.append(k)
    return out


def living(pids):
    """Those of pids still alive (not gone, not a zombie)."""
    alive = []
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as f:
                stat = f.read()
        except OSError:
            continue
        if stat[stat.rindex(")") + 2] != "Z":
            alive.append(pid)
    return alive


def case_kill9():
    # A bench that never returns: left alone, each worker would wait 60 s.
    stall = suite(WORK, "stalls", GATE_ELF, ["empty", "stall"], timeout=60)
    r = rack(WORK, "killed", [{"name": f"k{i}", "board": "qemu-netduinoplus2", "suites": [stall]}
                              for i in range(3)], parallel=3)
    s = suite(WORK, "quick", SUITE_ELF, ["empty", "nop1000"])
    entries = [{"name": f"k{i}", "board": "qemu-netduinoplus2", "suites": [s]} for i in range(3)]
    locks = os.path.join(WORK, "kill-locks")
    p, _ = run_rack(BENCHRACK, r, WORK, lock_dir=locks, background=True)
    tree = {}
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and p.poll() is None:
        tree = descendants(p.pid)
        if sum("qemu" in n for n in tree.values()) == 3:
            break
        time.sleep(0.05)
    qemus = [k for k, n in tree.items() if "qemu" in n]
    check(p.poll() is None and len(qemus) == 3,
          "the rack runs three workers, each with its QEMU", str(tree))
    os.kill(p.pid, signal.SIGKILL)
    p.communicate()
    time.sleep(2.0)
    left = living(tree)
    check(tree and not left, "2 s after kill -9 of the rack: none of its workers or QEMUs alive",
          str({k: tree[k] for k in left}))
    for k in left:
        os.kill(k, signal.SIGKILL)  # leave nothing behind for the next test
    held = sorted(f for f in os.listdir(locks) if f.endswith(".lock")) if os.path.isdir(locks) else []
    check(len(held) == 3, "the killed rack's locks are left behind", str(held))
    p2, doc, _ = run_rack(BENCHRACK, rack(WORK, "after", entries, parallel=3), WORK,
                          lock_dir=locks, timeout=180)
    by = boards_by_name(doc)
    check(p2.returncode == 0 and all(by[e["name"]]["outcome"] == "pass" for e in entries),
          "the next rack passes on the same boards", p2.stdout[-800:] + p2.stderr[-800:])
    taken = [n for n, b in by.items() if (b.get("lock") or {}).get("stale_taken_over")]
    said = [e["name"] for e in entries
            if re.search(rf"^(rack: )?{e['name']}:? .*took over a stale lock", p2.stdout + p2.stderr,
                         re.M)]
    check(sorted(taken) == ["k0", "k1", "k2"] and said == ["k0", "k1", "k2"],
          "and takes over the three stale locks, saying so", f"{taken}, said for {said}")


{"parallel": case_parallel, "isolation": case_isolation, "locking": case_locking,
 "retry": case_retry, "upload": case_upload, "kill9": case_kill9}[CASE]()
if not FAILED:
    for _ in range(3):  # a server's last files may still be landing
        shutil.rmtree(WORK, ignore_errors=True)
        if not os.path.exists(WORK):
            break
        time.sleep(0.2)
finish()
