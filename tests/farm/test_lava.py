#!/usr/bin/env python3
"""benchrack inside LAVA (issue 28), with Debian 12's own lava-dispatcher
(`lava-run`, no server; unpacked by tools/lava-dispatcher-unpack).

Two emulated boards, each a device of configs/lava's device type
(benchrack-gdbserver.jinja2) rendered with jinja2 as lava-server renders a
device dictionary: QEMU netduinoplus2 brought up halted by the device's
hard_reset, its gdbstub on a port of its own, its own working directory.
The job is configs/lava/benchrack-job.yaml.jinja2 rendered with the suite
firmware, the test definition configs/lava/benchrack-check.yaml from a git
repository of this tree's configs/. Both jobs run at once, then:

- LAVA's own results (the "results" records lava-run writes to its log,
  which lava-server stores as the job's results) hold every bench of configs/suites/default.yaml as a test case, result pass,
  with the README table's exact figure and the unit `instructions`; each
  job names its own board's directory, neither saw the other's runs;
- a third job on a device whose gdbserver is dead (hard_reset starts
  nothing) ends in a LAVA failure: benchrack exit 3 raised through
  lava-test-raise, no bench passes, the job's result is fail;
- a job of the default suite with nop1000's budget one instruction under
  its figure (benchrack's exit 1, a verdict): nop1000's case fails with its
  figure, the others pass, benchrack-exit fails with measurement 1, and the
  LAVA job itself passes;
- configs/lava/benchrack-rack.yaml, with benchrack from the worker's PATH,
  runs a rack whose one board is a device's QEMU (remote:): the same
  figures as LAVA cases <suite>.<board>.<bench>, the job passing;
- the shipped device dictionaries (the emulated one, the NUCLEO-F446RE on
  OpenOCD) render to a device LAVA's own schema accepts.

usage: test_lava.py SRCDIR BENCHRACK QEMU SUITE_ELF LAVA_DIR DEBIAN_PYTHON
(root: lava-run keeps its files in /var/lib/lava/dispatcher/tmp)
"""
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from farmlib import check, default_benches, finish  # noqa: E402
from lavalib import Lava, serve_dispatcher_tmp  # noqa: E402
from ports import HOST, free_port  # noqa: E402

SRC, BENCHRACK, QEMU, SUITE_ELF, LAVA_DIR, PY = sys.argv[1:7]
L = Lava(SRC, BENCHRACK, QEMU, LAVA_DIR, PY)
# job ids of this process alone: LAVA keeps a job's files in
# /var/lib/lava/dispatcher/tmp/ID and the overlay unpacks to /lava-ID
JOB_BASE = os.getpid() * 10
LAVA = L.configs


def start_job(work, job_id, device_yaml, job_yaml, dispatcher_yaml):
    out = os.path.join(work, f"out-{job_id}")
    os.makedirs(out)
    log = open(os.path.join(work, f"lava-run-{job_id}.log"), "w")
    cmd = L.program("lava-run") + ["--job-id", str(job_id), "--output-dir", out,
                                   "--device", device_yaml, "--dispatcher", dispatcher_yaml,
                                   job_yaml]
    return subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=L.env()), out, log.name


def wait_job(p):
    """Waits for a lava-run (killed after 4 minutes: its own timeouts are longer)."""
    try:
        p.wait(timeout=240)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()


def parse_log(path):
    """LAVA's results of a job as lava-run records them: each a JSON line of
    level "results" in its log (what lava-server stores as the job's
    results), as a list of dicts. The lines are YAML flow mappings (a
    measurement is tagged `! "1001.0"`)."""
    import yaml  # Debian's python3-yaml, which lava-run itself runs on
    entries = []
    with open(path) as f:
        for line in f:
            if '"lvl": "results"' not in line:
                continue
            try:
                doc = yaml.safe_load(line)
            except yaml.YAMLError:
                continue
            if isinstance(doc, dict) and doc.get("lvl") == "results":
                entries.append(doc["msg"])
    return entries


