#!/usr/bin/env python3
"""`benchrack report` renders in Debian's headless Chromium (issue 14):
a results folder of several runs and a baseline becomes one page that
- fetches nothing (no http(s) source or link; opened from file:// with the
  network off, the page asks for no URL but itself),
- runs without a script error, console error or warning,
- names every bench, and draws at least one chart of each kind,
- embeds data equal to the run records, and draws those values,
- and leaves screenshots (wide, narrow, print) in the build folder for a
  person to look at.

Profiles given with --profile (folded stacks, and a speedscope file with a
sampled and an evented profile) become flame graphs whose weights are the
files'.

usage: test_report_page.py BENCHRACK BUILD_DIR CHART_JS D3_JS SCHEMA
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cdp  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
FETCH = re.compile(r'''(?:\b(?:src|href|action|poster|srcset)\s*=\s*["']?\s*|url\(\s*["']?\s*|@import\s+["']?|fetch\(\s*["']|open\(\s*["'][A-Z]+["']\s*,\s*["'])https?://''', re.I)

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print('FAIL: ' + what)
    return cond


def write_profiles(tmp):
    """A folded file and a speedscope file (sampled and evented profiles); returns
    their paths and, per profile, the total weight and the weight of each stack."""
    stacks = {'main;crc32_update': 300, 'main;crc32_update;crc32_byte': 900, 'main;memcpy': 120,
              'main': 10, 'isr;tim2_handler': 45}
    folded = os.path.join(tmp, 'calls.folded')
    with open(folded, 'w') as f:
        for k, v in stacks.items():
            f.write('%s %d\n' % (k, v))
    frames = ['main', 'crc32_update', 'crc32_byte', 'memcpy']
    samples = [[0, 1, 2], [0, 1], [0, 1, 2], [0, 3], [0]]
    weights = [5, 3, 7, 2, 1]
    sampled = {}
    for st, w in zip(samples, weights):
        key = ';'.join(frames[i] for i in st)
        sampled[key] = sampled.get(key, 0) + w
    # main opens at 0, crc32_update 10..40 (crc32_byte 20..35), memcpy 50..60, main closes at 100
    events = [('O', 0, 0), ('O', 1, 10), ('O', 2, 20), ('C', 2, 35), ('C', 1, 40), ('O', 3, 50),
              ('C', 3, 60), ('C', 0, 100)]
    evented = {'main': 10 + 10 + 40, 'main;crc32_update': 10 + 5, 'main;crc32_update;crc32_byte': 15,
               'main;memcpy': 10}
    doc = {'$schema': 'https://www.speedscope.app/file-format-schema.json',
           'shared': {'frames': [{'name': n} for n in frames]},
           'profiles': [
               {'type': 'sampled', 'name': 'sampled run', 'unit': 'none', 'startValue': 0,
                'endValue': 18, 'samples': samples, 'weights': weights},
               {'type': 'evented', 'name': 'evented run', 'unit': 'nanoseconds', 'startValue': 0,
                'endValue': 100, 'events': [{'type': t, 'frame': fr, 'at': at} for t, fr, at in events]}],
           'name': 'test', 'exporter': 'test_report_page.py'}
    speedscope = os.path.join(tmp, 'run.speedscope.json')
    with open(speedscope, 'w') as f:
        json.dump(doc, f)
    totals = [{'total': sum(d.values()), 'stacks': d} for d in (stacks, sampled, evented)]
    return folded, speedscope, totals


def bad_inputs(benchrack, tmp, results):
    """Inputs that do not read: exit 2, naming the file and the place, and no page."""
    def bad(name, text):
        path = os.path.join(tmp, name)
        with open(path, 'w') as f:
            f.write(text)
        return path
    out = os.path.join(tmp, 'never.html')
    for args, words in (
            (['--profile', bad('bad.folded', 'main;a 3\nmain;b three\n')], ['bad.folded:2:', 'count']),
            (['--profile', bad('bad.speedscope.json', json.dumps(
                {'shared': {'frames': [{'name': 'a'}]},
                 'profiles': [{'type': 'sampled', 'name': 'x', 'unit': 'none', 'samples': [[0, 1]],
                               'weights': [1]}]}))], ['bad.speedscope.json:', 'frame index']),
            (['--rack', bad('bad-rack.json', '{"kind": "rack", "name": "r", "exit_code": 0}')],
             ['bad-rack.json', '"boards" missing']),
            (['--rack', bad('not-rack.json', '{"kind": "run"}')], ['not-rack.json:1:', '"rack"']),
            (['--results-dir', os.path.join(tmp, 'empty')], ['nothing to report'])):
        p = subprocess.run([benchrack, 'report'] + args + ['-o', out], capture_output=True, text=True)
        check(p.returncode == 2 and all(w in p.stderr for w in words) and not os.path.exists(out),
              'report %s: exit 2 naming %s (got %d: %s)' % (args[0], words, p.returncode, p.stderr.strip()))
    p = subprocess.run([benchrack, 'report', '--results-dir', results], capture_output=True, text=True)
    check(p.returncode == 2 and '-o' in p.stderr, 'report without -o: exit 2 (%s)' % p.stderr.strip())


def main():
    benchrack, build_dir, chart_js, d3_js, schema = sys.argv[1:6]
    tmp = tempfile.mkdtemp(prefix='benchrack-report-')
    results = os.path.join(tmp, 'results')
    subprocess.run([sys.executable, os.path.join(HERE, 'gen_records.py'), results, '--runs', '6',
                    '--benches', '5', '--schema', schema], check=True)
    folded, speedscope, profile_totals = write_profiles(tmp)
    page = os.path.join(build_dir, 'report-page.html')
    p = subprocess.run([benchrack, 'report', '--results-dir', results, '--profile', folded,
                        '--profile', speedscope, '-o', page], capture_output=True, text=True)
    check(p.returncode == 0, 'benchrack report exits 0 (got %d: %s)' % (p.returncode, p.stderr))
    html = open(page, encoding='utf-8').read()
    bad_inputs(benchrack, tmp, results)

    # Nothing to fetch: no http(s) source or link anywhere, and outside the
    # inlined library (whose licence comment names its home page) no http(s) at all.
    check(not FETCH.search(html), 'no http(s) source or link to fetch: %s' %
          (FETCH.search(html).group(0) if FETCH.search(html) else ''))
    own = html
    for name, path in (('Chart.js', chart_js), ('d3', d3_js)):
        lib = open(path, encoding='utf-8').read()
        check(lib in html, '%s is inlined whole' % name)
        own = own.replace(lib, '')
    check('http://' not in own and 'https://' not in own,
          'no http:// or https:// in the page outside the inlined library')
    check("default-src 'none'" in html, 'a Content-Security-Policy forbids every fetch')
    check(os.path.getsize(page) < 2 * 1024 * 1024, 'the page is under 2 MB')

    records = {}
    for name in sorted(os.listdir(os.path.join(results, 'runs'))):
        path = os.path.join(results, 'runs', name)
        records[path] = json.load(open(path))
    baseline = json.load(open(os.path.join(results, 'baselines', 'sim-board.json')))
    bench_names = [b['name'] for b in next(iter(records.values()))['benches']]

    with cdp.Browser(width=1280, height=900) as b:
        b.network_off()
        url = b.open(page)
        check(b.eval('document.documentElement.dataset.rendered') == 'ok',
              'the page script ran to its end without a section failing')
        problems = b.problems()
        check(problems == [], 'no script error, console error or warning: %s' % problems)
        others = [u for u in b.requests() if u != url]
        check(others == [], 'the page asked for nothing but itself: %s' % others)

        data = b.eval('JSON.parse(document.getElementById("benchrack-data").textContent)')
        # The embedded data equals the run records.
        by_file = {r['file']: r for r in data['runs']}
        check(sorted(by_file) == sorted(records), 'every run record is in the page, once')
        stamps = [r['timestamp'] for r in data['runs']]
        check(stamps == sorted(stamps), 'runs come oldest first')
        latest_path = sorted(records)[-1]
        latest = records[latest_path]
        for path, rec in records.items():
            got = by_file.get(path)
            if not check(got is not None, '%s in the page' % path):
                continue
            for key, want in rec.items():
                if key != 'benches':
                    check(got.get(key) == want, '%s: %s is %r, the record says %r' % (path, key, got.get(key), want))
            check(len(got['benches']) == len(rec['benches']), '%s: every bench' % path)
            for rb, gb in zip(rec['benches'], got['benches']):
                for key, want in rb.items():
                    if key == 'samples' and path != latest_path:
                        check('samples' not in gb, '%s %s: only the latest run carries samples' % (path, rb['name']))
                        continue
                    check(gb.get(key) == want, '%s %s: %s is %r, the record says %r' %
                          (path, rb['name'], key, gb.get(key), want))
        check(len(data['latest']) == 1 and data['runs'][data['latest'][0]['run']]['file'] == latest_path,
              'the latest run is the newest record')
        lt = data['latest'][0]
        for rb in latest['benches']:
            s = [x for x in lt['outliers'] if x['bench'] == rb['name']]
            if not check(len(s) == 1, 'outliers of %s embedded' % rb['name']):
                continue
            want = [i for i, v in enumerate(rb['samples']) if abs(v - rb['median']) > 5 * rb['mad']]
            check(s[0]['indices'] == want and len(want) == rb['outliers'],
                  '%s: outliers marked are those the record counts (%s vs %s)' % (rb['name'], s[0]['indices'], want))
        worse = [r for r in lt['comparison']['rows'] if r['verdict'] == 'worse']
        check(any(r['bench'] == bench_names[0] for r in worse),
              'the regressed bench is "worse" against the baseline: %s' % worse)
        check(lt['verdict'] == 'fail', 'the latest run fails the gate (verdict %s)' % lt['verdict'])
        got_base = dict(data['baselines'][0])
        check(got_base.pop('id') == 0 and got_base.pop('file').endswith('sim-board.json') and got_base.pop('series') == 'sim-board' and got_base == baseline,
              'the baseline is embedded as recorded')

        # Every bench named; at least one chart of each kind, drawn.
        named = b.eval('[...document.querySelectorAll(".bench-name")].map(e => e.textContent)')
        check(named == bench_names, 'every bench has its card, in suite order: %s' % named)
        table = b.eval('[...document.querySelectorAll("table.comparison td:first-child")].map(e => e.textContent)')
        for n in bench_names:
            check(n in table, '%s is in the comparison table' % n)
        kinds = b.eval('''(() => { const k = {};
            document.querySelectorAll("[data-kind]").forEach(f => {
              const c = f.querySelector("canvas");
              const drawn = c ? !!Chart.getChart(c) : f.querySelectorAll("td, rect").length > 0;
              k[f.dataset.kind] = (k[f.dataset.kind] || 0) + (drawn ? 1 : 0); });
            return k; })()''')
        for kind, least in (('history', len(bench_names)), ('distribution', len(bench_names)),
                            ('comparison', 1), ('sizes', 1), ('stack', 1), ('heap', 1)):
            check(kinds.get(kind, 0) >= least, 'at least %d %s chart(s) drawn (found %s)' %
                  (least, kind, kinds.get(kind, 0)))
        axes = b.eval('''window.benchrackReport.charts.map(c => Object.values(c.scales)
            .map(s => s.options.title && s.options.title.display ? s.options.title.text : ""))''')
        check(all(t for chart in axes for t in chart), 'every axis of every chart has a title: %s' % axes)
        unit_axes = b.eval('''window.benchrackReport.charts.map(c => c.scales.y.options.title.text)''')
        check(all('(' in t and ')' in t for t in unit_axes), 'every value axis names its unit: %s' % unit_axes)
        # The drawn values are the records': the history's medians, the histogram's total.
        for i, n in enumerate(bench_names):
            drawn = b.eval('''(() => { const f = document.querySelector('figure[data-kind="history"][data-bench="%s"]');
                const c = Chart.getChart(f.querySelector("canvas"));
                return c.data.datasets.filter(d => /(^| )median$/.test(d.label))[0].data; })()''' % n)
            want = [rec['benches'][i]['median'] for _, rec in sorted(records.items())]
            check(drawn == want, '%s: the history draws the records\' medians (%s vs %s)' % (n, drawn, want))
            total = b.eval('''(() => { const f = document.querySelector('figure[data-kind="distribution"][data-bench="%s"]');
                const c = Chart.getChart(f.querySelector("canvas"));
                return c.data.datasets.map(d => d.data.reduce((a, v) => a + v, 0)); })()''' % n)
            lb = latest['benches'][i]
            check(total == [lb['n'] - lb['outliers'], lb['outliers']],
                  '%s: the histogram holds every sample, outliers apart (%s)' % (n, total))
        # Each point links to its run: a click on the newest median of the first
        # bench leads to its row, which names its commit, build-id and board.
        first = bench_names[0]
        pos = b.eval('''(() => { const f = document.querySelector('figure[data-kind="history"][data-bench="%s"]');
            f.scrollIntoView(); const c = Chart.getChart(f.querySelector("canvas"));
            const i = c.data.datasets.findIndex(d => d.runs);
            const pts = c.getDatasetMeta(i).data; const p = pts[pts.length - 1];
            const r = c.canvas.getBoundingClientRect();
            return {x: r.left + p.x, y: r.top + p.y}; })()''' % first)
        for kind in ('mouseMoved', 'mousePressed', 'mouseReleased'):
            b.call('Input.dispatchMouseEvent', type=kind, x=pos['x'], y=pos['y'], button='left',
                   clickCount=1 if kind != 'mouseMoved' else 0)
        b.settle()
        newest = data['runs'][-1]
        check(b.eval('location.hash') == '#run-%d' % newest['id'], 'a click on a point opens its run (%s)' % b.eval('location.hash'))
        row = b.eval('(() => { const r = document.getElementById("run-%d"); return r ? r.textContent : ""; })()' % newest['id'])
        check(newest['firmware']['git_commit'] in row and newest['firmware']['build_id'][:16] in row and newest['board'] in row,
              'the run\'s row names its commit, build-id and board: %r' % row)
        # Flame graphs: one per profile, weighing what the files say.
        profiles = data['profiles']
        check([x['name'] for x in profiles] == ['calls.folded', 'sampled run', 'evented run'],
              'every profile is embedded, in order: %s' % [x['name'] for x in profiles])
        for prof, want in zip(profiles, profile_totals):
            check(prof['total'] == want['total'], '%s: total weight %s, the file says %s' % (prof['name'], prof['total'], want['total']))
            leaves = {}
            for i, name in enumerate(prof['frame']):
                path = []
                k = i
                while prof['parent'][k] >= 0:
                    path.insert(0, prof['frame'][k])
                    k = prof['parent'][k]
                if prof['self'][i]:
                    leaves[';'.join(path)] = prof['self'][i]
            check(leaves == want['stacks'], '%s: every stack keeps its weight (%s vs %s)' % (prof['name'], leaves, want['stacks']))
            drawn = b.eval('''(() => { const f = [...document.querySelectorAll('figure[data-kind="flame"]')]
                .filter(e => e.dataset.profile === %s)[0];
                return f ? {rects: f.querySelectorAll('rect').length,
                            root: f.querySelector('title').textContent} : null; })()''' % json.dumps(prof['name']))
            check(drawn is not None and drawn['rects'] == len(prof['frame']),
                  '%s: a frame drawn per node (%s)' % (prof['name'], drawn))
        b.screenshot(os.path.join(build_dir, 'report-page.png'))
        # Narrow: a phone-sized window keeps the page inside it.
        b.call('Emulation.setDeviceMetricsOverride', width=420, height=900, deviceScaleFactor=1, mobile=False)
        deadline = time.monotonic() + 5  # charts follow their boxes on the next frames
        while True:
            overflow = b.eval('document.documentElement.scrollWidth - window.innerWidth')
            if overflow <= 1 or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        check(overflow <= 1, 'nothing sticks out of a 420 px window (by %s px)' % overflow)
        b.settle()
        b.screenshot(os.path.join(build_dir, 'report-page-narrow.png'))
        # Print: the print style applies and the page prints without errors.
        b.call('Emulation.setDeviceMetricsOverride', width=1280, height=900, deviceScaleFactor=1, mobile=False)
        b.call('Emulation.setEmulatedMedia', media='print')
        check(b.eval('getComputedStyle(document.getElementById("contents")).display') == 'none',
              'the print style applies (contents hidden on paper)')
        b.settle()
        page_width = b.eval('document.documentElement.clientWidth')
        widths = b.eval('window.benchrackReport.charts.map(c => c.width)')
        check(all(0 < w <= page_width for w in widths), 'on paper every chart is redrawn within the page (%s)' % widths)
        pdf = b.call('Page.printToPDF', printBackground=True)
        check(len(pdf.get('data', '')) > 1000, 'the page prints to PDF')
        b.screenshot(os.path.join(build_dir, 'report-page-print.png'))
        check(b.problems() == [], 'no error after resizing and printing: %s' % b.problems())

    shutil.rmtree(tmp, ignore_errors=True)
    print('screenshots: %s/report-page{,-narrow,-print}.png' % build_dir)
    print('%d checks failed' % len(failures) if failures else 'all checks passed')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
