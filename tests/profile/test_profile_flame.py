#!/usr/bin/env python3
"""The flame graph in benchrack's report reads well (issue 26): the exact
profile of the fixture (fw_region.S, --from region_start --to region_stop,
folded) rendered by `benchrack report --profile`, in Debian's headless
Chromium (tests/report/cdp.py):
- colour by self share: heavy, the frame with the most self, is drawn in the
  deepest colour (Okabe-Ito vermillion), step (almost none) is not;
- search: typing "heavy" marks heavy's frame and says its share: the share of
  the folded file's counts whose chain holds heavy;
- zoom: a click on step spans it across the width and hides what is not
  under it or its callers (region_start); a click on the root zooms out.

usage: test_profile_flame.py BENCHRACK ELF
"""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "report"))
import cdp  # noqa: E402
from measure_cli import Checks  # noqa: E402

BENCHRACK, ELF = sys.argv[1:3]
c = Checks()
with tempfile.TemporaryDirectory() as tmp:
    folded = os.path.join(tmp, "region.folded")
    p = subprocess.run([BENCHRACK, "profile", ELF, "--exact", "--from", "region_start", "--to",
                        "region_stop", "--format", "folded", "--output", folded],
                       capture_output=True, text=True, timeout=60)
    c.check(p.returncode == 0, f"profile --format folded exits 0 (got {p.returncode})")
    counts = {}
    for line in open(folded, encoding="utf-8").read().splitlines():
        chain, n = line.rsplit(" ", 1)
        counts[chain] = int(n)
    total = sum(counts.values())
    heavy_share = sum(n for ch, n in counts.items() if "heavy" in ch.split(";")) / total
    os.mkdir(os.path.join(tmp, "results"))
    page = os.path.join(tmp, "page.html")
    p = subprocess.run([BENCHRACK, "report", "-o", page, "--results-dir",
                        os.path.join(tmp, "results"), "--profile", folded],
                       capture_output=True, text=True, timeout=60)
    c.check(p.returncode == 0, f"report exits 0 (got {p.returncode}: {p.stderr[-300:]})")
    with cdp.Browser(width=1280, height=900) as b:
        b.network_off()
        b.open(page)
        fig = "document.querySelector('figure[data-kind=\"flame\"]')"
        frame = "(n) => " + fig + ".querySelector('g[data-name=\"' + n + '\"]')"
        fill = b.eval("(" + frame + ")('heavy').querySelector('rect').getAttribute('fill')")
        step_fill = b.eval("(" + frame + ")('step').querySelector('rect').getAttribute('fill')")
        c.check(fill == "rgb(213, 94, 0)" and step_fill != fill,
                f"heavy (the most self) in the deepest colour ({fill}), step not ({step_fill})")
        b.eval("(() => { const s = " + fig + ".querySelector('input[type=search]');"
               " s.value = 'heavy'; s.dispatchEvent(new Event('input')); })()")
        matched = b.eval(fig + ".dataset.matched")
        marked = b.eval("(" + frame + ")('heavy').classList.contains('flame-match')")
        c.check(marked and matched not in (None, "") and
                abs(float(matched) - heavy_share) < 1e-9,
                f"search: heavy marked, its share {matched} == the folded file's {heavy_share}")
        root = b.eval(fig + ".dataset.zoom")
        width = b.eval(fig + ".querySelector('svg').viewBox.baseVal.width")
        b.eval("(" + frame + ")('step').dispatchEvent(new MouseEvent('click', {bubbles: true}))")
        zoomed = b.eval("({zoom: " + fig + ".dataset.zoom,"
                        " w: +(" + frame + ")('step').querySelector('rect').getAttribute('width'),"
                        " hidden: (" + frame + ")('region_start').style.display})")
        c.check(zoomed["zoom"] == "step" and abs(zoomed["w"] - width) < 1e-6 and
                zoomed["hidden"] == "none",
                f"zoom: step spans the width {width} and region_start is hidden ({zoomed})")
        b.eval(fig + ".querySelector('g').dispatchEvent(new MouseEvent('click', {bubbles: true}))")
        back = b.eval("({zoom: " + fig + ".dataset.zoom, shown: (" + frame +
                      ")('region_start').style.display})")
        c.check(back["zoom"] == root and back["shown"] != "none",
                f"a click on the root zooms out ({back}, root {root})")
        c.check(b.problems() == [], f"no error on the page: {b.problems()}")
sys.exit(c.finish())