def check_passing_job(name, entries, definition, prefix, exit_case, benches, expected):
    """LAVA's results of a job that measured: a passing case PREFIX.BENCH
    per bench with its README figure and unit, benchrack's exit 0 as the
    passing case exit_case, and the job's own result pass."""
    ours = [e for e in entries if e.get("definition") == definition]
    got = {e["case"][len(prefix) + 1:]: e for e in ours if e["case"].startswith(prefix + ".")}
    for b in benches:
        e = got.get(b)
        ok = (e is not None and e.get("result") == "pass" and e.get("units") == "instructions"
              and e.get("measurement") is not None and float(e["measurement"]) == expected[b])
        check(ok, f"{name}: LAVA test case {prefix}.{b}: pass, {expected[b]} instructions "
              f"(got {e})")
    check(len(got) == len(benches), f"{name}: one LAVA test case per bench "
          f"({len(got)} of {len(benches)})")
    ends = [e for e in ours if e["case"] == exit_case]
    check(len(ends) == 1 and ends[0]["result"] == "pass",
          f"{name}: benchrack's exit 0 recorded as a passing case ({ends})")
    job = [e for e in entries if e.get("definition") == "lava" and e.get("case") == "job"]
    check(len(job) == 1 and job[0]["result"] == "pass", f"{name}: LAVA's job result pass ({job})")


