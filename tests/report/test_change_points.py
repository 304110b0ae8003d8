#!/usr/bin/env python3
"""The report marks change points in each bench's history (issue 24): a
results folder of 50 runs in which the first bench becomes 3 % slower from
run 30 on (commit sha1('commit <0xabc000 + 30>') by gen_records.py), and the
other benches stay level:
- the page's data names exactly one change point, for that bench, at run 30,
  with its commit and the levels either side (about +3 %);
- none for the other benches;
- in headless Chromium the bench's history chart has the change-point marks
  and says, under the chart, from which run and commit;
- a history of 50 level runs has none.

usage: test_change_points.py BENCHRACK SCHEMA
"""
import hashlib
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cdp  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
failures = []


def check(cond, what):
    print(('ok   ' if cond else 'FAIL ') + what)
    if not cond:
        failures.append(what)
    return cond


def page_of(benchrack, tmp, name, extra):
    results = os.path.join(tmp, name)
    subprocess.run([sys.executable, os.path.join(HERE, 'gen_records.py'), results, '--runs', '50',
                    '--benches', '3', '--samples', '40', '--no-drift', '--schema', SCHEMA] + extra,
                   check=True)
    page = os.path.join(tmp, name + '.html')
    p = subprocess.run([benchrack, 'report', '--results-dir', results, '-o', page],
                       capture_output=True, text=True)
    check(p.returncode == 0, '%s: benchrack report exits 0 (%d: %s)' % (name, p.returncode, p.stderr))
    return page


BENCHRACK, SCHEMA = sys.argv[1:3]
with tempfile.TemporaryDirectory() as tmp:
    stepped = page_of(BENCHRACK, tmp, 'step', ['--step', '30:3'])
    level = page_of(BENCHRACK, tmp, 'level', [])
    commit = hashlib.sha1(b'commit %d' % (0xabc000 + 30)).hexdigest()
    with cdp.Browser(width=1280, height=900) as b:
        b.network_off()
        b.open(stepped)
        check(b.eval('document.documentElement.dataset.rendered') == 'ok', 'the page rendered')
        data = b.eval('JSON.parse(document.getElementById("benchrack-data").textContent)')
        names = [x['name'] for x in data['runs'][0]['benches']]
        cps = data['change_points']
        print('change points:', cps)
        first = [c for c in cps if c['bench'] == names[0]]
        check(len(first) == 1, 'one change point in %s\'s history (%d)' % (names[0], len(first)))
        if first:
            c = first[0]
            run = data['runs'][c['run']]
            check(c['run'] == 30 and run['firmware']['git_commit'] == commit == c['commit'],
                  'at run 30, commit %s (run %d, %s)' % (commit[:12], c['run'], c['commit']))
            check(2.5 < c['percent'] < 3.5, 'a step of about +3 %% (%.2f %%)' % c['percent'])
        check(not [c for c in cps if c['bench'] != names[0]], 'none for the level benches')
        notes = b.eval('[...document.querySelectorAll("figure[data-kind=history][data-bench=\'%s\'] '
                       '.change-point")].map(e => e.textContent)' % names[0])
        check(len(notes) == 1 and commit in notes[0],
              'the history of %s says where: %s' % (names[0], notes))
        marks = b.eval('''(() => { const f = document.querySelector(
            "figure[data-kind=history][data-bench='%s'] canvas");
            const c = f && Chart.getChart(f); if (!c) return [];
            return c.data.datasets.filter(d => d.steps).map(d => d.data.filter(v => v !== null).length);
            })()''' % names[0])
        check(marks == [1], 'its chart marks the change point (%s)' % marks)
        b.open(level)
        data = b.eval('JSON.parse(document.getElementById("benchrack-data").textContent)')
        check(data['change_points'] == [], 'a level history has no change point: %s' %
              data['change_points'])
        check(b.eval('document.querySelectorAll(".change-point").length') == 0,
              'and the page shows none')
print('%d failed' % len(failures))
sys.exit(1 if failures else 0)
