#!/usr/bin/env python3
"""The HTML report of a rack (issue 14): a real rack of emulated boards —
two with the gate firmware, one with the same suite built slower, and one
whose gdbserver is dead — run with `benchrack rack --format html`, then
`benchrack report --rack DOC`. Both pages, in headless Chromium with the
network off:
- run without a script error, and ask for nothing but themselves;
- show the dead board as an infrastructure error with its reason, word for
  word as the rack document records it;
- draw the board x bench matrix: the rack median of each bench is the median
  of the boards' medians (from their run records), and the slower board, and
  only it, is highlighted as off;
- embed the rack document as it is on disk.
`benchrack run --format html` writes the same page for one run.
Screenshots go to the build folder.

usage: test_report_rack.py BENCHRACK GATE_ELF GATE_SLOWER_ELF SUITE_ELF BUILD_DIR
"""
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, '..', 'rack'))
import cdp  # noqa: E402
from racklib import FAILED, check, free_port, rack, run_rack, suite  # noqa: E402

BENCHRACK, GATE_ELF, SLOWER_ELF, SUITE_ELF, BUILD = [os.path.abspath(a) for a in sys.argv[1:6]]
WORK = tempfile.mkdtemp(prefix='benchrack-report-rack-')
BENCHES = ['empty', 'nop1000', 'work']


def nm_sizes(elf):
    """{name: size} of every sized symbol of elf, by arm-none-eabi-nm (the
    oracle beside benchrack's own ELF reader)."""
    nm = shutil.which('arm-none-eabi-nm')
    out = subprocess.run([nm, '-S', elf], capture_output=True, text=True, check=True).stdout
    sizes = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 4:
            sizes[parts[3]] = int(parts[1], 16)
    return sizes


def symbols_checks(b, data):
    """The run page lists the firmware's biggest functions and objects in
    flash, with the sizes nm gives, in a drawn table."""
    symbols = data['latest'][0].get('symbols') or []
    kinds = {s['kind'] for s in symbols}
    check(kinds == {'function', 'object'}, 'run page: the biggest functions and objects are both listed',
          str([(s['name'], s['kind']) for s in symbols]))
    sizes = nm_sizes(SUITE_ELF)
    wrong = [(s['name'], s['size'], sizes.get(s['name'].split(', ')[0])) for s in symbols
             if sizes.get(s['name'].split(', ')[0]) != s['size']]
    check(symbols and not wrong, 'run page: each size is the one nm gives', str(wrong))
    check(all(s['section'] in ('.vectors', '.text', '.rodata') for s in symbols),
          'run page: each names its flash section', str([s['section'] for s in symbols]))
    sizes_listed = [s['size'] for s in symbols]
    check(sizes_listed == sorted(sizes_listed, reverse=True), 'run page: biggest first', str(sizes_listed))
    rows = b.eval('document.querySelectorAll("table.symbols tbody tr").length')
    check(rows == len(symbols), 'run page: one table row per symbol (%s of %s)' % (rows, len(symbols)))


def page_checks(path, doc, label):
    with cdp.Browser(width=1280, height=900) as b:
        b.network_off()
        url = b.open(path)
        check(b.eval('document.documentElement.dataset.rendered') == 'ok', '%s: the page script ran to its end' % label)
        check(b.problems() == [], '%s: no script error or console error' % label, str(b.problems()))
        check([u for u in b.requests() if u != url] == [], '%s: asks for nothing but itself' % label, str(b.requests()))
        data = b.eval('JSON.parse(document.getElementById("benchrack-data").textContent)')
        check(len(data['racks']) == 1 and data['racks'][0]['document'] == doc,
              '%s: the rack document is embedded as it is on disk' % label)
        latest = sorted(data['runs'][x['run']]['series'] for x in data['latest'])
        check(latest == ['np2-a', 'np2-b', 'np2-slow'],
              '%s: each board that ran is its own latest run, by the rack\'s name for it' % label, str(latest))
        dead = [x for x in doc['boards'] if x['name'] == 'dead'][0]
        row = b.eval('''(() => { const r = document.querySelector('table.boards tr[data-board="dead"]');
            return r ? {outcome: r.dataset.outcome, text: r.textContent,
                        badge: r.querySelector('.badge').textContent} : null; })()''')
        check(row is not None and row['outcome'] == 'infra' and row['badge'] == 'infrastructure error',
              '%s: the dead board is shown as an infrastructure error' % label, str(row))
        reason = dead['health']['reason']
        check(reason != '' and row is not None and reason in row['text'],
              '%s: the dead board\'s reason is shown word for word' % label, '%r not in %r' % (reason, row))
        for i, attempt in enumerate(dead['health']['failed_attempts']):
            check(row is not None and attempt in row['text'], '%s: failed attempt %d shown' % (label, i + 1), attempt)
        # The matrix: medians against the rack median (the median of the boards' medians).
        runs = {x['name']: json.load(open(x['suites'][0]['run'])) for x in doc['boards'] if x['suites'][0]['run']}
        check(sorted(runs) == ['np2-a', 'np2-b', 'np2-slow'], '%s: three boards ran' % label, str(sorted(runs)))
        m = b.eval('''(() => { const t = document.querySelector('table.matrix');
            if (!t) return null;
            const heads = [...t.querySelectorAll('thead tr:first-child th')].slice(1).map(e => e.textContent);
            const median = [...t.querySelectorAll('thead tr:nth-child(2) td')].map(e => e.textContent);
            const rows = [...t.querySelectorAll('tbody tr')].map(r => ({board: r.dataset.board,
                off: r.classList.contains('off-board'),
                cells: [...r.querySelectorAll('td')].map(c => ({text: c.textContent, off: c.classList.contains('off')}))}));
            return {heads, median, rows}; })()''')
        check(m is not None, '%s: a board x bench matrix is drawn' % label)
        if m is None:
            return
        check(m['heads'] == BENCHES, '%s: the matrix has every bench' % label, str(m['heads']))
        mat = data['racks'][0]['matrices'][0]
        for k, bench in enumerate(BENCHES):
            meds = [[x for x in runs[n]['benches'] if x['name'] == bench][0]['median'] for n in sorted(runs)]
            check(mat['rack_median'][k] == statistics.median(meds),
                  '%s: rack median of %s is the median of the boards\' medians' % (label, bench),
                  '%s vs %s' % (mat['rack_median'][k], meds))
        by = {r['board']: r for r in m['rows']}
        check(by.get('np2-slow', {}).get('off') is True, '%s: the slower board is highlighted as off' % label, str(by.get('np2-slow')))
        check(not by.get('np2-a', {}).get('off', True) and not by.get('np2-b', {}).get('off', True),
              '%s: the boards at the rack median are not off' % label)
        slow_cells = by.get('np2-slow', {}).get('cells', [])
        check(len(slow_cells) == 3 and slow_cells[2]['off'] and not slow_cells[0]['off'],
              '%s: only the slower bench (work) is outlined' % label, str(slow_cells))
        check('dead' not in by, '%s: the dead board has no matrix row (no figures)' % label)
        b.screenshot(os.path.join(BUILD, 'report-%s.png' % label))


