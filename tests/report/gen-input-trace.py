#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# gen-input-trace.py: writes a SYNTHETIC Nextflow trace (stdout) for
# --recommend=input (issue 45), with exact figures: ALIGN, 40 tasks one
# after the other (5 min each, 10 min apart), input rchar x of 50 to 1000
# MB and peak_rss exactly 2 x + 100 MB, but task 13 (x = 100 MB), which
# peaks 300 MB above its line; NOREL, 30 tasks whose peak does not follow
# the input (a permutation); ONE, a single task; SORT, 20 tasks whose
# peak is x + 200 MB and realtime 120 + 0.6 x s.  No randomness.
# With --big: BIG, 100,000 tasks 30 s apart (60 s each), input uniform in
# 10-5000 MB, peak 2 x + 100 +- 50 MB (a fixed seed), for
# doc/PERFORMANCE.md's scale row.
import datetime
import random
import sys

T0 = datetime.datetime(2024, 3, 1, 10, 0, 0)


def fmt(d):
    return d.strftime("%Y-%m-%d %H:%M:%S.000")


def row(n, proc, i, x, mem, minute, secs=300):
    st = T0 + datetime.timedelta(minutes=minute)
    en = st + datetime.timedelta(seconds=secs)
    return "\t".join([str(n), "%02x/%06x" % (n % 256, n), proc, "%s (%d)" % (proc, i),
                      "COMPLETED", "0", fmt(st), fmt(en), "%dm %ds" % divmod(secs, 60),
                      "100.0%", "%d MB" % mem, "%d MB" % x])


def big():
    rng = random.Random(1)
    for i in range(100000):
        x = rng.uniform(10, 5000)
        m = 2 * x + 100 + rng.uniform(-50, 50)
        st = T0 + datetime.timedelta(seconds=30 * i)
        en = st + datetime.timedelta(seconds=60)
        print("\t".join([str(i + 1), "%02x/%06x" % (i % 256, i), "BIG", "BIG (%d)" % i,
                         "COMPLETED", "0", fmt(st), fmt(en), "1m", "100.0%",
                         "%.1f MB" % m, "%.1f MB" % x]))


print("task_id\thash\tprocess\tname\tstatus\texit\tstart\tcomplete\trealtime\t%cpu\tpeak_rss\trchar")
if sys.argv[1:] == ["--big"]:
    big()
    sys.exit(0)
n = 0
for i in range(40):
    x = 50 * (1 + (i * 7) % 20)
    if i == 12:
        x = 100
    n += 1
    print(row(n, "ALIGN", i, x, 2 * x + 100 + (300 if i == 12 else 0), 10 * i))
for i in range(30):
    n += 1
    print(row(n, "NOREL", i, 100 * (i + 1), 500 + 37 * ((i * 11) % 30) % 400, 10 * i))
n += 1
print(row(n, "ONE", 0, 300, 700, 0))
for i in range(20):
    x = 100 * (1 + (i * 3) % 20)
    n += 1
    print(row(n, "SORT", i, x, x + 200, 60 * i, 120 + 6 * x // 10))
