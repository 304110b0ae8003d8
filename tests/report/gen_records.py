#!/usr/bin/env python3
"""Writes a results folder of made-up but well-formed run records (schema 3,
results/SCHEMA.md) for the report tests and benchmark: RUNS runs of BENCHES
benches on one simulated board, with a slow drift, noise, a few outliers, a
regression in the last run, and a baseline (results/baselines/<board>.json).

    gen_records.py OUT_DIR --runs N --benches M [--samples S] [--seed K]
                   [--board NAME] [--schema results/schema/benchrack.schema.json]
                   [--step RUN:PERCENT] [--no-drift]

--step makes the first bench PERCENT slower from run RUN on (and no last-run
regression), --no-drift leaves out the slow drift: a history with one step.

The figures of each bench (median, percentiles, MAD, outliers) are computed
from its samples the way results/SCHEMA.md defines them, so a record reads
back exactly as benchrack would have written it. With --schema every record
is validated against the JSON Schema (python3-jsonschema) before it is kept.
"""
import argparse
import hashlib
import json
import os
import random


def percentile(sorted_values, p):
    """Linear interpolation between closest ranks (SCHEMA.md, type 7)."""
    n = len(sorted_values)
    h = (n - 1) * p / 100.0
    k = int(h)
    if k + 1 >= n:
        return float(sorted_values[-1])
    return sorted_values[k] + (h - k) * (sorted_values[k + 1] - sorted_values[k])


def number(v):
    """Whole numbers as integers, as benchrack writes them."""
    return int(v) if float(v).is_integer() else round(v, 6)


def summary(samples):
    s = sorted(samples)
    n = len(s)
    med = percentile(s, 50)
    mean = sum(s) / n
    sd = (sum((x - mean) ** 2 for x in s) / (n - 1)) ** 0.5 if n > 1 else 0.0
    mad = percentile(sorted(abs(x - med) for x in s), 50)
    return {
        'n': n, 'median': number(med), 'p10': number(percentile(s, 10)),
        'p90': number(percentile(s, 90)), 'p95': number(percentile(s, 95)),
        'p99': number(percentile(s, 99)), 'min': s[0], 'max': s[-1],
        'mean': number(min(max(mean, s[0]), s[-1])), 'mad': number(mad),
        'cv_median': number(min(sd / abs(med), 10.0) if med else (0 if sd == 0 else 10)),
        'outliers': sum(1 for x in s if abs(x - med) > 5 * mad),
    }


def bench_record(name, base, rng, samples, drift, regress, with_samples):
    centre = base * (1 + drift) * (1.08 if regress else 1.0)
    values = [max(1, int(round(rng.gauss(centre, base * 0.004)))) for _ in range(samples)]
    for i in rng.sample(range(samples), k=min(samples, 2)):
        values[i] = int(centre * rng.uniform(1.15, 1.4))  # an interrupt, a cache miss
    st = summary(values)
    rec = {'name': name, 'status': 'measured', 'reason': None, 'mode': 'stub', 'elf': None,
           'warmup': 2, 'n': st['n']}
    for k in ('median', 'p10', 'p90', 'p95', 'p99', 'min', 'max', 'mean', 'mad', 'cv_median',
              'outliers'):
        rec[k] = st[k]
    rec['stack_bytes'] = 40 + 8 * (len(name) % 7)
    rec['heap'] = {'peak_bytes': 32 if 'alloc' in name else 0, 'live_bytes': 0,
                   'allocations': 1 if 'alloc' in name else 0}
    rec['calibration'] = {'method': "the stub's loop overhead (bench empty)", 'median': 1}
    rec['budgets'] = {'max_stack_bytes': 72, 'max_heap_bytes': 64,
                      'max_cycles_per_iteration': int(base * 1.5)}
    if with_samples:
        rec['wall_seconds'] = 0.01
        rec['samples'] = values
    return rec


def record(kind, stamp, board, benches, commit, text):
    return {
        'schema_version': 3, 'kind': kind, 'status': 'complete', 'error': None,
        'timestamp': stamp, 'benchrack_version': '0.1.0', 'host': 'sim',
        'suite': 'sim', 'suite_path': 'configs/suites/sim.yaml', 'board': board,
        'server': 'simulated', 'counter': {'name': 'dwt', 'unit': 'cycles', 'clock_hz': 168000000},
        'firmware': {'path': '/nonexistent/suite-O2.elf',
                     'build_id': hashlib.sha1(b'build %d' % commit).hexdigest(),
                     'git_commit': hashlib.sha1(b'commit %d' % commit).hexdigest(), 'toolchain': 'GCC 12.2.1',
                     'text_bytes': text, 'data_bytes': 864, 'bss_bytes': 6664},
        'fail_on_regression_percent': 2,
        'budgets': {'max_stack_bytes': 72, 'max_heap_bytes': 64, 'max_text_bytes': 8192},
        'benches': benches,
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('out')
    ap.add_argument('--runs', type=int, default=5)
    ap.add_argument('--benches', type=int, default=4)
    ap.add_argument('--samples', type=int, default=100)
    ap.add_argument('--seed', type=int, default=14)
    ap.add_argument('--board', default='sim-board')
    ap.add_argument('--schema')
    ap.add_argument('--step', help='RUN:PERCENT: the first bench %% slower from run RUN on')
    ap.add_argument('--no-drift', action='store_true', help='no slow drift over the runs')
    a = ap.parse_args()
    step_run, step = (int(a.step.split(':')[0]), float(a.step.split(':')[1]) / 100) if a.step \
        else (None, 0.0)
    rng = random.Random(a.seed)
    names = ['crc32_%d' % (64 << i) if i < 4 else 'bench_%02d' % i for i in range(a.benches)]
    if a.benches > 1:
        names[1] = 'malloc_free'
    bases = [300 + 977 * i for i in range(a.benches)]
    validate = None
    if a.schema:
        import jsonschema
        with open(a.schema) as f:
            schema = json.load(f)
        validate = lambda doc: jsonschema.validate(doc, schema)  # noqa: E731
    os.makedirs(os.path.join(a.out, 'runs'), exist_ok=True)
    os.makedirs(os.path.join(a.out, 'baselines'), exist_ok=True)
    for r in range(a.runs):
        last = r == a.runs - 1
        drift = 0.0 if a.no_drift else 0.002 * (r % 9)
        benches = [bench_record(n, bases[i] * (1 + step if i == 0 and step_run is not None and
                                               r >= step_run else 1), rng, a.samples, drift,
                                last and i == 0 and step_run is None, True)
                   for i, n in enumerate(names)]
        stamp = '2026-11-%02dT%02d:%02d:00Z' % (1 + r // 96, (r // 4) % 24, (r % 4) * 15)
        doc = record('run', stamp, a.board, benches, 0xabc000 + r, 4084 + 16 * r)
        if validate:
            validate(doc)
        name = stamp.replace('-', '').replace(':', '').replace('Z', '.000Z')
        with open(os.path.join(a.out, 'runs', '%s-%s.json' % (name, a.board)), 'w') as f:
            json.dump(doc, f, indent=2)
    benches = [bench_record(n, bases[i], rng, a.samples, 0.0, False, False)
               for i, n in enumerate(names)]
    doc = record('baseline', '2026-10-31T00:00:00Z', a.board, benches, 0xabbfff, 4084)
    if validate:
        validate(doc)
    with open(os.path.join(a.out, 'baselines', a.board + '.json'), 'w') as f:
        json.dump(doc, f, indent=2)


if __name__ == '__main__':
    main()
