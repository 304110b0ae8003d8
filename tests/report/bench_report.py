#!/usr/bin/env python3
"""Benchmark (issue 14): a report of 100 runs x 10 benches (100 samples each)
renders in headless Chromium in under 2 s, opened from a file:// URL with
the network off, and the file stays under 2 MB. The peer, measured in the
same run on the same browser, is the page of a single run of a single
bench: the ratio says what the history costs over the fixed cost of the
page (the inlined library, the browser's start of a document).

Render time: from the start of navigation to the end of the page's script,
every chart drawn (window.benchrackReport.renderedMs, performance.now()), and
the load event's end; the median of ROUNDS fresh navigations each.
Also timed: `benchrack report` writing the page.

usage: bench_report.py BENCHRACK [ROUNDS]
Exit 1 when the page is 2 MB or more, or renders in 2 s or more.
"""
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, '..', 'lib'))
import bench_mode  # noqa: E402  (takes --smoke out of argv)
import cdp  # noqa: E402

LIMIT_MS = 2000.0
LIMIT_BYTES = 2 * 1024 * 1024


def make_page(benchrack, tmp, name, runs, benches):
    results = os.path.join(tmp, name)
    subprocess.run([sys.executable, os.path.join(HERE, 'gen_records.py'), results, '--runs', str(runs),
                    '--benches', str(benches), '--samples', '100'], check=True)
    page = os.path.join(tmp, name + '.html')
    t0 = time.monotonic()
    subprocess.run([benchrack, 'report', '--results-dir', results, '-o', page], check=True,
                   capture_output=True)
    return page, time.monotonic() - t0


def render(b, page):
    b.call('Page.navigate', url='about:blank')
    b.open(page)
    ms = b.eval('window.benchrackReport.renderedMs')
    # The load event ends after the script: wait for it, then read it.
    deadline = time.monotonic() + 10
    load = 0
    while time.monotonic() < deadline:
        load = b.eval('performance.getEntriesByType("navigation")[0].loadEventEnd')
        if load:
            break
        time.sleep(0.02)
    charts = b.eval('window.benchrackReport.charts.length')
    return max(ms, load), charts


def main():
    benchrack = sys.argv[1]
    rounds = bench_mode.rounds(int(sys.argv[2]) if len(sys.argv) > 2 else 5, 2)
    tmp = tempfile.mkdtemp(prefix='benchrack-report-bench-')
    big, big_write = make_page(benchrack, tmp, 'history', 100, 10)
    small, small_write = make_page(benchrack, tmp, 'single', 1, 1)
    big_size, small_size = os.path.getsize(big), os.path.getsize(small)
    big_ms, small_ms = [], []
    with cdp.Browser(width=1280, height=900) as b:
        b.network_off()
        for _ in range(rounds):  # interleaved, so load on the machine hits both alike
            ms, big_charts = render(b, big)
            big_ms.append(ms)
            ms, small_charts = render(b, small)
            small_ms.append(ms)
        problems = b.problems()
        others = [u for u in b.requests() if not u.startswith('file://') and u != 'about:blank']
    big_med, small_med = statistics.median(big_ms), statistics.median(small_ms)
    print('report of 100 runs x 10 benches: %d bytes (%.2f MB), %d charts' % (big_size, big_size / 1048576, big_charts))
    print('  render in Chromium (file://, network off): median %.0f ms of %d (min %.0f, max %.0f)'
          % (big_med, rounds, min(big_ms), max(big_ms)))
    print('  benchrack report wrote it in %.2f s' % big_write)
    print('peer, 1 run x 1 bench: %d bytes, %d charts, render median %.0f ms (min %.0f, max %.0f); written in %.2f s'
          % (small_size, small_charts, small_med, min(small_ms), max(small_ms), small_write))
    print('ratio history/peer: render %.2fx, size %.2fx' % (big_med / small_med, big_size / small_size))
    print('limits: render < %.0f ms: %s; size < 2 MB: %s' % (
        LIMIT_MS, 'MET' if big_med < LIMIT_MS else 'NOT MET', 'MET' if big_size < LIMIT_BYTES else 'NOT MET'))
    shutil.rmtree(tmp, ignore_errors=True)
    goals = []
    if big_med >= LIMIT_MS:
        goals.append('render %.0f ms >= %.0f ms' % (big_med, LIMIT_MS))
    if big_size >= LIMIT_BYTES:
        goals.append('page %d bytes >= 2 MB' % big_size)
    errors = []
    if problems or others:
        errors.append('problems: %s; requests: %s' % (problems, others))
    bench_mode.finish(goals, errors)


if __name__ == '__main__':
    main()
