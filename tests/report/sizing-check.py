#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# sizing-check.py TRACE JSON STRATEGY MARGIN: checks `tpmon report
# --recommend=STRATEGY --json` against its own reading of the Nextflow
# TRACE (formatted fields, COMPLETED rows): per process, for max, a memory
# at least the highest peak_rss and no task over it; for quantile:Q, the
# memory that the man page's rule gives (type-7 quantile x (1 + margin),
# rounded up to 64/256/1024 MB steps; max below ceil(1/(1-Q)) tasks) and
# exactly the tasks above the recommendation (memory or wall time) counted
# as exceeded.  Prints one line per mismatch, then "checked N groups".
import json, math, re, sys

UNITS = ["B", "KB", "MB", "GB", "TB", "PB"]


def mem_mb(s):
    v, u = s.split()
    return float(v) * 1024 ** UNITS.index(u) / 1048576


def secs(s):
    t = 0.0
    for num, unit in re.findall(r"([\d.]+)(ms|d|h|m|s)", s):
        t += float(num) * {"ms": 0.001, "s": 1, "m": 60, "h": 3600, "d": 86400}[unit]
    return t


def q7(x, p):
    x = sorted(x)
    h = (len(x) - 1) * p
    k = math.floor(h)
    return x[k] + (h - k) * (x[k + 1] - x[k]) if k + 1 < len(x) else x[k]


def round_mem(mb):
    step = 64 if mb <= 1024 else 256 if mb <= 16384 else 1024
    return max(64, math.ceil(mb / step - 1e-9) * step)


def round_time(s):
    return max(60, math.ceil(s / 60 - 1e-9) * 60)


trace, doc, strat, margin = sys.argv[1], json.load(open(sys.argv[2])), sys.argv[3], float(sys.argv[4])
rows = [l.rstrip("\n").split("\t") for l in open(trace)]
col = {n: i for i, n in enumerate(rows[0])}
tasks = {}
for r in rows[1:]:
    if r[col["status"]] != "COMPLETED":
        continue
    tasks.setdefault(r[col["process"]], []).append((mem_mb(r[col["peak_rss"]]), secs(r[col["realtime"]])))
bad = 0
total_over = 0
for c in doc["categories"]:
    name, rec, rep = c["category"], c["recommend"], c["replay"]
    t = tasks[name]
    mems = [m for m, _ in t]
    walls = [w for _, w in t]
    over = sum(1 for m, w in t if m > rec["memory"] or w > rec["wall_time"])
    total_over += over
    if strat == "max":
        want_mem = round_mem(max(mems) * (1 + margin))
        if rec["memory"] < max(mems) or rep["exceeded_first_try"] != 0:
            print("%s: memory %s < peak %s or %s exceeded" % (name, rec["memory"], max(mems),
                                                              rep["exceeded_first_try"]))
            bad += 1
    else:
        q = float(strat.split(":")[1])
        need = math.ceil(1 / (1 - q) - 1e-9)
        f = (lambda x: q7(x, q)) if len(t) >= need else max
        want_mem = round_mem(f(mems) * (1 + margin))
        if rec["wall_time"] != round_time(f(walls) * (1 + margin)):
            print("%s: wall_time %s, expected %s" % (name, rec["wall_time"], round_time(f(walls) * (1 + margin))))
            bad += 1
    if rec["memory"] != want_mem:
        print("%s: memory %s, expected %s" % (name, rec["memory"], want_mem))
        bad += 1
    if rep["exceeded_first_try"] != over or rep["tasks"] != len(t):
        print("%s: exceeded %s of %s, expected %s of %s" % (name, rep["exceeded_first_try"],
                                                           rep["tasks"], over, len(t)))
        bad += 1
if doc["replay"]["exceeded_first_try"] != total_over:
    print("total: exceeded %s, expected %s" % (doc["replay"]["exceeded_first_try"], total_over))
    bad += 1
print("checked %d groups, %d tasks over, %d mismatches" % (len(doc["categories"]), total_over, bad))
sys.exit(1 if bad else 0)
