#!/usr/bin/env python3
"""benchrack inside a whole LAVA (issue 28): Debian 12's lava-server 2023.01
(PostgreSQL, gunicorn serving the web UI, REST and XML-RPC APIs, the
lava-scheduler) in a Debian 12 root of its own (tests/farm/lava-server-root:
installing lava-server on the host would upgrade perl and systemd), run
under chroot; two lava-workers (Debian's lava-dispatcher, unpacked by
tools/lava-dispatcher-unpack) on this host, next to the boards, each owning
one emulated board of configs/lava's device type; the server reaches them
only through its HTTP API, as a lab's workers on other hosts do.

Opt-in: it needs a Debian mirror the first time (the root is kept in the
build tree, ~800 MB) and takes a few minutes; set BENCHRACK_LAVA_SERVER_TEST=1
(and be root). Then:

- three jobs of configs/lava/benchrack-job.yaml.jinja2 (the default suite),
  one submitted through lavacli (XML-RPC), two through the REST API
  (POST /api/v0.2/jobs/), are scheduled on the two devices of two workers:
  both devices used, never more than two running at once (the third
  queued), all Complete;
- LAVA's results API (GET /api/v0.2/jobs/ID/tests/) holds, for each,
  every bench of configs/suites/default.yaml as a test case of suite
  0_benchrack-check, result pass, with the README table's exact figure and
  unit `instructions`, and benchrack's exit 0 as the passing case
  benchrack-exit;
- a job on a device whose gdbserver is dead (the other two taken out
  through lavacli `devices update --health MAINTENANCE`) ends Incomplete,
  its results a failing lava.job case naming benchrack-exit-3 and no bench
  passing.

usage: test_lava_server.py SRCDIR BENCHRACK QEMU SUITE_ELF LAVA_DIR DEBIAN_PYTHON ROOT_TAR
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from farmlib import check, default_benches, finish  # noqa: E402
from lavalib import Lava, serve_dispatcher_tmp  # noqa: E402
from ports import HOST, connect, free_port  # noqa: E402

SRC, BENCHRACK, QEMU, SUITE_ELF, LAVA_DIR, PY, ROOT_TAR = sys.argv[1:8]
L = Lava(SRC, BENCHRACK, QEMU, LAVA_DIR, PY)
HERE = os.path.dirname(os.path.abspath(__file__))
OPT_IN = "BENCHRACK_LAVA_SERVER_TEST"
DEVICE_TYPE = "benchrack-gdbserver"


class Server:
    """lava-server in ROOT (a directory holding lava-server-root's tar):
    PostgreSQL on a free loopback port, gunicorn on another, the scheduler;
    every process started here in a session of its own, so stop() ends it
    and its children by process group."""

    def __init__(self, root, logs):
        self.root, self.logs = root, logs
        self.procs = []
        self.cluster = None
        self.mounted = False
        self.http_port = free_port()

    def run(self, *cmd, check_rc=True):
        """A command in the root; its stdout (raises on failure when check_rc)."""
        p = subprocess.run(["chroot", self.root, "/usr/bin/env", "LC_ALL=C.UTF-8", *cmd],
                           capture_output=True, text=True, timeout=300)
        if check_rc and p.returncode != 0:
            raise RuntimeError(f"in the LAVA root: {' '.join(cmd)}: exit {p.returncode}\n"
                               f"{p.stdout[-1500:]}{p.stderr[-1500:]}")
        return p.stdout

    def manage(self, *commands):
        """lava-server's management commands (each a list of arguments, as
        `lava-server manage ARGS...` takes them) run in one Django start-up;
        returns what each printed, in order."""
        code = ("import io, json\n"
                "from django.core.management import call_command\n"
                f"commands = json.loads({json.dumps(commands)!r})\n"
                "outs = []\n"
                "for args in commands:\n"
                "    out = io.StringIO()\n"
                "    call_command(*args, stdout=out)\n"
                "    outs.append(out.getvalue())\n"
                "print('BENCHRACK-OUTS ' + json.dumps(outs))\n")
        self.write("/tmp/benchrack-manage.py", code)
        out = self.run("lava-server", "manage", "shell", "-c",
                       "exec(open('/tmp/benchrack-manage.py').read())")
        return json.loads(out.split("BENCHRACK-OUTS ", 1)[1])

    def spawn(self, name, *cmd):
        log = open(os.path.join(self.logs, name + ".log"), "w")
        p = subprocess.Popen(["chroot", self.root, "/usr/bin/env", "LC_ALL=C.UTF-8", *cmd],
                             stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        self.procs.append(p)
        return p

    def write(self, path, text):
        with open(self.root + path, "w") as f:
            f.write(text)

    def start(self, setup):
        """Mounts, configures (setup(self) writes the device types, devices and
        workers' configuration) and starts PostgreSQL, gunicorn and the
        scheduler; returns once the REST API answers."""
        for what, args in (("proc", ["-t", "proc", "proc"]), ("dev", ["--rbind", "/dev"]),
                           ("sys", ["--rbind", "/sys"])):
            subprocess.run(["mount", *args, os.path.join(self.root, what)], check=True)
        self.mounted = True
        shutil.copy("/etc/resolv.conf", self.root + "/etc/resolv.conf")
        version, name = self.run("pg_lsclusters", "-h").split()[:2]
        self.cluster = (version, name)
        db_port = free_port()
        conf = f"/etc/postgresql/{version}/{name}/postgresql.conf"
        with open(self.root + conf) as f:
            text = f.read()
        self.write(conf, text.replace("port = 5432", f"port = {db_port}") +
                   "\nlisten_addresses = '127.0.0.1'\n")
        with open(self.root + "/etc/lava-server/settings.d/00-database.yaml") as f:
            text = f.read()
        self.write("/etc/lava-server/settings.d/00-database.yaml",
                   text.replace("PORT: 5432", f"PORT: {db_port}").replace(
                       'HOST: "localhost"', f'HOST: "{HOST}"'))
        setup(self)
        self.run("pg_ctlcluster", version, name, "start")
        self.spawn("gunicorn", "gunicorn3", "lava_server.wsgi", "--bind",
                   f"{HOST}:{self.http_port}", "--workers", "2", "--worker-class", "eventlet",
                   "-u", "lavaserver", "-g", "lavaserver", "--log-level", "INFO",
                   "--log-file", "-")
        self.spawn("lava-scheduler", "lava-server", "manage", "lava-scheduler", "--level",
                   "DEBUG", "--log-file", "-")
        connect(self.http_port, timeout=60, process=self.procs[0]).close()

    def stop(self):
        for p in self.procs:
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGTERM)
        for p in self.procs:
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()
        if self.cluster is not None:
            self.run("pg_ctlcluster", *self.cluster, "stop", check_rc=False)
        unmounted = True
        if self.mounted:
            for what in ("proc", "dev", "sys"):
                p = subprocess.run(["umount", "-R", os.path.join(self.root, what)])
                unmounted = unmounted and p.returncode == 0
        return unmounted


class Api:
    """LAVA's REST API (v0.2) with a user's token."""

    def __init__(self, port, token):
        self.base = f"http://{HOST}:{port}/api/v0.2/"
        self.token = token

    def call(self, path, data=None):
        req = urllib.request.Request(self.base + path,
                                     headers={"Authorization": "Token " + self.token,
                                              "Content-Type": "application/json"},
                                     data=None if data is None else json.dumps(data).encode())
        with urllib.request.urlopen(req, timeout=30) as r:
            return json.loads(r.read())

    def all(self, path):
        """Every item of a paginated list."""
        items, page = [], self.call(path + ("&" if "?" in path else "?") + "limit=500")
        items += page["results"]
        while page.get("next"):
            req = page["next"][len(self.base):]
            page = self.call(req)
            items += page["results"]
        return items


def start_worker(work, name, url, token):
    """lava-worker NAME on this host (its own directory, a 1 s ping)."""
    wdir = os.path.join(work, "worker-" + name)
    os.makedirs(wdir)
    log = open(os.path.join(work, f"lava-worker-{name}.log"), "w")
    return subprocess.Popen(L.program("lava-worker") + [
        "--name", name, "--url", url, "--token", token, "--worker-dir", wdir,
        "--ping-interval", "1", "--log-file", "-", "--level", "DEBUG"],
        stdout=log, stderr=subprocess.STDOUT, env=L.env(), start_new_session=True)


def wait_for(what, done, timeout):
    """done() until it returns a true value or timeout seconds pass (None)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = done()
        if value:
            return value
        time.sleep(1)
    print(f"timed out after {timeout} s waiting for {what}")
    return None


def job_results(api, job_id):
    """LAVA's results API for a job: {(suite name, case name): case}."""
    suites = {s["id"]: s["name"] for s in api.all(f"jobs/{job_id}/suites/")}
    return {(suites.get(c["suite"]), c["name"]): c for c in api.all(f"jobs/{job_id}/tests/")}


def check_complete_job(api, job, benches, expected):
    jid = job["id"]
    check(job["state"] == "Finished" and job["health"] == "Complete",
          f"job {jid} on {job['actual_device']}: Finished, Complete ({job['state']}, "
          f"{job['health']})")
    got = job_results(api, jid)
    for b in benches:
        c = got.get(("0_benchrack-check", f"default.qemu-netduinoplus2.{b}"))
        ok = (c is not None and c["result"] == "pass" and c["unit"] == "instructions"
              and c["measurement"] is not None and float(c["measurement"]) == expected[b])
        got_c = c and (c["result"], c["measurement"], c["unit"])
        check(ok, f"job {jid}: LAVA's results API: {b} pass, {expected[b]} instructions ({got_c})")
    ours = [k for k in got if k[0] == "0_benchrack-check" and k[1].startswith("default.")]
    check(len(ours) == len(benches), f"job {jid}: one test case per bench ({len(ours)})")
    end = got.get(("0_benchrack-check", "benchrack-exit"))
    check(end is not None and end["result"] == "pass",
          f"job {jid}: benchrack's exit 0 a passing case ({end and end['result']})")


def main():
    if os.environ.get(OPT_IN) != "1":
        print(f"opt-in (a few minutes; needs a Debian mirror once and ~2 GB): set {OPT_IN}=1")
        return 77
    code = L.prepare("lava-server runs under chroot and lava-worker in /var/lib/lava: run as root")
    if code is not None:
        return code
    t_start = time.monotonic()
    p = subprocess.run([os.path.join(HERE, "lava-server-root"), ROOT_TAR],
                       capture_output=True, text=True)
    if p.returncode != 0:
        print(f"lava-server-root {ROOT_TAR}: exit {p.returncode}\n{p.stderr}")
        return 1
    print(f"the LAVA server's root ready: {time.monotonic() - t_start:.1f} s")
    benches, expected = default_benches(SRC)

    work = tempfile.mkdtemp(prefix="farm-lava-server-")
    root = os.path.join(work, "root")
    os.makedirs(root)
    t0 = time.monotonic()
    subprocess.run(["tar", "-C", root, "-xf", ROOT_TAR], check=True)
    os.chmod(root, 0o755)
    print(f"unpacked: {time.monotonic() - t0:.1f} s")

    http_server, http_port = serve_dispatcher_tmp()
    devices = {"np2-a": ("w1", False), "np2-b": ("w2", False), "np2-dead": ("w2", True)}
    device_dirs = {d: os.path.join(work, "devices", d) for d in devices}

    def setup(server):
        cfg = "/etc/lava-server/dispatcher-config"
        shutil.copy(os.path.join(L.configs, "device-types", DEVICE_TYPE + ".jinja2"),
                    server.root + f"{cfg}/device-types/")
        for name, (_worker, dead) in devices.items():
            server.write(f"{cfg}/devices/{name}.jinja2",
                         L.device_dictionary(free_port(), device_dirs[name], dead=dead))
        # each worker's configuration, which lava-server reads only from
        # dispatcher.d, and the environment of its jobs (the server's own
        # env.yaml purges the worker's): lava-run from the unpacked packages
        env = L.env()
        for w in ("w1", "w2"):
            server.write(f"/etc/lava-server/dispatcher.d/{w}.yaml",
                         f"dispatcher_ip: '{HOST}'\ndispatcher_http_ip: '{HOST}:{http_port}'\n")
            os.makedirs(server.root + f"/etc/lava-server/dispatcher.d/{w}", exist_ok=True)
            server.write(f"/etc/lava-server/dispatcher.d/{w}/env.yaml", json.dumps({
                "purge": True,
                "overrides": {"LC_ALL": "C.UTF-8", "LANG": "C", "PYTHONPATH": env["PYTHONPATH"],
                              "PATH": os.path.join(L.lava_dir, "root", "usr", "bin") +
                              ":/usr/local/bin:/usr/local/sbin:/bin:/usr/bin:/usr/sbin:/sbin"}}))

    # meson's timeout sends SIGTERM: the finally below still unmounts
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("SIGTERM"))
    server = Server(root, work)
    workers = []
    job_ids = []
    try:
        t0 = time.monotonic()
        server.start(setup)
        commands = [["users", "add", "admin", "--superuser", "--staff", "--passwd", "admin"],
                    ["tokens", "add", "--user", "admin"],
                    ["workers", "add", "w1"], ["workers", "add", "w2"],
                    ["device-types", "add", DEVICE_TYPE]]
        for name, (w, dead) in devices.items():
            commands.append(["devices", "add", name, "--device-type", DEVICE_TYPE, "--worker", w]
                            + (["--offline"] if dead else []))
        outs = server.manage(*commands)
        token = outs[1].strip()
        wtokens = {w: outs[2 + i].strip().split("Token: ")[-1] for i, w in enumerate(("w1", "w2"))}
        url = f"http://{HOST}:{server.http_port}/"
        for w in ("w1", "w2"):
            workers.append(start_worker(work, w, url, wtokens[w]))
        api = Api(server.http_port, token)
        online = wait_for("both workers online", lambda: all(
            api.call(f"workers/{w}/")["state"] == "Online" for w in ("w1", "w2")), 90)
        check(bool(online), "both lava-workers online at the server")
        print(f"server and workers up: {time.monotonic() - t0:.1f} s")

        repo = L.testdef_repo(work)
        templates = [os.path.join(L.configs)]
        job = L.render(templates, "benchrack-job.yaml.jinja2", lava_server=False,
                       firmware_url="file://" + SUITE_ELF, testdef_repo="file://" + repo,
                       job_name="benchrack default suite")
        t0 = time.monotonic()
        lavacli = ["lavacli", "--uri", f"http://admin:{token}@{HOST}:{server.http_port}/RPC2"]
        server.write("/tmp/benchrack-job.yaml", job)
        out = server.run(*lavacli, "jobs", "submit",
                         "/tmp/benchrack-job.yaml").strip()
        if not out.isdigit():
            raise RuntimeError(f"lavacli jobs submit: {out}")
        job_ids.append(int(out))
        for _ in range(2):
            job_ids += api.call("jobs/", {"definition": job})["job_ids"]
        print(f"submitted jobs {job_ids} (lavacli, REST, REST)")
        finished = wait_for("the three jobs", lambda: [
            j for j in (api.call(f"jobs/{i}/") for i in job_ids) if j["state"] == "Finished"
        ] if all(api.call(f"jobs/{i}/")["state"] == "Finished" for i in job_ids) else None,
            600)
        print(f"three jobs on two boards of two workers: {time.monotonic() - t0:.1f} s")
        check(bool(finished), "the three jobs finish")
        finished = finished or [api.call(f"jobs/{i}/") for i in job_ids]
        used = {j["actual_device"] for j in finished}
        check(used == {"np2-a", "np2-b"}, f"the jobs were split across both devices ({used})")
        spans = [(j["start_time"], j["end_time"]) for j in finished]
        overlap = max(sum(1 for s2, e2 in spans if s2 and e2 and s2 <= s and s < e2)
                      for s, _e in spans if s)
        check(overlap <= 2, f"never more than two jobs running at once ({spans})")
        starts = sorted(spans)
        check(all(s and e for s, e in starts) and starts[-1][0] >= min(e for _s, e in starts[:2]),
              f"the third job waited in the queue for a board to be free ({starts})")
        for j in finished:
            check_complete_job(api, j, benches, expected)

        # the dead board: the only device left in service
        t0 = time.monotonic()
        server.run(*lavacli, "devices", "update", "--health", "MAINTENANCE", "np2-a")
        server.run(*lavacli, "devices", "update", "--health", "MAINTENANCE", "np2-b")
        server.run(*lavacli, "devices", "update", "--health", "GOOD", "np2-dead")
        dead_id = api.call("jobs/", {"definition": job})["job_ids"][0]
        job_ids.append(dead_id)
        dead = wait_for("the dead board's job", lambda: (lambda j: j if j["state"] == "Finished"
                                                          else None)(api.call(f"jobs/{dead_id}/")),
                        300)
        print(f"the job on the dead board: {time.monotonic() - t0:.1f} s")
        dead = dead or api.call(f"jobs/{dead_id}/")
        check(dead["actual_device"] == "np2-dead" and dead["health"] == "Incomplete",
              f"dead board: the job ran on np2-dead and ended Incomplete "
              f"({dead['actual_device']}, {dead['health']})")
        got = job_results(api, dead_id)
        passing = [k for k, c in got.items() if k[0] == "0_benchrack-check"
                   and c["result"] == "pass"]
        check(not passing, f"dead board: no bench passes ({passing})")
        lava_job = got.get(("lava", "job"))
        meta = json.dumps(lava_job.get("metadata") if lava_job else None)
        check(lava_job is not None and lava_job["result"] == "fail" and "benchrack-exit-3" in meta,
              f"dead board: LAVA's job case fails naming benchrack-exit-3 ({meta})")
    except (RuntimeError, urllib.error.URLError, OSError, KeyError, ValueError) as e:
        check(False, f"the LAVA server run: {e}")
    finally:
        for p in workers:
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGTERM)
        for p in workers:
            try:
                p.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()
        # a mount left in the root keeps the work folder (and the host's
        # /dev) from being removed: the check fails, finish() keeps it
        check(server.stop(), "the LAVA root's proc, dev and sys unmounted")
        http_server.shutdown()
        for d in device_dirs.values():
            L.power_off(d)
        for i in job_ids:
            shutil.rmtree(f"/lava-{i}", ignore_errors=True)
            shutil.rmtree(f"/var/lib/lava/dispatcher/tmp/{i}", ignore_errors=True)
        # the logs stay with a failed run; the 2 GB root never
        for log in ("lava-server/django.log",):
            if os.path.exists(os.path.join(root, "var/log", log)):
                shutil.copy(os.path.join(root, "var/log", log), work)
        subprocess.run(["rm", "-rf", "--one-file-system", root])
    print(f"whole test: {time.monotonic() - t_start:.1f} s")
    return finish(work)


if __name__ == "__main__":
    sys.exit(main())
