"""The Spark job finds what `simdup scan` finds: the same pairs, with the
same fields, in the same order, and the same groups, on the fixtures and
on a generated corpus of a few thousand documents, with several radii,
block layouts and feature options. Spark runs in local mode (local[2]).

Run from the repository root with the virtual environment's python:

    python spark/test_simdup_spark.py

Environment: SIMDUP (default target/debug/simdup) and GEN_CORPUS (default
target/debug/gen-corpus), the binaries to use; SPARK_MASTER (default
local[2]).
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, HERE)

import simdup_spark as job  # noqa: E402
from pyspark.sql import SparkSession  # noqa: E402

SIMDUP = os.path.abspath(os.environ.get("SIMDUP", os.path.join(REPO, "target/debug/simdup")))
GEN_CORPUS = os.path.abspath(
    os.environ.get("GEN_CORPUS", os.path.join(REPO, "target/debug/gen-corpus")))


def write_jsonl(path, records):
    with open(path, "w", encoding="utf-8") as out:
        for record in records:
            out.write(json.dumps(record, ensure_ascii=False) + "\n")


def fixture_records():
    """Every UTF-8 file of fixtures/corpus as a record named by its path."""
    root = os.path.join(REPO, "fixtures", "corpus")
    records = []
    for folder, folders, files in os.walk(root):
        folders.sort()
        for name in sorted(files):
            path = os.path.join(folder, name)
            with open(path, "rb") as file:
                data = file.read()
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError:
                continue
            records.append({"id": os.path.relpath(path, REPO), "text": text})
    return records


def generated_records(folder, documents, seed):
    """A corpus from the project's generator (benches/tools), with skew
    added: one document copied 300 times, a short line copied 40 times,
    near-copies of short lines, and a few records too short to search."""
    subprocess.run([GEN_CORPUS, "--docs", str(documents), "--seed", str(seed),
                    "--median-words", "120", "--out", folder, "--no-files", "--force"],
                   check=True, stdout=subprocess.DEVNULL)
    with open(os.path.join(folder, "corpus.jsonl"), encoding="utf-8") as file:
        records = [json.loads(line) for line in file]
    boilerplate = records[5]["text"]
    records += [{"id": f"copy-{n}", "text": boilerplate} for n in range(300)]
    records += [{"id": f"line-{n}", "text": "Unit 4, 12 Harbour Rd, Eastport, NSW, 2001"}
                for n in range(40)]
    records += [{"id": "line-near-1", "text": "Unit 4, 12 Harbour Road, Eastport, NSW, 2001"},
                {"id": "line-near-2", "text": "Unit 4 12 Harbour Rd Eastport NSW 2001"},
                {"id": 9001, "text": "Unit 5, 12 Harbour Rd, Eastport, NSW, 2001"},
                {"id": "tiny-1", "text": "hello there"},
                {"id": "tiny-2", "text": "hello there"},
                {"id": "tiny-3", "text": "Hello, there!"},
                {"id": "empty", "text": "   "}]
    return records


def scan(path, k, options, groups):
    """`simdup scan` of the records in `path`, as parsed JSON Lines. The job
    searches short texts within k, as `--short-texts fingerprint` does
    (chosen shingles compare no short texts apart: the scan refuses the
    option then)."""
    command = [SIMDUP, "scan", "--records", "jsonl", "--id-field", "id", "--format", "jsonl",
               "-q", "-k", str(k), "--max-pairs", "1000000000"] + options
    if "--shingle" not in options:
        command += ["--short-texts", "fingerprint"]
    if groups:
        command.append("--groups")
    with open(path, "rb") as stdin:
        done = subprocess.run(command, stdin=stdin, capture_output=True, check=False)
    if done.returncode != 0:
        raise AssertionError(f"{' '.join(command)} failed: {done.stderr.decode()}")
    return [json.loads(line) for line in done.stdout.decode("utf-8").splitlines()]


class SparkEqualsScan(unittest.TestCase):
    spark = None
    folder = None

    @classmethod
    def setUpClass(cls):
        # Spark's sockets are closed by the JVM, not by Python.
        warnings.simplefilter("ignore", ResourceWarning)
        for binary in (SIMDUP, GEN_CORPUS):
            if not os.access(binary, os.X_OK):
                raise AssertionError(f"{binary} is missing: build it (cargo build --bins)")
        cls.folder = tempfile.mkdtemp(prefix="simdup-spark-test-")
        cls.inputs = {
            "tickets": os.path.join(REPO, "fixtures", "records", "tickets.jsonl"),
            "fixtures": os.path.join(cls.folder, "fixtures.jsonl"),
            "generated": os.path.join(cls.folder, "generated.jsonl"),
        }
        write_jsonl(cls.inputs["fixtures"], fixture_records())
        write_jsonl(cls.inputs["generated"],
                    generated_records(os.path.join(cls.folder, "gen"), 2500, 7))
        cls.spark = (SparkSession.builder
                     .master(os.environ.get("SPARK_MASTER", "local[2]"))
                     .appName("simdup-spark-test")
                     .config("spark.default.parallelism", "2")
                     .config("spark.sql.shuffle.partitions", "2")
                     .config("spark.ui.enabled", "false")
                     .config("spark.ui.showConsoleProgress", "false")
                     .getOrCreate())
        # Errors the test provokes on purpose would print whole traces.
        cls.spark.sparkContext.setLogLevel("FATAL")
        # The fixtures again as Parquet, in one file so its order is theirs.
        cls.inputs["fixtures.parquet"] = os.path.join(cls.folder, "fixtures.parquet")
        cls.spark.createDataFrame(fixture_records(), "id string, text string").coalesce(1) \
            .write.parquet(cls.inputs["fixtures.parquet"])

    @classmethod
    def tearDownClass(cls):
        if cls.spark is not None:
            cls.spark.stop()
        if cls.folder is not None:
            shutil.rmtree(cls.folder, ignore_errors=True)

    def run_job(self, name, k, options, blocks=None, output_format="jsonl"):
        """Runs the job on input `name` (its Parquet copy for a Parquet
        output) and writes its output; returns the folder and the stats."""
        if output_format == "parquet":
            name += ".parquet"
        output = os.path.join(self.folder, f"out-{len(os.listdir(self.folder))}")
        argv = ["--input", self.inputs[name], "--output", output, "-k", str(k),
                "--binary", SIMDUP, "--format", output_format] + options
        if blocks is not None:
            argv += ["--blocks", str(blocks)]
        args = job.parse_args(argv)
        pairs, groups, stats = job.find(self.spark, args)
        job.write(self.spark, pairs, groups, args)
        return output, stats

    def read_output(self, output, output_format):
        if output_format == "parquet":
            pairs = [{key: value for key, value in row.asDict().items()
                      if not (key == "features" and value is None)}
                     for row in self.spark.read.parquet(os.path.join(output, "pairs")).collect()]
            groups = [row.asDict() for row in
                      self.spark.read.parquet(os.path.join(output, "groups")).collect()]
            return pairs, [group["members"] for group in sorted(groups, key=lambda g: g["id"])]
        lines = {}
        for kind in ("pairs", "groups"):
            folder = os.path.join(output, kind)
            parts = sorted(part for part in os.listdir(folder) if part.startswith("part-"))
            lines[kind] = []
            for part in parts:
                with open(os.path.join(folder, part), encoding="utf-8") as file:
                    lines[kind] += [json.loads(line) for line in file]
        groups = lines["groups"]
        self.assertEqual([group["id"] for group in groups], list(range(1, len(groups) + 1)))
        return lines["pairs"], [group["members"] for group in groups]

    def check(self, name, k, options=(), blocks=None, output_format="jsonl", least_pairs=1):
        options = list(options)
        expected_pairs = scan(self.inputs[name], k, options, groups=False)
        expected_groups = [group["members"] for group in scan(self.inputs[name], k, options,
                                                              groups=True)]
        output, stats = self.run_job(name, k, options, blocks, output_format)
        pairs, groups = self.read_output(output, output_format)
        what = f"{name}, -k {k} {' '.join(options)} blocks={blocks}"
        # A comparison of nothing with nothing would prove nothing.
        self.assertGreaterEqual(len(expected_pairs), least_pairs, what)
        self.assertEqual(len(pairs), len(expected_pairs), what)
        for index, (got, want) in enumerate(zip(pairs, expected_pairs)):
            self.assertEqual(got, want, f"{what}: pair {index}")
        self.assertEqual(groups, expected_groups, what)
        stats = job.stat_values(stats)
        print(f"  {what}: {len(pairs)} pairs, {len(groups)} groups equal; {stats}",
              file=sys.stderr)
        return stats, output

    def test_tickets_lines_are_the_scans(self):
        output = self.check("tickets", 9, least_pairs=2)[1]
        folder = os.path.join(output, "pairs")
        got = []
        for part in sorted(p for p in os.listdir(folder) if p.startswith("part-")):
            with open(os.path.join(folder, part), encoding="utf-8") as file:
                got += file.read().splitlines()
        command = [SIMDUP, "scan", "--records", "jsonl", "--id-field", "id", "--format",
                   "jsonl", "-q", "-k", "9", "--short-texts", "fingerprint"]
        with open(self.inputs["tickets"], "rb") as stdin:
            want = subprocess.run(command, stdin=stdin, capture_output=True,
                                  check=True).stdout.decode().splitlines()
        self.assertEqual(got, want, "the JSON Lines, byte for byte")

    def test_fixtures_with_block_tables_to_parquet(self):
        # Few documents: the cost model would compare all pairs; a forced
        # block layout exercises the tables and their owner rule. Parquet
        # in, Parquet out.
        stats = self.check("fixtures", 3, blocks=5, output_format="parquet")[0]
        self.assertEqual(stats["words_tables"], 10, "C(5, 3) tables")

    def test_generated_default_plan(self):
        stats = self.check("generated", 9, least_pairs=200)[0]
        self.assertGreater(stats["words_blocks"], 9, "the cost model chose block tables")
        self.assertGreater(stats["short_tables"], 0)

    def test_generated_other_layout_and_features(self):
        self.check("generated", 6, ["--shingle", "words:2", "-t", "0.7", "--min-features", "60"],
                   blocks=8, least_pairs=200)

    def test_components_of_long_chains_and_random_graphs(self):
        # Union-find is the reference; a path in shuffled order needs
        # several rounds of large-star / small-star.
        import random
        generator = random.Random(3)
        path = list(range(100, 160))
        generator.shuffle(path)
        edges = list(zip(path, path[1:]))
        edges += [(generator.randrange(1000, 1300), generator.randrange(1000, 1300))
                  for _ in range(220)]
        parent = {}

        def root(x):
            parent.setdefault(x, x)
            while parent[x] != x:
                parent[x] = parent[parent[x]]
                x = parent[x]
            return x

        for a, b in edges:
            ra, rb = root(a), root(b)
            parent[max(ra, rb)] = min(ra, rb)
        expected = {}
        for vertex in list(parent):
            members = expected.setdefault(root(vertex), [])
            members.append(vertex)
        stats = {}
        found = self.spark.sparkContext.parallelize(edges, 2)
        got = dict(job.components(found, 2, stats).collect())
        for smallest, members in expected.items():
            for vertex in members:
                if vertex != smallest:
                    self.assertEqual(got.get(vertex), smallest, vertex)
        self.assertEqual(set(got), {v for v in parent if root(v) != v})
        self.assertGreater(stats["component_rounds"], 1)

    def test_bad_input_fails_naming_it(self):
        bad = os.path.join(self.folder, "bad.jsonl")
        with open(bad, "w", encoding="utf-8") as file:
            file.write('{"id": "a", "text": "fine"}\n{"id": "b"}\n')
        self.inputs["bad"] = bad
        with self.assertRaises(Exception) as caught:
            self.run_job("bad", 3, [])
        self.assertIn("line 2", str(caught.exception))


if __name__ == "__main__":
    unittest.main(verbosity=2)