def main():
    os.makedirs(os.path.join(WORK, 'slower'), exist_ok=True)
    fast = suite(WORK, 'gate', GATE_ELF, BENCHES)
    slow = suite(os.path.join(WORK, 'slower'), 'gate', SLOWER_ELF, BENCHES)
    dead_port = free_port()  # nobody listens there
    r = rack(WORK, 'html-rack', [
        {'name': 'np2-a', 'board': 'qemu-netduinoplus2', 'suites': [fast]},
        {'name': 'np2-b', 'board': 'qemu-netduinoplus2', 'suites': [fast]},
        {'name': 'np2-slow', 'board': 'qemu-netduinoplus2', 'suites': [slow]},
        {'name': 'dead', 'board': 'qemu-netduinoplus2', 'suites': [fast], 'remote': '127.0.0.1:%d' % dead_port},
    ], retries=1)
    rack_html = os.path.join(BUILD, 'report-rack-format.html')
    p, doc, _ = run_rack(BENCHRACK, r, WORK, '--format', 'html', '--output', rack_html, timeout=150)
    check(p.returncode == 3, 'rack: exit 3 (a dead board, no regression)', p.stdout[-800:] + p.stderr[-800:])
    if doc is None:
        check(False, 'rack: the document was written')
        return
    page_checks(rack_html, doc, 'rack-format')
    report_html = os.path.join(BUILD, 'report-rack.html')
    doc_path = [a for a in os.listdir(WORK) if a.startswith('doc-')][0]
    q = subprocess.run([BENCHRACK, 'report', '--rack', os.path.join(WORK, doc_path), '-o', report_html],
                       capture_output=True, text=True, timeout=60)
    check(q.returncode == 0, 'report --rack: exit 0', q.stderr)
    page_checks(report_html, doc, 'rack-report')
    # One run: run --format html writes the page of just that run.
    run_html = os.path.join(BUILD, 'report-run.html')
    q = subprocess.run([BENCHRACK, 'run', SUITE_ELF, '--results-dir', os.path.join(WORK, 'one'),
                        '--format', 'html', '--output', run_html], capture_output=True, text=True, timeout=120)
    check(q.returncode == 0, 'run --format html: exit 0', q.stderr[-800:])
    with cdp.Browser() as b:
        b.network_off()
        b.open(run_html)
        check(b.problems() == [], 'run page: no script error', str(b.problems()))
        data = b.eval('JSON.parse(document.getElementById("benchrack-data").textContent)')
        check(len(data['runs']) == 1 and len(data['latest']) == 1, 'run page: just that run')
        names = b.eval('[...document.querySelectorAll(".bench-name")].map(e => e.textContent)')
        check(names == [x['name'] for x in data['runs'][0]['benches']], 'run page: every bench named', str(names))
        symbols_checks(b, data)
        b.screenshot(os.path.join(BUILD, 'report-run.png'))


if __name__ == '__main__':
    try:
        main()
    finally:
        shutil.rmtree(WORK, ignore_errors=True)
    print('%d checks failed: %s' % (len(FAILED), FAILED) if FAILED else 'all checks passed')
    sys.exit(1 if FAILED else 0)
