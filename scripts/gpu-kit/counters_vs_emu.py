#!/usr/bin/env python3
"""CUPTI's counters of the cuda cases beside cuda-emu's counts of the same cases (runs tagged
kit=compare by run-on-gpu.sh), as a Markdown table: how far emu's L2 model is from the hardware.
With --tag KEY=VALUE: the CUPTI counters of the cuda cases of the runs with that tag instead.
    counters_vs_emu.py DB [--tag KEY=VALUE]"""
import sqlite3
import statistics
import sys

METRICS = ["dram__bytes_read.sum", "dram__bytes_write.sum", "lts__t_bytes.sum"]


def cases(db, tag):
    key, value = tag.split("=", 1)
    rows = db.execute(
        "SELECT c.id, c.family, c.variant, c.backend, c.problem, c.config, c.status FROM cases c "
        "JOIN run_tags t ON t.run_id = c.run_id WHERE t.key = ? AND t.value = ?", (key, value))
    return rows.fetchall()


def counters(db, case_id, source):
    return {n: v for n, v in db.execute(
        "SELECT name, value FROM counters WHERE case_id = ? AND source = ?", (case_id, source))}


def median_ms(db, case_id):
    xs = [s for (s,) in db.execute("SELECT seconds FROM samples WHERE case_id = ?", (case_id,))]
    return 1e3 * statistics.median(xs) if xs else float("nan")


def fmt(x):
    return "-" if x is None else f"{x:.4g}"


def ratio(a, b):
    return f"{a / b:.2f}" if a and b else "-"


def compare(db):
    by_key = {}
    for cid, fam, var, backend, problem, config, status in cases(db, "kit=compare"):
        by_key.setdefault((fam, var, problem, config), {})[backend] = (cid, status)
    print("| case | emu DRAM read | GPU DRAM read | GPU/emu | emu L2 | GPU L2 | GPU/emu | GPU median ms |")
    print("|---|---|---|---|---|---|---|---|")
    pairs = 0
    for (fam, var, problem, config), b in sorted(by_key.items()):
        if "cuda" not in b or "cuda-emu" not in b:
            continue
        (gid, gstatus), (eid, estatus) = b["cuda"], b["cuda-emu"]
        if gstatus != "ok" or estatus != "ok":
            print(f"| {fam}/{var} {problem} {config} | {estatus} | {gstatus} | | | | | |")
            continue
        e, g = counters(db, eid, "emu"), counters(db, gid, "cupti")
        er, gr = e.get(METRICS[0]), g.get(METRICS[0])
        el, gl = e.get(METRICS[2]), g.get(METRICS[2])
        print(f"| {fam}/{var} {problem} {config} | {fmt(er)} | {fmt(gr)} | {ratio(gr, er)} "
              f"| {fmt(el)} | {fmt(gl)} | {ratio(gl, el)} | {median_ms(db, gid):.4g} |")
        pairs += 1
    print(f"\n{pairs} cases on both backends (bytes; GPU: CUPTI range profiler, L2 flushed before each pass).")


def tagged(db, tag):
    print("| case | " + " | ".join(METRICS) + " | median ms |")
    print("|---|" + "---|" * (len(METRICS) + 1))
    for cid, fam, var, backend, problem, config, status in cases(db, tag):
        if backend != "cuda":
            continue
        g = counters(db, cid, "cupti")
        cells = " | ".join(f"{g[m]:.6g}" if m in g else "-" for m in METRICS)
        print(f"| {fam}/{var} {problem} ({status}) | {cells} | {median_ms(db, cid):.4g} |")


def main(argv):
    if len(argv) not in (2, 4) or (len(argv) == 4 and argv[2] != "--tag"):
        print(__doc__, file=sys.stderr)
        return 2
    db = sqlite3.connect(f"file:{argv[1]}?mode=ro", uri=True)
    if len(argv) == 4:
        tagged(db, argv[3])
    else:
        compare(db)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
