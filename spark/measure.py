"""Measures the Spark job in local mode: wall time, peak memory of the
whole process tree (JVM, Python workers, simdup), shuffle bytes written
(from Spark's monitoring API), table keys, and how many pairs and groups.
One JSON line per run on stdout. docs/SPARK.md has the figures.

    python spark/measure.py --cores 2 --input corpus.jsonl -k 9 [job options]

`--scan` measures `simdup scan --records jsonl` on the same input instead.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)


def tree_rss(root):
    """Resident bytes of `root` and all its descendants (Linux /proc)."""
    children = {}
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/stat") as stat:
                parent = int(stat.read().rsplit(")", 1)[1].split()[1])
            children.setdefault(parent, []).append(int(pid))
        except (OSError, IndexError, ValueError):
            continue
    total, todo = 0, [root]
    while todo:
        pid = todo.pop()
        todo += children.get(pid, [])
        try:
            with open(f"/proc/{pid}/statm") as statm:
                total += int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
        except OSError:
            continue
    return total


def peak_rss(stop, peak):
    """Samples this process tree's memory every 0.2 s until `stop` is set."""
    while not stop.is_set():
        peak[0] = max(peak[0], tree_rss(os.getpid()))
        time.sleep(0.2)


def shuffle_bytes(spark):
    """Shuffle bytes written by every stage so far, in all, and by the
    stage's name (`groupByKey at simdup_spark.py:LINE`) with the task
    milliseconds of those stages, from the monitoring API."""
    url = spark.sparkContext.uiWebUrl
    app = spark.sparkContext.applicationId
    with urllib.request.urlopen(f"{url}/api/v1/applications/{app}/stages") as response:
        stages = json.load(response)
    by_name, busy = {}, {}
    for stage in stages:
        name = stage.get("name", "?").replace(os.path.join(HERE, ""), "")
        by_name[name] = by_name.get(name, 0) + stage.get("shuffleWriteBytes", 0)
        busy[name] = busy.get(name, 0) + stage.get("executorRunTime", 0)
    return (sum(by_name.values()),
            {name: [size, busy[name]] for name, size in by_name.items() if size})


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cores", type=int, default=2)
    parser.add_argument("--memory", default="2g", help="driver memory (local mode)")
    parser.add_argument("--scan", action="store_true")
    parser.add_argument("--simdup", default=os.path.join(REPO, "target/release/simdup"))
    known, rest = parser.parse_known_args()
    stop, peak = threading.Event(), [0]
    sampler = threading.Thread(target=peak_rss, args=(stop, peak))
    sampler.start()
    started = time.time()
    result = {"cores": known.cores}
    if known.scan:
        args = dict(zip(rest[::2], rest[1::2]))
        command = [known.simdup, "scan", "--records", "jsonl", "--id-field", "id",
                   "--format", "jsonl", "-q", "-j", str(known.cores), "-k", args["-k"],
                   "--max-pairs", "1000000000", "--short-texts", "fingerprint"]
        with open(args["--input"], "rb") as stdin:
            done = subprocess.run(command, stdin=stdin, capture_output=True, check=True)
        result.update(what="simdup scan", pairs=len(done.stdout.splitlines()))
    else:
        sys.path.insert(0, HERE)
        import simdup_spark as job
        from pyspark.sql import SparkSession
        spark = (SparkSession.builder.master(f"local[{known.cores}]")
                 .config("spark.driver.memory", known.memory)
                 .config("spark.ui.showConsoleProgress", "false")
                 .getOrCreate())
        spark.sparkContext.setLogLevel("ERROR")
        output = tempfile.mkdtemp(prefix="simdup-spark-measure-")
        args = job.parse_args(rest + ["--output", os.path.join(output, "out"),
                                      "--binary", known.simdup])
        pairs, groups, stats = job.find(spark, args)
        job.write(spark, pairs, groups, args)
        total, by_stage = shuffle_bytes(spark)
        result.update(what="spark job", shuffle_bytes=total, shuffle_by_stage=by_stage,
                      partitions=args.partitions or spark.sparkContext.defaultParallelism,
                      **job.stat_values(stats))
        spark.stop()
        for kind in ("pairs", "groups"):
            folder = os.path.join(output, "out", kind)
            result[kind] = sum(sum(1 for _ in open(os.path.join(folder, part)))
                               for part in os.listdir(folder) if part.startswith("part-"))
    result["seconds"] = round(time.time() - started, 1)
    stop.set()
    sampler.join()
    result["peak_rss_mb"] = round(peak[0] / 1e6)
    result["args"] = " ".join(rest)
    print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
