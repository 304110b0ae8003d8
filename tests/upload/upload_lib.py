"""What the upload tests share: running benchrack (every output kept, so the
token can be looked for in all of them), writing upload configs, reading
the spool, and a checker that prints one line per assertion."""
import json
import os
import subprocess
import time

TIMEOUT_S = 120


class Checker:
    def __init__(self):
        self.failures = 0

    def check(self, cond, what, detail=""):
        print(("ok   " if cond else "FAIL ") + what, flush=True)
        if not cond:
            self.failures += 1
            if detail:
                print("     " + str(detail).replace("\n", "\n     "), flush=True)
        return cond

    def finish(self):
        print(f"{self.failures} failed")
        return 1 if self.failures else 0


class Bench:
    """benchrack with a fixed environment; every stdout and stderr kept."""

    def __init__(self, exe, env=None):
        self.exe = exe
        self.env = dict(os.environ)
        for k in ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY",
                  "all_proxy"):
            self.env.pop(k, None)
        self.env.update(env or {})
        self.outputs = {}

    def __call__(self, args, timeout=TIMEOUT_S):
        """(exit code, stdout, stderr, seconds)."""
        start = time.monotonic()
        p = subprocess.run([self.exe] + args, capture_output=True, text=True, env=self.env,
                           timeout=timeout)
        took = time.monotonic() - start
        n = len(self.outputs)
        self.outputs[f"stdout #{n} of {args[:1]}"] = p.stdout
        self.outputs[f"stderr #{n} of {args[:1]}"] = p.stderr
        return p.returncode, p.stdout, p.stderr, took


def yaml_str(s):
    """s as a YAML double-quoted scalar (JSON strings are)."""
    return json.dumps(s, ensure_ascii=False)


def write_config(path, sinks, **top):
    """An upload config file: top-level keys and a list of sinks (dicts)."""
    lines = [f"{k}: {v}" for k, v in top.items()]
    lines.append("sinks:")
    for s in sinks:
        items = []
        for k, v in s.items():
            if isinstance(v, list):
                items.append(f"{k}: [{', '.join(v)}]")
            else:
                items.append(f"{k}: {yaml_str(v) if isinstance(v, str) else v}")
        lines.append("  - {" + ", ".join(items) + "}")
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    return path


def spool_items(results_dir, which="spool"):
    """{id: item} of RESULTS/spool (or rejected)."""
    d = os.path.join(results_dir, which)
    out = {}
    if os.path.isdir(d):
        for n in sorted(os.listdir(d)):
            if n.endswith(".json") and not n.startswith("."):
                with open(os.path.join(d, n), encoding="utf-8") as f:
                    out[n[:-5]] = json.load(f)
    return out


def plant(results, name, sink, kind, url, token_env):
    """Drops a spool item into RESULTS/spool, as an attacker could: its own URL
    and its own variable as the token's source."""
    item = {"spool_version": 1, "id": name, "sink": sink, "kind": kind,
            "run_file": "/nonexistent.json", "spooled": "2026-11-29T12:00:00.000Z",
            "method": "POST", "url": url, "content_type": "application/json",
            "idempotency_key": "planted-" + name,
            "auth": {"scheme": "bearer", "header": None, "username": None,
                     "token_env": token_env, "token_file": None},
            "ca_file": None, "connect_timeout_ms": 2000, "timeout_ms": 5000, "attempts": 0,
            "last_error": None, "not_before": None, "rejected": None, "body": "{}"}
    os.makedirs(os.path.join(results, "spool"), exist_ok=True)
    path = os.path.join(results, "spool", name + ".json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(item, f)
    return path
