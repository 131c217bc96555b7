#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""tests/engines/manager.py: a Work Queue or TaskVine manager for the engine
tests.  It starts one local worker, runs the tasks of a JSON spec with
monitoring on (whatever monitor CCTOOLS_RESOURCE_MONITOR names), and writes
what the manager concluded for each task as JSON.

usage: manager.py wq|vine SPEC.json RESULTS.json WORKDIR

SPEC: {"worker": {"cores": 2, "memory": 2000, "disk": 4000},
       "modes": {"CATEGORY": "max"|"fixed"},
       "tasks": [{"tag": "hello", "cmd": "echo hello", "cores": 1,
                  "memory": 100, "disk": 100, "wall_time": 2,
                  "end_in": 4, "category": "c", "inputs": ["/abs/file"],
                  "snapshot_file": "/abs/events.json"}]}
A task with "after": TAG is submitted once TAG is done (for the
allocations that follow measurements).
"""
import json
import os
import subprocess
import sys
import time

engine, spec_path, out_path, workdir = sys.argv[1:5]
spec = json.load(open(spec_path))
os.makedirs(workdir, exist_ok=True)
os.chdir(workdir)

if engine == "wq":
    import ndcctools.work_queue as wq
    m = wq.WorkQueue(port=0, debug_log=os.path.join(workdir, "manager.debug"))
    m.enable_monitoring(dirname=os.path.join(workdir, "mon"))
    names = {getattr(wq, n): n[len("WORK_QUEUE_RESULT_"):]
             for n in dir(wq) if n.startswith("WORK_QUEUE_RESULT_")}
    modes = {"max": wq.WORK_QUEUE_ALLOCATION_MODE_MAX,
             "fixed": wq.WORK_QUEUE_ALLOCATION_MODE_FIXED}
    worker_exe = "work_queue_worker"
else:
    import ndcctools.taskvine as vine
    import ndcctools.taskvine.cvine as cvine
    m = vine.Manager(port=0, run_info_path=os.path.join(workdir, "run-info"))
    m.enable_monitoring(watchdog=True, time_series=False)
    names = {getattr(cvine, n): n[len("VINE_RESULT_"):]
             for n in dir(cvine) if n.startswith("VINE_RESULT_")}
    modes = {"max": cvine.VINE_ALLOCATION_MODE_MAX,
             "fixed": cvine.VINE_ALLOCATION_MODE_FIXED}
    worker_exe = "vine_worker"

for cat, mode in spec.get("modes", {}).items():
    if engine == "wq":
        m.specify_category_mode(cat, modes[mode])
    else:
        m.set_category_mode(cat, modes[mode])
if engine == "wq":
    m.tune("category-steady-n-tasks", 1)
else:
    m.tune("category-steady-n-tasks", 1)

w = spec.get("worker", {})
os.makedirs(os.path.join(workdir, "worker"), exist_ok=True)
worker = subprocess.Popen(
    [worker_exe, "-t", "120",
     "--cores", str(w.get("cores", 2)), "--memory", str(w.get("memory", 2000)),
     "--disk", str(w.get("disk", 4000)), "-s", os.path.join(workdir, "worker"),
     "-d", "all", "-o", os.path.join(workdir, "worker.debug"),
     "localhost", str(m.port)],
    stdout=open(os.path.join(workdir, "worker.out"), "w"),
    stderr=subprocess.STDOUT)


def make_task(d):
    if engine == "wq":
        t = wq.Task(d["cmd"])
        if "category" in d:
            t.specify_category(d["category"])
        for r in ("cores", "memory", "disk"):
            if r in d:
                getattr(t, "specify_" + r)(d[r])
        if "wall_time" in d:
            t.specify_running_time_max(d["wall_time"])
        if "end_in" in d:
            t.specify_end_time((time.time() + d["end_in"]) * 1e6)
        for f in d.get("inputs", []):
            t.specify_input_file(f, os.path.basename(f), cache=False)
        if "snapshot_file" in d:
            t.specify_snapshot_file(d["snapshot_file"])
        t.specify_max_retries(d.get("retries", 1))
    else:
        t = vine.Task(d["cmd"])
        if "category" in d:
            t.set_category(d["category"])
        for r in ("cores", "memory", "disk"):
            if r in d:
                getattr(t, "set_" + r)(d[r])
        if "wall_time" in d:
            t.set_time_max(d["wall_time"])
        if "end_in" in d:
            t.set_time_end((time.time() + d["end_in"]) * 1e6)
        for f in d.get("inputs", []):
            t.add_input(m.declare_file(f, cache=False), os.path.basename(f))
        if "snapshot_file" in d:
            t.set_snapshot_file(d["snapshot_file"])
        t.set_retries(d.get("retries", 1))
    return t


def resources(r):
    if r is None:
        return None
    return {k: getattr(r, k) for k in ("cores", "memory", "disk", "wall_time")}


def limits(t):
    le = t.limits_exceeded
    if le is None:
        return None
    out = {}
    for k in ("cores", "memory", "disk", "wall_time", "end"):
        v = getattr(le, k, -1)
        if v is not None and v > -1:
            out[k] = v
    return out


results = {}
pending = {}
started = {}
tasks = spec["tasks"]
waiting = list(tasks)


def submit_ready():
    for d in list(waiting):
        if d.get("after") and d["after"] not in results:
            continue
        waiting.remove(d)
        t = make_task(d)
        tid = m.submit(t)
        pending[tid] = (d["tag"], t)
        started[d["tag"]] = time.time()


deadline = time.time() + float(spec.get("timeout", 90))
# tasks with an end time must not wait for the worker to connect
while m.stats.workers_connected < 1 and time.time() < deadline:
    if worker.poll() is not None:
        break
    m.wait(1)
submit_ready()
while (pending or waiting) and time.time() < deadline:
    if worker.poll() is not None:
        print("manager.py: the worker exited with status", worker.returncode,
              file=sys.stderr)
        break
    t = m.wait(1)
    if t is None:
        continue
    tag, _ = pending.pop(t.id)
    exit_code = t.return_status if engine == "wq" else t.exit_code
    results[tag] = {
        "result": names.get(t.result, str(t.result)),
        "exit_code": exit_code,
        "output": t.output,
        "measured": resources(t.resources_measured),
        "allocated": resources(t.resources_allocated),
        "limits_exceeded": limits(t),
        "seconds": time.time() - started[tag],
        "snapshots": getattr(t.resources_measured, "snapshots_count", None)
        if t.resources_measured is not None else None,
    }
    submit_ready()

worker.terminate()
try:
    worker.wait(5)
except subprocess.TimeoutExpired:
    worker.kill()
json.dump(results, open(out_path, "w"), indent=1)
sys.exit(0 if not pending and not waiting else 1)
