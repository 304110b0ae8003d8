/*
 * benchrack report: draws the page from the JSON in script#benchrack-data
 * (controller/report/README.md describes it) with Chart.js, and flame graphs
 * with d3. Every figure shown is one the controller wrote into that JSON:
 * this script bins, lays out and colours, it never computes a verdict, a
 * percentile or a change. Text from the records only ever goes into the page
 * as text (textContent), never as markup.
 */
(function () {
	'use strict';

	var data = JSON.parse(document.getElementById('benchrack-data').textContent);
	var state = { charts: [], errors: [] };
	window.benchrackReport = state;

	/* Okabe & Ito's palette: tells apart under the common colour-vision deficiencies. */
	var OI = {
		black: '#000000', orange: '#E69F00', sky: '#56B4E9', green: '#009E73',
		yellow: '#F0E442', blue: '#0072B2', vermillion: '#D55E00', purple: '#CC79A7',
	};
	var SERIES = [OI.blue, OI.orange, OI.green, OI.purple, OI.sky, OI.vermillion, OI.black];
	/* Dashes as a second cue beside colour, one per series. */
	var DASHES = [[], [6, 3], [2, 2], [8, 3, 2, 3], [1, 3], [10, 2], [4, 4]];

	Chart.defaults.animation = false;
	Chart.defaults.maintainAspectRatio = false;
	Chart.defaults.responsive = true;
	Chart.defaults.font.family = 'system-ui, "DejaVu Sans", sans-serif';
	Chart.defaults.color = '#1b1b1b';

	function el(tag, attrs) {
		var node = document.createElement(tag);
		if (attrs) {
			Object.keys(attrs).forEach(function (k) {
				if (k === 'text') node.textContent = attrs[k];
				else if (k === 'cls') node.className = attrs[k];
				else node.setAttribute(k, attrs[k]);
			});
		}
		for (var i = 2; i < arguments.length; i++) {
			var c = arguments[i];
			if (c === null || c === undefined) continue;
			node.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
		}
		return node;
	}

	function alpha(hex, a) {
		var v = parseInt(hex.slice(1), 16);
		return 'rgba(' + (v >> 16) + ',' + ((v >> 8) & 255) + ',' + (v & 255) + ',' + a + ')';
	}

	function fmt(v) {
		if (v === null || v === undefined) return '—';
		if (typeof v !== 'number') return String(v);
		if (Number.isInteger(v)) return v.toLocaleString('en-US');
		return v.toLocaleString('en-US', { maximumFractionDigits: 1 });
	}

	function short(s, n) {
		if (!s) return '';
		return s.length > n ? s.slice(0, n) : s;
	}

	/* "2026-12-01T00:10:00Z" -> "12-01 00:10" */
	function when(ts) {
		var m = /^\d{4}-(\d\d-\d\d)T(\d\d:\d\d)/.exec(ts || '');
		return m ? m[1] + ' ' + m[2] : (ts || '?');
	}

	/* A board (a rack's name for it, else the record's board) and suite: one history. */
	function seriesKey(run) {
		return run.series + (run.suite ? ' · ' + run.suite : '');
	}

	function runLabel(run) {
		return when(run.timestamp) + (commitOf(run) ? ' ' + short(commitOf(run), 8) : '');
	}

	/* The same on two lines, for a category axis: time above, commit below. */
	function runTick(run) {
		return [when(run.timestamp), commitOf(run) ? short(commitOf(run), 8) : 'no commit'];
	}

	function unitOf(run) { return run.counter.unit || 'ticks'; }
	/* The firmware a run measured: its own, else (schema 3: entries naming
	 * several ELFs) the first entry's; never benchrack's stub image by default. */
	function firmwareOf(run) {
		if (run.firmware) return run.firmware;
		for (var i = 0; i < run.benches.length; i++)
			if (run.benches[i].firmware) return run.benches[i].firmware;
		return { path: '', build_id: null, git_commit: null, text_bytes: null, data_bytes: null, bss_bytes: null };
	}
	function commitOf(run) { return firmwareOf(run).git_commit; }
	function buildIdOf(run) { return firmwareOf(run).build_id || (firmwareOf(run).sha256 ? 'sha256:' + firmwareOf(run).sha256 : null); }
	function firmwareName(run) {
		return firmwareOf(run).path.replace(/^.*\//, '') + (buildIdOf(run) ? ' (build-id ' + short(buildIdOf(run), 8) + ')' : '');
	}
	function budget(obj, key) { return obj && obj[key] !== undefined ? obj[key] : null; }

	var runsById = {};
	data.runs.forEach(function (r) { runsById[r.id] = r; });
	var baselinesById = {};
	data.baselines.forEach(function (b) { baselinesById[b.id] = b; });

	function benchOf(rec, name) {
		for (var i = 0; i < rec.benches.length; i++)
			if (rec.benches[i].name === name) return rec.benches[i];
		return null;
	}

	/* The series of runs: one per board and suite, oldest first (runs come sorted). */
	var series = [];
	var seriesByKey = {};
	data.runs.forEach(function (r) {
		var k = seriesKey(r);
		if (!seriesByKey[k]) {
			seriesByKey[k] = { key: k, board: r.board, runs: [], colour: SERIES[series.length % SERIES.length],
				dash: DASHES[series.length % DASHES.length] };
			series.push(seriesByKey[k]);
		}
		seriesByKey[k].runs.push(r);
	});
	/* A baseline belongs to a suite on a board (results/baselines/<suite>/<board>.json). */
	function baselineFor(board, suite) {
		for (var i = 0; i < data.baselines.length; i++)
			if (data.baselines[i].board === board && (!suite || !data.baselines[i].suite || data.baselines[i].suite === suite))
				return data.baselines[i];
		return null;
	}

	/* Bench names in the order the suites list them, first seen first. */
	var benchNames = [];
	data.runs.forEach(function (r) {
		r.benches.forEach(function (b) {
			if (benchNames.indexOf(b.name) < 0) benchNames.push(b.name);
		});
	});

	var main = document.getElementById('report');
	main.textContent = '';
	var nav = document.getElementById('contents');

	function section(id, title, intro) {
		var s = el('section', { id: id }, el('h2', { text: title }));
		if (intro) s.appendChild(el('p', { cls: 'note', text: intro }));
		main.appendChild(s);
		nav.appendChild(el('a', { href: '#' + id, text: title }));
		return s;
	}

	function figure(kind, attrs, caption, tall) {
		var canvas = el('canvas', { role: 'img', 'aria-label': caption });
		var f = el('figure', { cls: 'chart', 'data-kind': kind },
			el('div', { cls: 'canvas-box' + (tall ? ' tall' : '') }, canvas),
			el('figcaption', { text: caption }));
		Object.keys(attrs || {}).forEach(function (k) { f.setAttribute('data-' + k, attrs[k]); });
		return { figure: f, canvas: canvas };
	}

	/* Legend entries: not the datasets marked quiet (band edges; with several
	 * boards, their bands and empty outlier sets). */
	function legendShown(item, d) {
		return !d.datasets[item.datasetIndex].quiet;
	}

	function chart(canvas, config) {
		var c = new Chart(canvas.getContext('2d'), config);
		state.charts.push(c);
		return c;
	}

	function axis(title, extra) {
		var a = { title: { display: true, text: title }, grid: { color: '#e3e3e3' } };
		Object.keys(extra || {}).forEach(function (k) { a[k] = extra[k]; });
		return a;
	}

	function guard(name, fn) {
		try {
			fn();
		} catch (e) {
			state.errors.push(name + ': ' + e);
			console.error('benchrack report: ' + name + ': ' + (e && e.stack ? e.stack : e));
			main.appendChild(el('p', { cls: 'warning', text: 'The ' + name + ' section could not be drawn: ' + e }));
		}
	}

	/* ---------------------------------------------------------------- header */
	function header() {
		var boards = {};
		data.runs.forEach(function (r) { boards[r.board] = true; });
		var sub = data.runs.length + ' run' + (data.runs.length === 1 ? '' : 's') + ' of ' +
			benchNames.length + ' bench' + (benchNames.length === 1 ? '' : 'es') + ' on ' +
			Object.keys(boards).length + ' board' + (Object.keys(boards).length === 1 ? '' : 's');
		if (data.racks.length) sub += ', ' + data.racks.length + ' rack' + (data.racks.length === 1 ? '' : 's');
		sub += '; written ' + data.generated + ' by benchrack ' + data.benchrack_version + '.';
		document.getElementById('subtitle').textContent = sub;
		var title = 'benchrack report';
		if (series.length === 1) title += ' — ' + series[0].key;
		document.title = title;
		document.querySelector('header h1').textContent = title;
		if (data.warnings.length) {
			var w = el('div', { cls: 'warning', id: 'warnings' }, el('strong', { text: 'Left out of this report:' }));
			var ul = el('ul');
			data.warnings.forEach(function (t) { ul.appendChild(el('li', { cls: 'reason', text: t })); });
			w.appendChild(ul);
			main.appendChild(w);
		}
		document.getElementById('footer').appendChild(el('p', { cls: 'note',
			text: 'Charts: Chart.js' + (data.profiles.length ? ' and d3' : '') +
				' (inlined). Colours: Okabe–Ito. Every figure is in the counter\'s unit named on its axis; lower is better for all of them.' }));
	}

	/* ---------------------------------------------------- latest vs baseline */
	var CHANGE_CLASS = { worse: 'worse', better: 'better', equal: 'equal', 'not distinguishable': 'nd' };

	/* The budget a row's metric answers to (metric names: results/diff.h). */
	function rowBudget(run, row) {
		if (row.metric === 'text_bytes') return budget(run.budgets, 'max_text_bytes');
		var b = benchOf(run, row.bench);
		if (!b) return null;
		if (row.metric === 'stack_bytes') return budget(b.budgets, 'max_stack_bytes');
		if (row.metric === 'heap_peak_bytes') return budget(b.budgets, 'max_heap_bytes');
		return budget(b.budgets, 'max_cycles_per_iteration');
	}

	/* Without a baseline: each figure of the run, so budgets and findings still show. */
	function plainRows(run) {
		var rows = [];
		var count = unitOf(run).split(' ')[0];
		run.benches.forEach(function (b) {
			var m = b.status === 'measured';
			rows.push({ bench: b.name, metric: count, old: null, new: m ? b.median : null });
			rows.push({ bench: b.name, metric: 'stack_bytes', old: null, new: m ? b.stack_bytes : null });
			if (b.heap) rows.push({ bench: b.name, metric: 'heap_peak_bytes', old: null, new: m ? b.heap.peak_bytes : null });
		});
		rows.push({ bench: '(firmware)', metric: 'text_bytes', old: null, new: firmwareOf(run).text_bytes });
		rows.forEach(function (r) { r.change_percent = null; r.verdict = r.new === null ? 'not measured' : 'no baseline'; });
		return rows;
	}

	function percentText(p) {
		if (p === null || p === undefined) return '—';
		return (p > 0 ? '+' : '') + p.toFixed(1) + '%';
	}

	function comparison() {
		if (!data.latest.length) return;
		var s = section('comparison', 'Latest run against the baseline',
			'Per bench and metric: the baseline, the latest run, the change and its verdict — exact figures by their exact change ("+4 B stack"), noisy ones by a test on both sample sets ("worse by 5.0 % (4.6..5.4 %, p < 0.001)", "can\'t tell (±3.0 %)") — the budget, and what the gate found. Colour marks only what the gate failed.');
		/* Several boards: their tables side by side where there is room. */
		var holder = data.latest.length > 1 ? el('div', { cls: 'cards wide' }) : s;
		if (holder !== s) s.appendChild(holder);
		data.latest.forEach(function (l) {
			var run = runsById[l.run];
			var base = l.baseline === null ? null : baselinesById[l.baseline];
			var findings = l.gate ? l.gate.findings : [];
			var rows = (l.comparison ? l.comparison.rows : plainRows(run)).map(function (r) {
				var f = findings.filter(function (x) { return x.bench === r.bench && x.metric === r.metric; });
				return { bench: r.bench, metric: r.metric, old: r.old, new: r.new, change: r.verdict,
					words: r.words || r.verdict,
					change_text: percentText(r.change_percent), budget: rowBudget(run, r), finding: f.length ? f[0] : null };
			});
			var card = el('div', { cls: 'card', 'data-kind': 'comparison', 'data-run': String(l.run) });
			card.appendChild(el('h3', {}, seriesKey(run) + ' ',
				el('span', { cls: 'badge ' + l.verdict, text: l.verdict.toUpperCase() })));
			card.appendChild(el('p', { cls: 'note' }, 'run ',
				el('a', { href: '#run-' + run.id, text: runLabel(run) }),
				base ? ' against baseline ' + base.file : ' — no baseline for this board: budgets only',
				l.gate ? '' : ' (not gated)'));
			var t = el('table', { cls: 'comparison' });
			t.appendChild(el('thead', {}, el('tr', {},
				el('th', { text: 'bench' }), el('th', { text: 'metric' }), el('th', { text: 'baseline' }),
				el('th', { text: 'latest' }), el('th', { text: 'change' }), el('th', { text: 'verdict' }),
				el('th', { text: 'budget' }), el('th', { text: 'gate' }))));
			var tb = el('tbody');
			rows.forEach(function (r) {
				/* colour only for what the gate decided: a row it failed */
				var cls = r.finding ? CHANGE_CLASS.worse : '';
				var tr = el('tr', { cls: cls });
				tr.appendChild(el('td', { text: r.bench }));
				tr.appendChild(el('td', { text: r.metric }));
				tr.appendChild(el('td', { cls: 'num', text: fmt(r.old) }));
				tr.appendChild(el('td', { cls: 'num' + (r.finding ? ' fail' : ''), text: fmt(r.new) }));
				tr.appendChild(el('td', { cls: 'num', text: r.change_text }));
				var mark = r.change === 'worse' ? '▲ ' : r.change === 'better' ? '▼ ' : '';
				tr.appendChild(el('td', { cls: 'verdict ' + cls, text: mark + r.words }));
				tr.appendChild(el('td', { cls: 'num', text: r.budget === null ? '—' : fmt(r.budget) }));
				tr.appendChild(el('td', { cls: r.finding ? 'fail' : '', text: r.finding ? r.finding.kind + ': ' + r.finding.message : 'ok' }));
				tb.appendChild(tr);
			});
			t.appendChild(tb);
			card.appendChild(el('div', { cls: 'table-wrap' }, t));
			var other = findings.filter(function (f) {
				return !rows.some(function (r) { return r.finding && r.finding.message === f.message; });
			});
			if (other.length) {
				var ul = el('ul', { cls: 'findings' });
				other.forEach(function (f) { ul.appendChild(el('li', { cls: 'reason', text: f.kind + ': ' + f.message })); });
				card.appendChild(ul);
			}
			holder.appendChild(card);
		});
	}

	/* ------------------------------------------------------- per bench trend */
	/* A dataset's name: the series only matters when there are several. */
	function seriesLabel(se, what) {
		return series.length > 1 ? se.key + ' ' + what : what;
	}

	/* The change points of bench name in series se (data.change_points). */
	function stepsOf(se, name) {
		return (data.change_points || []).filter(function (st) {
			return st.bench === name && seriesKey(runsById[st.run]) === se.key;
		});
	}

	function historyChart(name) {
		var labels = [];
		var runIds = [];
		data.runs.forEach(function (r) {
			var b = benchOf(r, name);
			if (b && b.status === 'measured') { labels.push(runTick(r)); runIds.push(r.id); }
		});
		var datasets = [];
		var unit = null;
		series.forEach(function (se) {
			var med = [], lo = [], hi = [];
			var any = false;
			runIds.forEach(function (id) {
				var r = runsById[id];
				var b = seriesKey(r) === se.key ? benchOf(r, name) : null;
				if (b && b.status === 'measured') {
					any = true; unit = unit || unitOf(r);
					med.push({ x: runLabel(r), y: b.median, run: r.id });
					lo.push(b.p10); hi.push(b.p90);
				} else { med.push(null); lo.push(null); hi.push(null); }
			});
			if (!any) return;
			datasets.push({ label: seriesLabel(se, 'p10'), quiet: true, data: lo, borderWidth: 0, pointRadius: 0, pointHitRadius: 0,
				fill: false, spanGaps: true, borderColor: alpha(se.colour, 0.3), band: true });
			datasets.push({ label: seriesLabel(se, 'p10–p90'), quiet: series.length > 1, data: hi, borderWidth: 0, pointRadius: 0, pointHitRadius: 0,
				fill: '-1', spanGaps: true, backgroundColor: alpha(se.colour, 0.22), borderColor: alpha(se.colour, 0.3), band: true });
			datasets.push({ label: seriesLabel(se, 'median'), data: med.map(function (p) { return p ? p.y : null; }), runs: med,
				borderColor: se.colour, backgroundColor: se.colour, borderDash: se.dash, spanGaps: true,
				pointRadius: 3, pointHoverRadius: 6, borderWidth: 2, tension: 0 });
			/* the steps stats/ found in this history (report_steps.c), marked where
			 * they happened */
			var steps = stepsOf(se, name);
			if (steps.length) {
				datasets.push({ label: seriesLabel(se, 'change point'), showLine: false, pointStyle: 'triangle',
					pointRadius: 9, pointHoverRadius: 11, borderColor: OI.black, backgroundColor: '#ffffff',
					data: runIds.map(function (id) {
						var st = steps.filter(function (x) { return x.run === id; });
						return st.length ? benchOf(runsById[id], name).median : null;
					}), steps: steps });
			}
			var base = baselineFor(se.board, se.runs.length ? se.runs[0].suite : null);
			var bb = base ? benchOf(base, name) : null;
			if (bb && bb.median !== null) {
				datasets.push({ label: series.length > 1 ? 'baseline ' + se.board : 'baseline', data: runIds.map(function () { return bb.median; }),
					borderColor: OI.black, borderDash: [5, 4], borderWidth: 1.5, pointRadius: 0, pointHitRadius: 0, fill: false });
			}
		});
		var f = figure('history', { bench: name },
			'Median per iteration over the runs, with the p10–p90 band, the baseline (dashed black) and the change points (triangles). Click a point for its run: commit, build-id, board.');
		var found = series.reduce(function (all, se) { return all.concat(stepsOf(se, name)); }, []);
		found.forEach(function (st) {
			f.figure.appendChild(el('p', { cls: 'note change-point', 'data-run': String(st.run) },
				'change point: ' + st.series + (st.suite ? ' · ' + st.suite : '') + ' from ',
				el('a', { href: '#run-' + st.run, text: runLabel(runsById[st.run]) }),
				', commit ' + (st.commit || 'unknown') + ': ' + fmt(st.before) + ' → ' + fmt(st.after) +
				(st.percent === null ? '' : ' (' + percentText(st.percent) + ')')));
		});
		chart(f.canvas, {
			type: 'line',
			data: { labels: labels, datasets: datasets },
			options: {
				interaction: { mode: 'nearest', intersect: true },
				plugins: {
					legend: { labels: { boxWidth: 14, filter: legendShown } },
					tooltip: { filter: function (item) { return !!item.dataset.runs; },
						callbacks: {
							label: function (ctx) {
								var p = ctx.dataset.runs[ctx.dataIndex];
								var r = runsById[p.run];
								var b = benchOf(r, name);
								return [r.board + ': median ' + fmt(b.median) + ' ' + unitOf(r) + ' (p10 ' + fmt(b.p10) + ', p90 ' + fmt(b.p90) + ')',
									'commit ' + (commitOf(r) || 'unknown') + ', build-id ' + short(buildIdOf(r) || 'none', 16),
									r.timestamp + ' — click to open the run'];
							},
						} },
				},
				onClick: function (evt, els, c) {
					for (var i = 0; i < els.length; i++) {
						var ds = c.data.datasets[els[i].datasetIndex];
						if (ds.runs && ds.runs[els[i].index]) {
							window.location.hash = '#run-' + ds.runs[els[i].index].run;
							return;
						}
					}
				},
				scales: {
					x: axis('run (UTC time, commit)', { ticks: { maxRotation: 0, autoSkip: true } }),
					y: axis('median (' + (unit || 'ticks') + ')'),
				},
			},
		});
		return f.figure;
	}

	/* The latest runs' samples of a bench, one histogram: per board and suite
	 * a colour, outliers stacked on their series' bar in vermillion. Bins span
	 * the samples that are not outliers, so their spread shows; an outlier
	 * beyond them gets a bin of its own at either end. */
	function distributionChart(name) {
		var sets = [];
		var unit = null;
		data.latest.forEach(function (l) {
			var run = runsById[l.run];
			var b = benchOf(run, name);
			if (!b || !b.samples || !b.samples.length) return;
			if (unit !== null && unitOf(run) !== unit) return; /* one unit per axis */
			unit = unitOf(run);
			var out = {};
			l.outliers.forEach(function (o) { if (o.bench === name) o.indices.forEach(function (i) { out[i] = true; }); });
			sets.push({ run: run, values: b.samples, out: out, count: Object.keys(out).length,
				se: seriesByKey[seriesKey(run)] });
		});
		if (!sets.length) return null;
		var all = [], body = [];
		sets.forEach(function (st) {
			st.values.forEach(function (v, i) { all.push(v); if (!st.out[i]) body.push(v); });
		});
		if (!body.length) body = all;
		var min = Math.min.apply(null, body), max = Math.max.apply(null, body);
		var nb = Math.max(1, Math.min(30, Math.ceil(Math.sqrt(body.length / sets.length))));
		var width = max > min ? Math.max(1, Math.ceil((max - min + 1) / nb)) : 1;
		nb = Math.floor((max - min) / width) + 1;
		var below = all.filter(function (v) { return v < min; });
		var above = all.filter(function (v) { return v > max; });
		var first = below.length ? 1 : 0;
		var total = nb + first + (above.length ? 1 : 0);
		var labels = [];
		function range(lo, hi) { return lo === hi ? fmt(lo) : fmt(lo) + '–' + fmt(hi); }
		if (below.length) labels.push(range(Math.min.apply(null, below), Math.max.apply(null, below)));
		for (var k = 0; k < nb; k++) {
			var lo = min + k * width;
			labels.push(range(lo, lo + width - 1));
		}
		if (above.length) labels.push(range(Math.min.apply(null, above), Math.max.apply(null, above)));
		var datasets = [];
		sets.forEach(function (st) {
			var kept = new Array(total).fill(0), marked = new Array(total).fill(0);
			st.values.forEach(function (v, i) {
				var k = v < min ? 0 : v > max ? total - 1 : first + Math.floor((v - min) / width);
				if (st.out[i]) marked[k]++; else kept[k]++;
			});
			var several = sets.length > 1;
			datasets.push({ label: several ? st.se.key : 'samples', data: kept, backgroundColor: st.se.colour, stack: st.se.key });
			datasets.push({ label: (several ? 'outliers · ' + st.se.key : 'outliers') + ' (' + st.count + ')', data: marked,
				quiet: several && st.count === 0,
				backgroundColor: OI.vermillion, borderColor: OI.black, borderWidth: 1, stack: st.se.key });
		});
		var who = sets.map(function (st) { return st.se.key + ', n = ' + st.values.length; }).join('; ');
		var f = figure('distribution', { bench: name },
			'Samples of the latest run (' + who + '); outliers (farther than 5 MADs from the median) in vermillion, outlined, in bins of their own when beyond the rest.');
		chart(f.canvas, {
			type: 'bar',
			data: { labels: labels, datasets: datasets },
			options: {
				plugins: { legend: { labels: { boxWidth: 14, filter: legendShown } } },
				scales: {
					x: axis('count per iteration (' + unit + ')', { stacked: true, ticks: { maxRotation: 45, autoSkip: true } }),
					y: axis('samples (number)', { stacked: true, beginAtZero: true, ticks: { precision: 0 } }),
				},
			},
		});
		return f.figure;
	}

	function trends() {
		if (!benchNames.length) return;
		var s = section('benches', 'Benches',
			'Per bench: the median over the run history with its p10–p90 band and the baseline, and how the latest run\'s samples spread.');
		var cards = el('div', { cls: 'cards' });
		s.appendChild(cards);
		benchNames.forEach(function (name) {
			var card = el('div', { cls: 'card bench', id: 'bench-' + name.replace(/[^A-Za-z0-9_-]/g, '_'), 'data-bench': name });
			card.appendChild(el('h3', { cls: 'bench-name', text: name }));
			var pair = el('div', { cls: 'pair' });
			pair.appendChild(historyChart(name));
			var d = distributionChart(name);
			pair.appendChild(d || el('p', { cls: 'note', text: 'No samples in the latest run (not run, or a baseline only).' }));
			card.appendChild(pair);
			data.latest.forEach(function (l) {
				var b = benchOf(runsById[l.run], name);
				if (b && b.status !== 'measured')
					card.appendChild(el('p', { cls: 'warning reason', text: seriesKey(runsById[l.run]) + ': not run: ' + b.reason }));
			});
			cards.appendChild(card);
		});
	}

	/* -------------------------------------------------------- sizes, memory */
	function budgetLine(label, values) {
		return { type: 'line', label: label, data: values, showLine: false, borderColor: OI.black,
			backgroundColor: OI.black, pointStyle: 'line', pointRadius: 14, pointBorderWidth: 3, pointHoverRadius: 16 };
	}

	/* A figure per bench of the latest runs (a bar per board and suite) against its budget. */
	function memoryChart(kind, title, pick, budgetKey, caption) {
		var names = [];
		data.latest.forEach(function (l) {
			runsById[l.run].benches.forEach(function (b) { if (names.indexOf(b.name) < 0) names.push(b.name); });
		});
		var several = data.latest.length > 1;
		var datasets = [], budgets = names.map(function () { return null; });
		data.latest.forEach(function (l) {
			var run = runsById[l.run];
			var se = seriesByKey[seriesKey(run)];
			var values = names.map(function (n, k) {
				var b = benchOf(run, n);
				if (!b) return null;
				var lim = budget(b.budgets, budgetKey);
				if (lim !== null && (budgets[k] === null || lim < budgets[k])) budgets[k] = lim;
				return b.status === 'measured' ? pick(b) : null;
			});
			var colours = values.map(function (v, k) {
				return v !== null && budgets[k] !== null && v > budgets[k] ? OI.vermillion : several ? se.colour : OI.sky;
			});
			datasets.push({ label: several ? se.key : title, data: values, backgroundColor: colours, borderColor: OI.black, borderWidth: 0.5 });
		});
		if (budgets.some(function (b) { return b !== null; })) datasets.push(budgetLine('budget', budgets));
		var f = figure(kind, {}, caption + ' (latest run' + (several ? ' of each board and suite' : '') + '). Black marks: the budget; a bar over it is vermillion.');
		chart(f.canvas, {
			type: 'bar',
			data: { labels: names, datasets: datasets },
			options: {
				plugins: { legend: { labels: { boxWidth: 14 } } },
				scales: { x: axis('bench', { ticks: { maxRotation: 60, autoSkip: false } }),
					y: axis(title + ' (bytes)', { beginAtZero: true }) },
			},
		});
		return f.figure;
	}

	/* With no history to draw: the latest firmware sizes, a bar per board and suite. */
	function sizeBars() {
		var labels = [], text = [], dat = [], bss = [], limit = [];
		data.latest.forEach(function (l) {
			var r = runsById[l.run];
			labels.push(seriesKey(r));
			text.push(firmwareOf(r).text_bytes); dat.push(firmwareOf(r).data_bytes); bss.push(firmwareOf(r).bss_bytes);
			limit.push(budget(r.budgets, 'max_text_bytes'));
		});
		var f = figure('sizes', {}, 'Firmware text, data and bss of the latest run of each board and suite; black marks: the text budget.');
		var ds = [
			{ label: 'text', data: text, backgroundColor: OI.blue },
			{ label: 'data', data: dat, backgroundColor: OI.orange },
			{ label: 'bss', data: bss, backgroundColor: OI.green },
		];
		if (limit.some(function (v) { return v !== null; })) ds.push(budgetLine('max_text_bytes', limit));
		chart(f.canvas, {
			type: 'bar',
			data: { labels: labels, datasets: ds },
			options: {
				plugins: { legend: { labels: { boxWidth: 14 } } },
				scales: { x: axis('board · suite', { ticks: { maxRotation: 45, autoSkip: false } }),
					y: axis('size (bytes)', { beginAtZero: true }) },
			},
		});
		return f.figure;
	}

	function sizeHistory(se) {
		var labels = [], text = [], dat = [], bss = [], limit = [];
		se.runs.forEach(function (r) {
			labels.push(runTick(r));
			text.push(firmwareOf(r).text_bytes); dat.push(firmwareOf(r).data_bytes); bss.push(firmwareOf(r).bss_bytes);
			limit.push(budget(r.budgets, 'max_text_bytes'));
		});
		var f = figure('sizes', { series: se.key }, 'Firmware text, data and bss over the runs (' + se.key + '); dashed black: the text budget.');
		var ds = [
			{ label: 'text', data: text, borderColor: OI.blue, backgroundColor: OI.blue, pointRadius: 2 },
			{ label: 'data', data: dat, borderColor: OI.orange, backgroundColor: OI.orange, borderDash: [6, 3], pointRadius: 2 },
			{ label: 'bss', data: bss, borderColor: OI.green, backgroundColor: OI.green, borderDash: [2, 2], pointRadius: 2 },
		];
		if (limit.some(function (v) { return v !== null; }))
			ds.push({ label: 'max_text_bytes', data: limit, borderColor: OI.black, borderDash: [5, 4], pointRadius: 0, borderWidth: 1.5 });
		chart(f.canvas, {
			type: 'line',
			data: { labels: labels, datasets: ds },
			options: {
				plugins: { legend: { labels: { boxWidth: 14 } } },
				scales: { x: axis('run (UTC time, commit)', { ticks: { maxRotation: 0, autoSkip: true } }),
					y: axis('size (bytes)', { beginAtZero: true }) },
			},
		});
		return f.figure;
	}

	function symbolsTable(l) {
		if (!l.symbols || !l.symbols.length) return null;
		var t = el('table', { cls: 'symbols' }, el('thead', {}, el('tr', {},
			el('th', { text: 'name' }), el('th', { text: 'kind' }), el('th', { text: 'section' }),
			el('th', { text: 'size (bytes)' }))));
		var tb = el('tbody');
		l.symbols.forEach(function (s) {
			tb.appendChild(el('tr', {}, el('td', { cls: 'mono', text: s.name }), el('td', { text: s.kind }),
				el('td', { cls: 'mono', text: s.section }),
				el('td', { cls: 'num', text: fmt(s.size) })));
		});
		t.appendChild(tb);
		return el('div', { cls: 'table-wrap' }, el('h3', { text: 'Biggest functions and objects in flash of ' + firmwareName(runsById[l.run]) }), t);
	}

	function benchTextChart(l) {
		if (!l.bench_text || !l.bench_text.length) return null;
		var run = runsById[l.run];
		var f = figure('bench-text', { run: String(run.id) }, 'Text each bench adds to ' + firmwareName(run) + ' over the empty bench.');
		chart(f.canvas, {
			type: 'bar',
			data: { labels: l.bench_text.map(function (b) { return b.bench; }),
				datasets: [{ label: 'text over the empty bench', data: l.bench_text.map(function (b) { return b.text; }), backgroundColor: OI.blue }] },
			options: { scales: { x: axis('bench', { ticks: { maxRotation: 60, autoSkip: false } }), y: axis('text (bytes)', { beginAtZero: true }) } },
		});
		return f.figure;
	}

	function sizes() {
		if (!data.runs.length) return;
		var s = section('sizes', 'Sizes, stack and heap',
			'Flash and RAM the firmware takes, and per bench the deepest stack and the heap peak, against their budgets.');
		var cards = el('div', { cls: 'cards' });
		s.appendChild(cards);
		var histories = series.filter(function (se) { return se.runs.length > 1; });
		histories.forEach(function (se) { cards.appendChild(el('div', { cls: 'card' }, sizeHistory(se))); });
		if (!histories.length && data.latest.length) cards.appendChild(el('div', { cls: 'card' }, sizeBars()));
		if (data.latest.length) {
			cards.appendChild(el('div', { cls: 'card' }, memoryChart('stack', 'deepest stack', function (b) { return b.stack_bytes; },
				'max_stack_bytes', 'Deepest stack per bench')));
			cards.appendChild(el('div', { cls: 'card' }, memoryChart('heap', 'heap peak', function (b) { return b.heap ? b.heap.peak_bytes : null; },
				'max_heap_bytes', 'Heap peak per bench')));
		}
		/* Per firmware (by build-id), once however many boards ran it. */
		var seen = {};
		data.latest.forEach(function (l) {
			var run = runsById[l.run];
			var key = buildIdOf(run) || firmwareOf(run).path;
			if (seen[key]) return;
			seen[key] = true;
			var bt = benchTextChart(l);
			if (bt) cards.appendChild(el('div', { cls: 'card' }, bt));
			var st = symbolsTable(l);
			if (st) cards.appendChild(el('div', { cls: 'card' }, st));
		});
	}

	/* ----------------------------------------------------------------- racks */
	var OUTCOME_TEXT = { pass: 'pass', regression: 'regression', infra: 'infrastructure error', 'not-run': 'not run' };

	function reasonsList(board) {
		var items = [];
		if (board.health.probed && !board.health.healthy) items.push('health check: ' + board.health.reason);
		if (!board.health.probed && board.health.reason) items.push('health check: ' + board.health.reason);
		board.health.failed_attempts.forEach(function (r, i) { items.push('health check attempt ' + (i + 1) + ': ' + r); });
		board.suites.forEach(function (su) {
			if (su.outcome !== 'pass' && su.reason) items.push(su.suite + ': ' + su.reason);
			su.failed_attempts.forEach(function (r, i) { items.push(su.suite + ' attempt ' + (i + 1) + ': ' + r); });
		});
		return items;
	}

	function matrixTable(rack, m) {
		var t = el('table', { cls: 'matrix', 'data-kind': 'matrix', 'data-suite': m.suite });
		var head = el('tr', {}, el('th', { text: 'board \\ bench' }));
		m.benches.forEach(function (b) { head.appendChild(el('th', { text: b })); });
		t.appendChild(el('thead', {}, head,
			(function () {
				var tr = el('tr', {}, el('th', { text: 'rack median (' + m.unit + ')' }));
				m.rack_median.forEach(function (v) { tr.appendChild(el('td', { cls: 'num', text: fmt(v) })); });
				return tr;
			})()));
		var tb = el('tbody');
		m.rows.forEach(function (row) {
			var tr = el('tr', { cls: row.off ? 'off-board' : '', 'data-board': row.board });
			tr.appendChild(el('th', { text: row.board + (row.off ? ' — off' : '') }));
			row.cells.forEach(function (c) {
				if (c.ratio === null) { tr.appendChild(el('td', { cls: 'cell', text: '—' })); return; }
				var pct = (c.ratio - 1) * 100;
				var td = el('td', { cls: 'cell' + (c.off ? ' off' : ''), title: fmt(c.median) + ' ' + m.unit });
				td.textContent = fmt(c.median) + ' (' + (pct > 0 ? '+' : '') + pct.toFixed(1) + '%)';
				/* Blue below the rack median, orange above: a diverging pair that survives colour-blindness. */
				var a = Math.min(1, Math.abs(pct) / Math.max(1, 4 * m.off_percent));
				td.style.background = pct > 0 ? alpha(OI.orange, 0.15 + 0.7 * a) : pct < 0 ? alpha(OI.sky, 0.15 + 0.7 * a) : '#f0f0f0';
				tr.appendChild(td);
			});
			tb.appendChild(tr);
		});
		t.appendChild(tb);
		return t;
	}

	function racks() {
		if (!data.racks.length) return;
		var s = section('racks', 'Racks',
			'Per rack: each board\'s outcome, why a board failed, and a board × bench matrix of medians against the rack\'s median (a board is off when a bench differs from the rack median by more than the suite\'s regression limit).');
		var runByFile = {};
		data.runs.forEach(function (r) { runByFile[r.file] = r.id; });
		data.racks.forEach(function (rack) {
			var doc = rack.document;
			var card = el('div', { cls: 'card rack', 'data-rack': doc.name });
			card.appendChild(el('h3', {}, 'rack ' + doc.name + ' ', el('span', { cls: 'note', text: '(' + rack.file + ', exit ' + doc.exit_code + ')' })));
			var t = el('table', { cls: 'boards' }, el('thead', {}, el('tr', {},
				el('th', { text: 'board' }), el('th', { text: 'outcome' }), el('th', { text: 'health' }), el('th', { text: 'suites' }), el('th', { text: 'reasons' }))));
			var tb = el('tbody');
			doc.boards.forEach(function (b) {
				var reasons = reasonsList(b);
				var ul = el('ul', { cls: 'reasons' });
				reasons.forEach(function (r) { ul.appendChild(el('li', { cls: 'reason', text: r })); });
				var suites = el('span');
				b.suites.forEach(function (su, i) {
					if (i) suites.appendChild(document.createTextNode(', '));
					var label = su.suite.replace(/^.*\//, '') + ': ' + (OUTCOME_TEXT[su.outcome] || su.outcome);
					var id = su.run !== null && runByFile[su.run] !== undefined ? runByFile[su.run] : null;
					suites.appendChild(id !== null ? el('a', { href: '#run-' + id, text: label }) : el('span', { text: label }));
				});
				tb.appendChild(el('tr', { 'data-board': b.name, 'data-outcome': b.outcome },
					el('th', { text: b.name }),
					el('td', {}, el('span', { cls: 'badge ' + b.outcome, text: OUTCOME_TEXT[b.outcome] || b.outcome })),
					el('td', { text: !b.health.probed ? 'not probed' : b.health.healthy ? 'healthy' : 'unhealthy' }),
					el('td', {}, suites),
					el('td', {}, reasons.length ? ul : el('span', { cls: 'note', text: '—' }))));
			});
			t.appendChild(tb);
			card.appendChild(el('div', { cls: 'table-wrap' }, t));
			rack.matrices.forEach(function (m) {
				card.appendChild(el('h3', { text: 'Medians against the rack median: ' + m.suite + ' (' + m.unit + ')' }));
				card.appendChild(el('div', { cls: 'table-wrap' }, matrixTable(rack, m)));
				card.appendChild(el('p', { cls: 'note', text: 'Cells: the board\'s median and its difference from the rack median; outlined: off by more than ' + m.off_percent + ' %.' }));
			});
			if (!rack.matrices.length)
				card.appendChild(el('p', { cls: 'note', text: 'No board of this rack has a readable run record: no matrix.' }));
			s.appendChild(card);
		});
	}

	/* -------------------------------------------------------------- profiles */
	/* A flame graph: d3's partition, root at the bottom. Colour by self
	 * share (pale: none of its own, deep: the most self in the profile);
	 * a search box marks the frames whose name holds the text and says
	 * their share; a click on a frame zooms to it (its callers span the
	 * width), a click on the root zooms out. */
	function flame(p) {
		var f = el('figure', { cls: 'chart', 'data-kind': 'flame', 'data-profile': p.name });
		var search = el('input', { type: 'search', cls: 'flame-search', placeholder: 'search frames', 'aria-label': 'search the frames of ' + p.name });
		var found = el('span', { cls: 'flame-found note' });
		f.appendChild(el('div', { cls: 'flame-tools' }, search, found));
		var box = el('div', { cls: 'flame' });
		f.appendChild(box);
		f.appendChild(el('figcaption', { text: 'Flame graph of ' + p.name + ': width is ' + p.unit + ' (total ' + fmt(p.total) + '), depth is the call stack, root at the bottom; colour deepens with a frame\'s self share. Hover for a frame\'s figures, click to zoom to it (the root zooms out), search to mark frames.' }));
		var width = Math.max(320, Math.min(1360, main.clientWidth - 40));
		var rowH = 18;
		/* The tree comes as columns (parent, frame, self): node 0 is the root. */
		var nodes = p.frame.map(function (name, i) { return { name: name, self: p.self[i], children: [] }; });
		p.parent.forEach(function (par, i) { if (par >= 0) nodes[par].children.push(nodes[i]); });
		var root = d3.hierarchy(nodes[0], function (d) { return d.children; })
			.sum(function (d) { return d.self; })
			.sort(function (a, b) { return b.value - a.value; });
		var depth = root.height + 1;
		var height = depth * rowH + 30;
		d3.partition().size([width, depth * rowH]).padding(0)(root);
		var maxSelf = d3.max(root.descendants(), function (d) { return d.data.self; }) || 1;
		var heat = d3.interpolateRgb('#FCE9B8', OI.vermillion);
		var svg = d3.select(box).append('svg').attr('viewBox', '0 0 ' + width + ' ' + height)
			.attr('width', '100%').attr('preserveAspectRatio', 'xMinYMin meet')
			.attr('role', 'img').attr('aria-label', 'flame graph of ' + p.name);
		var g = svg.selectAll('g').data(root.descendants()).enter().append('g')
			.attr('data-name', function (d) { return d.data.name; })
			.style('cursor', 'pointer');
		var rect = g.append('rect')
			.attr('height', rowH - 1)
			.attr('fill', function (d) { return heat(Math.sqrt(d.data.self / maxSelf)); });
		g.append('title').text(function (d) {
			return d.data.name + ': ' + fmt(d.value) + ' ' + p.unit + ' (' + (100 * d.value / root.value).toFixed(1) + ' %), self ' + fmt(d.data.self);
		});
		var label = g.append('text').attr('x', 3).attr('y', rowH - 5);
		function layout(focus) {
			var k = width / Math.max(1e-9, focus.x1 - focus.x0);
			var on = function (d) { return focus.ancestors().indexOf(d) >= 0 || d.ancestors().indexOf(focus) >= 0; };
			g.each(function (d) {
				var under = d.ancestors().indexOf(focus) >= 0;
				d.zx0 = under ? (d.x0 - focus.x0) * k : 0;
				d.zx1 = under ? (d.x1 - focus.x0) * k : (on(d) ? width : 0);
			});
			g.attr('transform', function (d) { return 'translate(' + d.zx0 + ',' + (depth * rowH - d.y1) + ')'; })
				.style('display', function (d) { return on(d) ? null : 'none'; });
			rect.attr('width', function (d) { return Math.max(0, d.zx1 - d.zx0); });
			label.text(function (d) {
				var n = Math.floor((d.zx1 - d.zx0 - 6) / 6.6);
				return n < 3 ? '' : d.data.name.length > n ? d.data.name.slice(0, n - 1) + '…' : d.data.name;
			});
			f.dataset.zoom = focus.data.name;
		}
		g.on("click", function (d) { layout(d.parent ? d : root); });
		search.addEventListener('input', function () {
			var q = search.value;
			var marked = 0;
			g.classed('flame-match', function (d) { return q !== '' && d.data.name.indexOf(q) >= 0; });
			g.classed('flame-dim', function (d) { return q !== '' && d.data.name.indexOf(q) < 0; });
			/* The share under marked frames, each counted once (not again under a marked caller). */
			root.each(function (d) {
				if (q === '' || d.data.name.indexOf(q) < 0) return;
				if (d.ancestors().slice(1).some(function (a) { return a.data.name.indexOf(q) >= 0; })) return;
				marked += d.value;
			});
			var share = root.value ? marked / root.value : 0;
			f.dataset.matched = q === '' ? '' : String(share);
			found.textContent = q === '' ? '' : (100 * share).toFixed(1) + ' % of ' + p.unit + ' in frames matching "' + q + '"';
		});
		layout(root);
		svg.append('text').attr('x', 0).attr('y', height - 6).attr('class', 'axis')
			.text('0 … ' + fmt(root.value) + ' ' + p.unit + ' (x) · call depth (y)');
		return f;
	}

	/* The per-line view of a benchrack profile record: its hottest
	 * functions (by the counts of their lines), each a table of its source
	 * lines, hottest first, with their counts, their share of the profile
	 * and the line's text where the report could read the file. */
	var LINE_FUNCTIONS = 5;
	function lineView(p) {
		if (!p.lines || !p.lines.length) return null;
		var byFn = {};
		var order = [];
		p.lines.forEach(function (l) {
			if (!byFn[l['function']]) { byFn[l['function']] = { name: l['function'], self: 0, lines: [] }; order.push(byFn[l['function']]); }
			byFn[l['function']].self += l.self;
			byFn[l['function']].lines.push(l);
		});
		order.sort(function (a, b) { return b.self - a.self; });
		var pct = function (v) { return p.total ? (100 * v / p.total).toFixed(2) + ' %' : '—'; };
		var f = el('figure', { cls: 'chart', 'data-kind': 'lines', 'data-profile': p.name });
		order.slice(0, LINE_FUNCTIONS).forEach(function (fn) {
			var body = el('tbody');
			fn.lines.forEach(function (l) {
				body.appendChild(el('tr', { 'data-line': String(l.line), 'data-count': String(l.self) },
					el('td', { cls: 'where', text: l.file + ':' + l.line }),
					el('td', { cls: 'num', text: fmt(l.self) }),
					el('td', { cls: 'num', text: pct(l.self) }),
					el('td', { cls: 'source' }, l.source === null ? el('span', { cls: 'note', text: 'source not found' }) : el('code', { text: l.source }))));
			});
			f.appendChild(el('div', { cls: 'table-wrap', 'data-function': fn.name },
				el('h4', { text: fn.name + ': ' + fmt(fn.self) + ' ' + p.unit + ' (' + pct(fn.self) + ')' }),
				el('table', { cls: 'lines' },
					el('thead', {}, el('tr', {}, el('th', { text: 'line' }), el('th', { text: p.unit }), el('th', { text: 'share' }), el('th', { text: 'source' }))),
					body)));
		});
		f.appendChild(el('figcaption', { text: 'The hottest functions of ' + p.name + ' line by line (at most ' + LINE_FUNCTIONS + ' functions, ' + p.lines.length + ' lines in all): each line\'s own ' + p.unit + ' and its share of the profile\'s ' + fmt(p.total) + '.' }));
		return f;
	}

	function profiles() {
		if (!data.profiles.length) return;
		var s = section('profiles', 'Profiles', 'Where the time went, per profile given with --profile.');
		data.profiles.forEach(function (p) {
			s.appendChild(el('div', { cls: 'card' }, el('h3', { text: p.name }), flame(p), lineView(p)));
		});
	}

	/* ------------------------------------------------------------------ runs */
	function runsTable() {
		if (!data.runs.length) return;
		var s = section('runs', 'Runs', 'Every run in this report, oldest first; the charts\' points link here.');
		var t = el('table', { cls: 'runs' }, el('thead', {}, el('tr', {},
			el('th', { text: 'time (UTC)' }), el('th', { text: 'board' }), el('th', { text: 'suite' }),
			el('th', { text: 'status' }), el('th', { text: 'commit' }), el('th', { text: 'build-id' }),
			el('th', { text: 'counter, unit' }), el('th', { text: 'record' }))));
		var tb = el('tbody');
		data.runs.forEach(function (r) {
			tb.appendChild(el('tr', { id: 'run-' + r.id },
				el('td', { cls: 'mono', text: r.timestamp }), el('td', { text: r.board }), el('td', { text: r.suite || '—' }),
				el('td', { text: r.status + (r.error ? ': ' + r.error : '') }),
				el('td', { cls: 'mono', text: commitOf(r) || 'unknown' }), el('td', { cls: 'mono', text: short(buildIdOf(r), 16) || 'none' }),
				el('td', { text: r.counter.name + ', ' + unitOf(r) }), el('td', { cls: 'mono', text: r.file })));
		});
		t.appendChild(tb);
		s.appendChild(el('div', { cls: 'table-wrap' }, t));
	}

	guard('header', header);
	guard('racks', racks);
	guard('comparison', comparison);
	guard('benches', trends);
	guard('sizes', sizes);
	guard('profiles', profiles);
	guard('runs', runsTable);
	if (!main.children.length) main.appendChild(el('p', { cls: 'warning', text: 'Nothing to show: no run record, rack document or profile was found.' }));

	/* Paper is narrower than the screen: redraw the charts at its width. */
	function redraw() { state.charts.forEach(function (c) { c.resize(); }); }
	window.addEventListener('beforeprint', redraw);
	if (window.matchMedia) window.matchMedia('print').addEventListener('change', redraw);
	/* Milliseconds from the start of navigation to every chart drawn (the benchmark reads it). */
	state.renderedMs = performance.now();
	document.documentElement.setAttribute('data-rendered', state.errors.length ? 'errors' : 'ok');
})();
