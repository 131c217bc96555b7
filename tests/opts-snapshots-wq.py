# opts-snapshots-wq.py: a Work Queue manager (cctools' Python bindings) that
# runs one task with a snapshot file, the way an application asks for
# snapshots (Task.specify_snapshot_file), and prints what the manager read
# from the monitor's summary, one "key value" line each.
#   usage: python3 opts-snapshots-wq.py EVENTS_JSON 'COMMAND' LOGDIR
# The monitor is $CCTOOLS_RESOURCE_MONITOR; the worker is started here.
import subprocess
import sys

import ndcctools.work_queue as wq

events, command, logdir = sys.argv[1:4]
q = wq.WorkQueue(port=0)
q.enable_monitoring(logdir, watchdog=True)
worker = subprocess.Popen(["work_queue_worker", "--single-shot", "-t", "60",
                           "127.0.0.1", str(q.port)],
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
try:
    t = wq.Task(command)
    t.specify_snapshot_file(events)
    t.specify_memory(400)
    t.specify_cores(1)
    t.specify_disk(100)
    q.submit(t)
    done = None
    for _ in range(120):
        done = q.wait(1)
        if done:
            break
    if not done:
        print("result none")
        sys.exit(0)
    print("result", done.result)
    print("return_status", done.return_status)
    print("output", repr(done.output))
    r = done.resources_measured
    snaps = r.snapshots if r else []
    print("snapshots", len(snaps))
    for i, s in enumerate(snaps):
        print("snapshot%d %s %s" % (i, s.snapshot_name, s.memory))
finally:
    worker.kill()
    worker.wait()
