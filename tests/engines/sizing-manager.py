#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""tests/engines/sizing-manager.py: a Work Queue or TaskVine manager that
loads the categories `tpmon report --emit=taskvine:FILE` (or workqueue)
wrote, runs a task of each category (no resources of its own) on one local
worker, and prints per task, as JSON lines, its category and what the
manager allocated to it (cores, memory, disk), in WORKDIR/results.jsonl
(cctools' own warnings go to stdout).

usage: sizing-manager.py wq|vine EMITTED.py WORKDIR CATEGORY...
"""
import importlib.util
import json
import os
import signal
import subprocess
import sys
import time

engine, emitted, workdir = sys.argv[1:4]
cats = sys.argv[4:]
os.makedirs(workdir, exist_ok=True)
spec = importlib.util.spec_from_file_location("emitted", emitted)
mod = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mod)
if engine == "wq":
    import ndcctools.work_queue as wq
    m = wq.WorkQueue(port=0)
    exe = "work_queue_worker"
else:
    import ndcctools.taskvine as vine
    m = vine.Manager(port=0, run_info_path=os.path.join(workdir, "run-info"))
    exe = "vine_worker"
mod.tpmon_categories(m, exact=True)
os.makedirs(os.path.join(workdir, "w"), exist_ok=True)
worker = subprocess.Popen([exe, "-t", "60", "--cores", "4", "--memory", "4000", "--disk", "4000",
                           "-s", os.path.join(workdir, "w"), "localhost", str(m.port)],
                          stdout=open(os.path.join(workdir, "worker.out"), "w"),
                          stderr=subprocess.STDOUT,
                          start_new_session=True)
out = open(os.path.join(workdir, "results.jsonl"), "w")
tags = {}
for c in cats:
    if engine == "wq":
        t = wq.Task("true")
        t.specify_category(c)
    else:
        t = vine.Task("true")
        t.set_category(c)
    tags[m.submit(t)] = c
deadline = time.time() + 60
while not m.empty() and time.time() < deadline:
    t = m.wait(2)
    if t:
        r = t.resources_allocated
        print(json.dumps({"category": tags[t.id], "result": t.result,
                          "cores": r.cores, "memory": r.memory, "disk": r.disk}), file=out,
              flush=True)
if not m.empty():
    print("tasks left after 60 s; the worker: %s" % open(os.path.join(workdir, "worker.out")).read()[-2000:],
          file=sys.stderr)
# the worker and its children (TaskVine's transfer server): its own group
os.killpg(worker.pid, signal.SIGKILL)
worker.wait()