def main():
    code = L.prepare("lava-run keeps its files in /var/lib/lava/dispatcher: run as root (CI does)")
    if code is not None:
        return code
    work = tempfile.mkdtemp(prefix="farm-lava-")
    envdir = os.path.join(work, "templates")
    os.makedirs(envdir)
    shutil.copy(os.path.join(LAVA, "device-types", "benchrack-gdbserver.jinja2"), envdir)
    shutil.copy(os.path.join(LAVA, "benchrack-job.yaml.jinja2"), envdir)
    for f in os.listdir(os.path.join(LAVA, "devices")):
        shutil.copy(os.path.join(LAVA, "devices", f), envdir)

    # the shipped device dictionaries render to devices LAVA's schema takes
    for shipped in sorted(os.listdir(os.path.join(LAVA, "devices"))):
        text = L.render([envdir], shipped)
        code = ("import sys, yaml\nfrom lava_common.schemas import device\n"
                "device.validate(yaml.safe_load(sys.stdin))\n")
        p = subprocess.run([PY, "-c", code], input=text, capture_output=True, text=True,
                           env=L.env())
        check(p.returncode == 0, f"shipped {shipped} renders to a device LAVA's schema accepts "
              f"{p.stderr.strip()[-300:]}")
    nucleo = L.render([envdir], "nucleo-f446re-1.jinja2")
    check("program {FIRMWARE} verify reset exit" in nucleo and "gdb_port 3333" in nucleo,
          "the NUCLEO-F446RE device flashes with OpenOCD's program and serves gdb on 3333")

    devices = {}
    for i, name in enumerate(["np2-a", "np2-b", "np2-dead"]):
        port = free_port()
        workdir = os.path.join(work, "devices", name)
        text = L.device_dictionary(port, workdir, dead=(name == "np2-dead"))
        with open(os.path.join(envdir, name + ".jinja2"), "w") as f:
            f.write(text)
        dev_yaml = os.path.join(work, name + ".yaml")
        with open(dev_yaml, "w") as f:
            f.write(L.render([envdir], name + ".jinja2"))
        devices[name] = (dev_yaml, workdir, port)

    rack = ("name: farm\nsuites: [../suites/default.yaml]\nboards:\n"
            f"  - {{name: np2-a, board: qemu-netduinoplus2, remote: '{HOST}:{devices['np2-a'][2]}'}}\n")
    # the default suite with nop1000's budget one instruction under its figure
    with open(os.path.join(SRC, "configs", "suites", "default.yaml")) as f:
        default_suite = f.read()
    tight = default_suite.replace("max_cycles_per_iteration: 1010}",
                                  "max_cycles_per_iteration: 1000}")
    repo = L.testdef_repo(work, {"configs/racks/farm.yaml": rack,
                                 "configs/suites/tight.yaml": tight})
    server, http_port = serve_dispatcher_tmp()
    dispatcher_yaml = os.path.join(work, "dispatcher.yaml")
    with open(dispatcher_yaml, "w") as f:
        f.write(f"dispatcher_ip: '{HOST}'\ndispatcher_http_ip: '{HOST}:{http_port}'\n")
    job_text = L.render([envdir], "benchrack-job.yaml.jinja2", lava_server=False,
                       firmware_url="file://" + SUITE_ELF,
                       testdef_repo="file://" + repo, job_name="benchrack default suite")
    job_yaml = os.path.join(work, "job.yaml")
    with open(job_yaml, "w") as f:
        f.write(job_text)
    rack_yaml = os.path.join(work, "rack-job.yaml")
    with open(rack_yaml, "w") as f:
        f.write(L.render([envdir], "benchrack-job.yaml.jinja2", lava_server=False,
                       firmware_url="file://" + SUITE_ELF,
                       testdef_repo="file://" + repo, job_name="benchrack rack",
                       rack="configs/racks/farm.yaml"))

    tight_yaml = os.path.join(work, "tight-job.yaml")
    with open(tight_yaml, "w") as f:
        f.write(L.render([envdir], "benchrack-job.yaml.jinja2", lava_server=False,
                         firmware_url="file://" + SUITE_ELF, testdef_repo="file://" + repo,
                         job_name="benchrack over budget", suite="configs/suites/tight.yaml"))

    benches, expected = default_benches(SRC)

    t0 = time.monotonic()
    jobs = {}
    for i, name in enumerate(["np2-a", "np2-b"]):
        jobs[name] = start_job(work, JOB_BASE + i, devices[name][0], job_yaml, dispatcher_yaml)
    for name, (p, _out, log) in jobs.items():
        wait_job(p)
    two = time.monotonic() - t0
    print(f"two jobs on two emulated boards, at once: {two:.1f} s")
    for name, (p, _out, log) in jobs.items():
        check(p.returncode == 0, f"{name}: lava-run exit {p.returncode} (log {log})")
        check_passing_job(name, parse_log(log), "0_benchrack-check",
                          "default.qemu-netduinoplus2", "benchrack-exit", benches, expected)
        runs = os.path.join(devices[name][1], "results", "runs")
        mine = os.listdir(runs) if os.path.isdir(runs) else []
        check(len(mine) == 1, f"{name}: its one run record in its own directory ({mine})")

    t0 = time.monotonic()
    p, _out, log = start_job(work, JOB_BASE + 2, devices["np2-dead"][0], job_yaml,
                             dispatcher_yaml)
    wait_job(p)
    dead = time.monotonic() - t0
    print(f"the job on the dead board: {dead:.1f} s")
    entries = parse_log(log)
    ours = [e for e in entries if e.get("definition") == "0_benchrack-check"]
    check(not any(e.get("result") == "pass" for e in ours),
          f"dead board: no bench passes ({ours})")
    job = [e for e in entries if e.get("definition") == "lava" and e.get("case") == "job"]
    check(len(job) == 1 and job[0]["result"] == "fail",
          f"dead board: LAVA's job result is fail ({job})")
    check(len(job) == 1 and "benchrack-exit-3" in job[0].get("error_msg", "")
          and job[0].get("error_type") == "Test",
          f"dead board: the job's error is benchrack's exit 3, raised through lava-test-raise ({job})")

    # benchrack's exit 1 (nop1000 over its budget): that bench's case fails
    # with its figure, the others pass, the exit a failing case; the job
    # itself goes on and passes (a verdict, not an infrastructure error)
    t0 = time.monotonic()
    p, _out, log = start_job(work, JOB_BASE + 4, devices["np2-a"][0], tight_yaml, dispatcher_yaml)
    wait_job(p)
    print(f"the job over budget on np2-a: {time.monotonic() - t0:.1f} s")
    entries = parse_log(log)
    ours = {e["case"]: e for e in entries if e.get("definition") == "0_benchrack-check"}
    for b in benches:
        e = ours.get(f"default.qemu-netduinoplus2.{b}")
        want = "fail" if b == "nop1000" else "pass"
        check(e is not None and e.get("result") == want
              and float(e.get("measurement") or -1) == expected[b],
              f"over budget: {b} {want}, {expected[b]} instructions ({e})")
    end = ours.get("benchrack-exit")
    check(end is not None and end.get("result") == "fail"
          and float(end.get("measurement") or -1) == 1,
          f"over budget: benchrack's exit 1 recorded as a failing case ({end})")
    job = [e for e in entries if e.get("definition") == "lava" and e.get("case") == "job"]
    check(len(job) == 1 and job[0]["result"] == "pass",
          f"over budget: the LAVA job itself completes ({job})")

    # configs/lava/benchrack-rack.yaml, benchrack from the worker's PATH, on
    # a rack whose one board is np2-a's QEMU at its remote: address
    t0 = time.monotonic()
    p, _out, log = start_job(work, JOB_BASE + 3, devices["np2-a"][0], rack_yaml, dispatcher_yaml)
    wait_job(p)
    print(f"benchrack-rack.yaml on np2-a: {time.monotonic() - t0:.1f} s")
    check(p.returncode == 0, f"rack job: lava-run exit {p.returncode} (log {log})")
    check_passing_job("rack job", parse_log(log), "0_benchrack-rack", "default.np2-a",
                      "benchrack-rack-exit", benches, expected)
    server.shutdown()
    for name in devices:
        L.power_off(devices[name][1])
    for i in range(5):
        shutil.rmtree(f"/lava-{JOB_BASE + i}", ignore_errors=True)
    return finish(work)


if __name__ == "__main__":
    sys.exit(main())
