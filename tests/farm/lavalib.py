"""What the LAVA tests share (test_lava.py: lava-run alone;
test_lava_server.py: lava-server, its scheduler and two lava-workers):
Debian's unpacked lava-dispatcher, device dictionaries of configs/lava's
device type for emulated boards, the test definitions' git repository and
the worker's http server for LAVA's overlay."""
import http.server
import os
import shutil
import subprocess
import threading

from ports import HOST


class Lava:
    """The paths a LAVA test runs with: SRC the source tree, BENCHRACK and
    QEMU the programs, LAVA_DIR the unpacked dispatcher
    (tools/lava-dispatcher-unpack), PY Debian's python3."""

    def __init__(self, src, benchrack, qemu, lava_dir, py):
        self.src, self.benchrack, self.qemu, self.lava_dir, self.py = (
            src, benchrack, qemu, lava_dir, py)
        self.configs = os.path.join(src, "configs", "lava")

    def prepare(self, why_root):
        """None when the test can go on: run as root (else why_root is
        printed and 77, a skip, returned) and tools/lava-dispatcher-unpack
        done into LAVA_DIR (else what failed is printed and 1 returned)."""
        if os.geteuid() != 0:
            print(why_root)
            return 77
        p = subprocess.run([os.path.join(self.src, "tools", "lava-dispatcher-unpack"),
                            self.lava_dir], capture_output=True, text=True)
        if p.returncode != 0:
            print(f"tools/lava-dispatcher-unpack {self.lava_dir}: exit {p.returncode}: {p.stderr}")
            return 1
        return None

    def env(self):
        """The environment lava-run and lava-worker run in: the unpacked
        packages on PYTHONPATH."""
        return dict(os.environ,
                    PYTHONPATH=os.path.join(self.lava_dir, "shim") + ":" +
                    os.path.join(self.lava_dir, "root", "usr", "lib", "python3", "dist-packages"))

    def program(self, name):
        """[python, path] of one of the dispatcher's programs (lava-run, lava-worker)."""
        return [self.py, os.path.join(self.lava_dir, "root", "usr", "bin", name)]

    def render(self, dirs, template, lava_server=True, **values):
        """template (a file name under one of dirs) rendered as lava-server
        renders device dictionaries and device types (lava_server: its
        sandboxed environment with trim_blocks, lava_scheduler_app/
        environment.py), or else as a CI renders a job template (plain jinja2)."""
        import json
        code = (
            "import sys, json, jinja2, jinja2.sandbox\n"
            "dirs, name, server, values = json.loads(sys.argv[1])\n"
            "kind = jinja2.sandbox.SandboxedEnvironment if server else jinja2.Environment\n"
            "env = kind(loader=jinja2.FileSystemLoader(dirs), autoescape=False,\n"
            "           trim_blocks=server, undefined=jinja2.StrictUndefined)\n"
            "sys.stdout.write(env.get_template(name).render(**values))\n")
        p = subprocess.run([self.py, "-c", code, json.dumps([dirs, template, lava_server, values])],
                           capture_output=True, text=True)
        if p.returncode != 0:
            raise RuntimeError(f"rendering {template}: {p.stderr}")
        return p.stdout

    def device_dictionary(self, port, workdir, dead=False):
        """A device dictionary of the benchrack-gdbserver type: an emulated
        board (QEMU netduinoplus2, halted, its gdbstub on HOST:port) with its
        own working directory; dead: its power starts nothing, nobody
        listens on the port."""
        lines = ["{% extends 'benchrack-gdbserver.jinja2' %}",
                 "{% set benchrack_board = 'qemu-netduinoplus2' %}",
                 f"{{% set gdbserver = '{HOST}:{port}' %}}",
                 "{% set flavour = 'qemu' %}",
                 f"{{% set workdir = '{workdir}' %}}",
                 f"{{% set benchrack_tools = '{self.configs}' %}}",
                 f"{{% set benchrack_bindir = '{os.path.dirname(self.benchrack)}' %}}"]
        if dead:
            lines.append("{% set gdbserver_command = 'true' %}")
            lines.append("{% set hard_reset_command = 'true' %}")
        else:
            qemu = (f"{self.qemu} -M netduinoplus2 -icount shift=0 -display none -monitor none "
                    f"-serial null -S -gdb tcp:{HOST}:{port} -kernel {workdir}/firmware.elf")
            lines.append(f"{{% set gdbserver_command = {qemu!r} %}}")
        return "\n".join(lines) + "\n"

    def power_off(self, workdir):
        """Stops what a device's power started (its QEMU), if anything."""
        subprocess.run(["bash", os.path.join(self.configs, "benchrack-gdbserver"), "stop",
                        workdir])

    def testdef_repo(self, work, files=None):
        """A git repository holding this tree's configs/ (the test
        definitions and the suite) and files ({path in the repository:
        text}, e.g. a rack file), as a lab's LAVA jobs name benchrack's
        repository."""
        repo = os.path.join(work, "benchrack.git")
        shutil.copytree(os.path.join(self.src, "configs"), os.path.join(repo, "configs"))
        for path, text in (files or {}).items():
            with open(os.path.join(repo, path), "w") as f:
                f.write(text)
        git = ["git", "-C", repo, "-c", "user.name=t", "-c", "user.email=t@example.net"]
        subprocess.run(["git", "init", "-q", "-b", "main", repo], check=True)
        subprocess.run(git + ["add", "-A"], check=True)
        subprocess.run(git + ["commit", "-q", "-m", "configs"], check=True)
        return repo


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def serve_dispatcher_tmp():
    """The worker's http server for LAVA's overlay (apache on a real worker):
    /tmp/... of /var/lib/lava/dispatcher, on a loopback port; returns
    (server, port)."""
    root = "/var/lib/lava/dispatcher"
    os.makedirs(os.path.join(root, "tmp"), exist_ok=True)
    handler = lambda *a, **k: Quiet(*a, directory=root, **k)  # noqa: E731
    server = http.server.ThreadingHTTPServer((HOST, 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, server.server_address[1]
