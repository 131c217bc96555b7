# SPDX-License-Identifier: MIT
# opts-snapshots-engines.py: a Work Queue or TaskVine manager (cctools'
# Python bindings) that runs one task with a snapshot file, the way an
# application asks for snapshots (Work Queue: Task.specify_snapshot_file;
# TaskVine: Task.set_snapshot_file of a declared file), and prints what
# the manager read back from the monitor's summary, one "key value" line
# each.
#   usage: python3 opts-snapshots-engines.py wq|vine EVENTS_JSON 'COMMAND' DIR
# The monitor is $CCTOOLS_RESOURCE_MONITOR; the worker is started here.
import os
import subprocess
import sys

engine, events, command, workdir = sys.argv[1:5]
events = os.path.abspath(events)
os.makedirs(workdir, exist_ok=True)
os.chdir(workdir)
if engine == "wq":
    import ndcctools.work_queue as wq
    m = wq.WorkQueue(port=0, debug_log="manager.debug")
    m.enable_monitoring("mon", watchdog=True)
    worker_exe = "work_queue_worker"
    t = wq.Task(command)
    t.specify_snapshot_file(events)
    t.specify_cores(1)
    t.specify_memory(400)
    t.specify_disk(100)
else:
    import ndcctools.taskvine as vine
    m = vine.Manager(port=0, run_info_path=os.path.abspath("run-info"))
    m.enable_monitoring(watchdog=True, time_series=False)
    worker_exe = "vine_worker"
    t = vine.Task(command)
    t.set_snapshot_file(m.declare_file(events, cache=False)._file)
    t.set_cores(1)
    t.set_memory(400)
    t.set_disk(100)
os.makedirs("worker", exist_ok=True)
worker = subprocess.Popen([worker_exe, "-t", "60", "--cores", "2", "--memory", "1000",
                           "--disk", "2000", "-s", os.path.abspath("worker"),
                           "127.0.0.1", str(m.port)],
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
try:
    m.submit(t)
    done = None
    for _ in range(90):
        done = m.wait(1)
        if done:
            break
    if not done:
        print("result none")
        sys.exit(0)
    print("result", done.result)
    print("exit_code", done.return_status if engine == "wq" else done.exit_code)
    print("output", repr(done.output))
    r = done.resources_measured
    snaps = r.snapshots if r else []
    print("snapshots", len(snaps))
    for i, s in enumerate(snaps):
        print("snapshot%d %s %s" % (i, s.snapshot_name, s.memory))
finally:
    worker.kill()
    worker.wait()
