"""Assertions shared by the upload tests: what InfluxDB and the Pushgateway
must show of a result record after an upload."""
import records

DB = "bench"


def influx_points(c, influx, rec, measurement, what, db=DB, run_file=""):
    """The points of rec in measurement: exactly one per measured bench, at
    the record's time, every tag and field as the record says; the firmware's
    sizes once in <measurement>_firmware."""
    want_time = records.point_time_ms(rec, run_file)
    points = [p for p in influx.points(db, measurement) if p["time"] == want_time]
    benches = [b for b in rec["benches"] if b["status"] == "measured"]
    c.check(len(points) == len(benches),
            f"{what}: {len(points)} points at the run's time, one per bench ({len(benches)})",
            repr(points))
    for b in benches:
        name = records.lp_name(b["name"])
        mine = [p for p in points if p.get("bench") == name]
        if not c.check(len(mine) == 1, f"{what}: bench {name!r} exactly once", repr(points)):
            continue
        p = mine[0]
        labels = {k: records.lp_name(v) for k, v in records.expected_labels(rec, b).items()}
        got_tags = {k: p[k] for k in labels}
        c.check(got_tags == labels, f"{what}: {name!r} carries every tag", f"{got_tags}\n{labels}")
        prov = records.expected_provenance(rec, b)
        got_prov = {k: p.get(k) for k in prov}
        c.check(got_prov == {k: records.lp_string(v) for k, v in prov.items()},
                f"{what}: {name!r} carries its provenance as string fields",
                f"{got_prov}\n{prov}")
        c.check(not (set(influx.tag_keys(db, measurement)) & set(prov)),
                f"{what}: no provenance among the tags", repr(influx.tag_keys(db, measurement)))
        fields = records.expected_fields(b)
        got = {k: p.get(k) for k in fields}
        c.check(got == {k: v[0] for k, v in fields.items()},
                f"{what}: {name!r} values are the record's", f"{got}\n{fields}")
    fw = [p for p in influx.points(db, measurement + "_firmware") if p["time"] == want_time]
    c.check(len(fw) == 1 and fw[0]["text_bytes"] == rec["firmware"]["text_bytes"] and
            fw[0]["bss_bytes"] == rec["firmware"]["bss_bytes"],
            f"{what}: the firmware's sizes once in {measurement}_firmware", repr(fw))


def pushgateway_group(c, pg, rec, what, job="benchrack", grouping=("board", "suite"),
                      run_file=""):
    """Every measured bench of rec once per metric, labels and values as the
    record says; the grouping labels are the job's and the record's."""
    group = {"job": job}
    group.update({k: rec[k] or "" for k in grouping})
    benches = [b for b in rec["benches"] if b["status"] == "measured"]

    def in_group(labels):
        return all(labels.get(k, "") == v for k, v in group.items())

    for metric in ("median", "p90", "n", "stack_bytes", "heap_peak_bytes", "cv_median"):
        samples = [(labels, v) for _, labels, v in pg.samples("benchrack_" + metric)
                   if in_group(labels)]
        c.check(len(samples) == len(benches),
                f"{what}: benchrack_{metric} once per bench ({len(samples)}/{len(benches)})",
                repr(samples))
        for b in benches:
            want = dict(records.expected_labels(rec, b))
            for k in grouping:
                want.pop(k, None)
            want.update({k: v for k, v in group.items() if v})
            if metric == "median":
                info = [l for _, l, v in pg.samples("benchrack_run_info")
                        if in_group(l) and v == 1]
                run_prov = {k: v for k, v in records.expected_provenance(rec, b).items()
                            if k not in ("mode", "elf") and k not in grouping}
                c.check(len(info) == 1 and all(info[0].get(k) == v for k, v in run_prov.items()),
                        f"{what}: the provenance once, in benchrack_run_info", repr(info))
            mine = [(l, v) for l, v in samples if l.get("bench") == b["name"]]
            if not c.check(len(mine) == 1, f"{what}: {metric} of {b['name']!r} exactly once",
                           repr(samples)):
                continue
            labels, value = mine[0]
            labels = {k: v for k, v in labels.items() if k != "instance" and v != ""}
            c.check(labels == want, f"{what}: {metric} of {b['name']!r} has every label",
                    f"{labels}\n{want}")
            c.check(value == records.expected_fields(b)[metric][0],
                    f"{what}: {metric} of {b['name']!r} is the record's ({value})")
    ts = [v for _, labels, v in pg.samples("benchrack_run_timestamp_seconds") if in_group(labels)]
    c.check(ts == [records.point_time_ms(rec, run_file) / 1000.0],
            f"{what}: the run's time as benchrack_run_timestamp_seconds", repr(ts))
    fw = [v for _, labels, v in pg.samples("benchrack_firmware_text_bytes") if in_group(labels)]
    c.check(fw == [rec["firmware"]["text_bytes"]], f"{what}: the firmware's text size once",
            repr(fw))
