#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# gen-nf-core.py: writes tests/report/nf-core-trace.txt, a SYNTHETIC
# Nextflow trace shaped like an nf-core/chipseq run (no real run's data):
# 275 tasks of 68 fully qualified processes, nf-core's label requests in
# the cpus/memory/time columns, Nextflow's formats (MemoryUnit, Duration,
# %cpu, dates), memory in KB, MB and GB.  Deterministic (a fixed seed).
import random

rng = random.Random(28)
LABELS = {  # nf-core base.config: cpus, memory, time
    "single": (1, "6 GB", "4h"), "low": (2, "12 GB", "4h"),
    "medium": (6, "36 GB", "8h"), "high": (12, "72 GB", "16h"),
}
SUBS = ["INPUT_CHECK", "PREPARE_GENOME", "FASTQ_FASTQC_UMITOOLS_TRIMGALORE",
        "FASTQ_ALIGN_BWA", "BAM_SORT_STATS_SAMTOOLS", "BAM_MARKDUPLICATES_PICARD",
        "BAM_FILTER_BAMTOOLS", "BAM_BEDGRAPH_BIGWIG_BEDTOOLS_UCSC", "BAM_PEAKS_CALL_QC_ANNOTATE",
        "BAM_CLEAN", "BIGWIG_PLOT_DEEPTOOLS", "CONSENSUS_PEAKS"]
TOOLS = ["FASTQC", "TRIMGALORE", "BWA_MEM", "BWA_INDEX", "SAMTOOLS_SORT", "SAMTOOLS_INDEX",
         "SAMTOOLS_STATS", "SAMTOOLS_FLAGSTAT", "SAMTOOLS_IDXSTATS", "PICARD_MARKDUPLICATES",
         "PICARD_MERGESAMFILES", "BAMTOOLS_FILTER", "BEDTOOLS_GENOMECOV", "UCSC_BEDGRAPHTOBIGWIG",
         "MACS2_CALLPEAK", "HOMER_ANNOTATEPEAKS", "DEEPTOOLS_COMPUTEMATRIX", "DEEPTOOLS_PLOTPROFILE",
         "DEEPTOOLS_PLOTHEATMAP", "DEEPTOOLS_PLOTFINGERPRINT", "SUBREAD_FEATURECOUNTS",
         "GUNZIP_FASTA", "GUNZIP_GTF", "CUSTOM_GETCHROMSIZES", "MULTIQC", "UNTAR"]


def fmt_mem(mb):
    if mb < 1:
        return "%.1f KB" % (mb * 1024)
    if mb < 1024:
        return "%.1f MB" % mb
    return "%.1f GB" % (mb / 1024)


def fmt_dur(s):
    s = int(round(s * 10)) / 10.0
    if s < 60:
        return "%.1fs" % s
    h, rest = divmod(int(s), 3600)
    m, sec = divmod(rest, 60)
    return ("%dh " % h if h else "") + "%dm %ds" % (m, sec)


procs = []
while len(procs) < 68:
    name = "NFCORE_CHIPSEQ:CHIPSEQ:%s:%s" % (rng.choice(SUBS), rng.choice(TOOLS))
    if len(procs) % 9 == 0:
        name = "NFCORE_CHIPSEQ:CHIPSEQ:%s" % rng.choice(TOOLS)
    if name not in [p[0] for p in procs]:
        procs.append((name, rng.choice(list(LABELS)), __import__("math").exp(rng.uniform(-0.2, 8.7)),
                      rng.uniform(20, 900), rng.uniform(0.3, 3.5)))
# 275 tasks: every process at least once, the rest to a third of them
counts = [1] * 68
for _ in range(275 - 68):
    counts[rng.randrange(0, 68) // 3 * 3] += 1
cols = ["task_id", "hash", "native_id", "process", "tag", "name", "status", "exit", "submit",
        "duration", "realtime", "%cpu", "peak_rss", "peak_vmem", "rchar", "wchar", "cpus",
        "memory", "time"]
print("\t".join(cols))
tid, clock = 0, 1709287200.0
for (name, label, mem, wall, cores), n in zip(procs, counts):
    cpus, req_mem, req_time = LABELS[label]
    for i in range(n):
        tid += 1
        m = mem * rng.uniform(0.6, 1.4)
        w = wall * rng.uniform(0.5, 1.6)
        c = min(cpus, cores * rng.uniform(0.7, 1.2))
        clock += rng.uniform(1, 40)
        ts = __import__("time").strftime("%Y-%m-%d %H:%M:%S", __import__("time").gmtime(clock))
        short = name.split(":")[-1]
        print("\t".join([str(tid), "%02x/%06x" % (rng.randrange(256), rng.randrange(1 << 24)),
                         str(20000 + tid), name, "s%d" % (i + 1), "%s (s%d)" % (name, i + 1),
                         "COMPLETED", "0", ts + ".%03d" % rng.randrange(1000), fmt_dur(w + 2),
                         fmt_dur(w), "%.1f%%" % (c * 100), fmt_mem(m), fmt_mem(m * 1.8),
                         fmt_mem(m * 3), fmt_mem(m / 7), str(cpus), req_mem, req_time]))
assert tid == 275
