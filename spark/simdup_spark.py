"""simdup on Apache Spark: near-duplicate pairs and groups of a dataset of
documents, equal to what `simdup scan --records jsonl --id-field id
--short-texts fingerprint` finds on the same records with the same options
(pairs of two short texts are searched within k, not joined).

The simdup binary does every measurement on the executors (shipped with
`spark-submit --files path/to/simdup`):

- `simdup distributed fingerprint` fingerprints the records of a
  partition (SimHash, feature digest, the character-pair fingerprint of a
  short text);
- `simdup distributed plan` gives the exact search's block tables for the
  number of distinct fingerprints and k (the plan `simdup scan` uses);
- `simdup distributed verify` decides candidate pairs by exact Jaccard.

Spark does the rest as the scan does it (docs/SPARK.md): documents with the
same features form classes; identical fingerprints are collapsed; each
distinct fingerprint is exploded into one key per table, grouped by key,
and every pair within k is emitted by the one table that owns it (the
first m - k blocks it agrees on); candidate class pairs are verified;
groups are the connected components (large-star / small-star).

Usage (see docs/SPARK.md):

    spark-submit --files target/release/simdup spark/simdup_spark.py \\
        --input docs.jsonl --output out/ -k 9
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import threading

from pyspark import SparkFiles
from pyspark.sql import SparkSession
from pyspark.sql import types as T

# Feature options passed through to every simdup step, as in `simdup scan`.
VALUE_OPTIONS = [
    "shingle",
    "hash",
    "weight",
    "vocabulary",
    "exclude-tokens",
    "frequency-floor",
    "frequency-ceiling",
]
FLAG_OPTIONS = [
    "case-sensitive",
    "no-nfkc",
    "keep-punctuation",
    "token-similarity",
    "encode-orphans",
]


class JobError(Exception):
    """A problem with the job's input or options, reported without a trace."""


def parse_args(argv):
    """The job's options; the feature options are `simdup scan`'s."""
    parser = argparse.ArgumentParser(
        prog="simdup_spark.py",
        description="Near-duplicate pairs and groups of a dataset, on Spark, "
        "equal to `simdup scan --records jsonl` with the same options.",
    )
    parser.add_argument("--input", required=True, action="append",
                        help="JSON Lines file(s) or Parquet dataset (repeatable)")
    parser.add_argument("--input-format", choices=["jsonl", "parquet"], default=None,
                        help="default: parquet if the path ends in .parquet, else jsonl")
    parser.add_argument("--id-column", default="id",
                        help="the field holding the id (default: id)")
    parser.add_argument("--text-column", default="text", help="the field holding the text")
    parser.add_argument("--output", required=True,
                        help="folder: pairs/ and groups/ are written in it")
    parser.add_argument("--format", choices=["jsonl", "parquet"], default="jsonl",
                        help="output format (default: jsonl, the fields of `scan --format jsonl`)")
    parser.add_argument("-k", "--max-distance", type=int, required=True,
                        help="search radius in bits, as `scan -k`")
    parser.add_argument("-t", "--threshold", default="0.8",
                        help="least exact Jaccard of a near-duplicate (default 0.8)")
    parser.add_argument("--min-features", type=int, default=1,
                        help="documents with fewer features match by exact content only")
    parser.add_argument("--blocks", type=int, default=None,
                        help="cut fingerprints into this many blocks instead of the "
                        "single-machine cost model's choice")
    parser.add_argument("--partitions", type=int, default=None,
                        help="partitions of each shuffle (default: Spark's default parallelism)")
    parser.add_argument("--binary", default=None,
                        help="the simdup binary: a name shipped with --files (default "
                        "simdup), or a path every executor can run")
    for name in VALUE_OPTIONS:
        parser.add_argument("--" + name, default=None, help="as in `simdup scan`")
    for name in FLAG_OPTIONS:
        parser.add_argument("--" + name, action="store_true", help="as in `simdup scan`")
    args = parser.parse_args(argv)
    if not 0 <= args.max_distance <= 32:
        parser.error("-k must be between 0 and 32")
    try:
        if not 0.0 <= float(args.threshold) <= 1.0:
            raise ValueError
    except ValueError:
        parser.error(f"--threshold: expected a number from 0 to 1, got '{args.threshold}'")
    return args


def feature_options(args):
    """The feature options as simdup arguments."""
    options = []
    for name in VALUE_OPTIONS:
        value = getattr(args, name.replace("-", "_"))
        if value is not None:
            options += ["--" + name, value]
    for name in FLAG_OPTIONS:
        if getattr(args, name.replace("-", "_")):
            options.append("--" + name)
    return options


def resolve_binary(name):
    """The simdup binary on this machine: a file shipped with --files, an
    executable path, or a name on PATH."""
    candidates = []
    if os.path.sep not in name:
        try:
            candidates.append(SparkFiles.get(name))
        except Exception:  # no SparkContext here: not on a Spark worker
            pass
    candidates.append(name)
    for candidate in candidates:
        if os.path.isfile(candidate):
            if not os.access(candidate, os.X_OK):
                os.chmod(candidate, 0o755)
            return candidate
    found = shutil.which(name)
    if found:
        return found
    raise JobError(f"the simdup binary '{name}' is not here: ship it with "
                   f"`spark-submit --files path/to/simdup` or give --binary")


def pipe(binary, arguments, lines):
    """Runs `simdup ARGUMENTS` with `lines` (strings) on stdin and yields
    its stdout lines; a failure raises with the binary's message."""
    process = subprocess.Popen(
        [resolve_binary(binary)] + arguments,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    failure = []

    def feed():
        try:
            for line in lines:
                process.stdin.write(line.encode("utf-8"))
                process.stdin.write(b"\n")
        except BrokenPipeError:
            pass
        except Exception as error:  # noqa: BLE001 (reported below)
            failure.append(error)
        finally:
            try:
                process.stdin.close()
            except BrokenPipeError:
                pass

    errors = []
    drain = threading.Thread(target=lambda: errors.append(process.stderr.read()))
    writer = threading.Thread(target=feed)
    drain.start()
    writer.start()
    with process.stdout:
        for line in process.stdout:
            yield line.decode("utf-8")
    writer.join()
    code = process.wait()
    drain.join()
    process.stderr.close()
    if failure:
        raise failure[0]
    if code != 0:
        message = b"".join(errors).decode("utf-8", "replace").strip()
        raise RuntimeError(f"simdup {arguments[0]} {arguments[1]} failed ({code}): {message}")


# ----------------------------------------------------------------- reading


def read_records(spark, args):
    """(index, name, text) of every record, in input order (the index is
    the record's place in the input: the scan's document order)."""
    paths = args.input
    kind = args.input_format or ("parquet" if paths[0].rstrip("/").endswith(".parquet")
                                 else "jsonl")
    id_column, text_column = args.id_column, args.text_column
    if kind == "parquet":
        frame = spark.read.parquet(*paths)
        for column in (id_column, text_column):
            if column not in frame.columns:
                raise JobError(f"{', '.join(paths)}: no column '{column}' "
                               f"(columns: {', '.join(frame.columns)})")
        indexed = frame.select(id_column, text_column).rdd \
            .map(lambda row: (row[0], row[1])).zipWithIndex()

        def named(item):
            (identifier, text), index = item
            if text is None:
                raise JobError(f"{paths[0]}: record {index + 1}: no text in '{text_column}'")
            return index, name_of(identifier, index + 1, paths[0]), text

        return indexed.map(named)

    source = ",".join(paths)
    lines = spark.sparkContext.textFile(source).zipWithIndex()

    def parse(item):
        line, index = item
        if not line.strip():
            return []
        try:
            record = json.loads(line)
        except ValueError as error:
            raise JobError(f"{source}: line {index + 1}: not JSON: {error}") from None
        if not isinstance(record, dict):
            raise JobError(f"{source}: line {index + 1}: expected a JSON object")
        text = record.get(text_column)
        if not isinstance(text, str):
            raise JobError(f"{source}: line {index + 1}: field '{text_column}' is "
                           f"missing or not a string")
        return [(index, name_of(record.get(id_column), index + 1, source), text)]

    return lines.flatMap(parse)


def name_of(identifier, line, source):
    """A record's name: its id, a string or a number written as JSON
    writes it. A record without one is an error, as in the scan."""
    if identifier is None:
        raise JobError(f"{source}: line {line}: missing id")
    if isinstance(identifier, bool) or not isinstance(identifier, (str, int, float)):
        raise JobError(f"{source}: line {line}: the id must be a string or a number")
    if isinstance(identifier, str):
        return identifier
    return json.dumps(identifier)


# ------------------------------------------------------------ fingerprints


def fingerprint(records, binary, features):
    """(index, facts) for every record with features, through
    `simdup distributed fingerprint` on the executors."""

    def run(partition):
        rows = list(partition)
        texts = {index: (name, text) for index, name, text in rows}
        lines = (json.dumps({"id": index, "text": text}) for index, _, text in rows)
        for line in pipe(binary, ["distributed", "fingerprint"] + features, lines):
            facts = json.loads(line)
            if facts["features"] == 0:
                continue  # an empty document: counted, never paired
            index = int(facts["id"])
            name, text = texts[index]
            yield index, {
                "name": name,
                "text": text,
                "simhash": int(facts["simhash"], 16),
                "features": facts["features"],
                "digest": int(facts["feature_digest"], 16),
                "content": int(facts["content_hash"], 16),
                "short": (int(facts["short_simhash"], 16)
                          if facts["short_simhash"] is not None else None),
            }

    return records.mapPartitions(run)


# ----------------------------------------------------------------- classes


def classes_of(documents, min_features):
    """Documents with the same features (the same content, below
    `min_features`) joined into classes, as the scan joins them. A class is
    named by its first document's index and keeps its members as (index,
    name, is a short text) in input order, its fingerprint, its first short
    member's character-pair fingerprint, and its first document's text
    (the one verification reads, as in the scan)."""

    def key(item):
        index, facts = item
        exact_only = facts["features"] < min_features
        class_key = ("content", facts["content"]) if exact_only else ("features", facts["digest"])
        short = None if exact_only else facts["short"]
        return class_key, (index, facts["name"], facts["simhash"], short, facts["text"],
                           exact_only)

    def build(members):
        members = sorted(members, key=lambda member: member[0])
        first = members[0]
        shorts = [member[3] for member in members if member[3] is not None]
        return first[0], {
            "members": [(member[0], member[1], member[3] is not None) for member in members],
            "simhash": first[2],
            "short": shorts[0] if shorts else None,
            "text": first[4],
            "exact_only": first[5],
        }

    return documents.map(key).groupByKey().map(lambda item: build(item[1]))


# ------------------------------------------------------------------ search


def plan_tables(binary, k, distinct, blocks):
    """The table keys for `distinct` fingerprints: block masks and tables
    (tuples of blocks); brute force is one table with an empty key; None
    when only identical fingerprints pair."""
    if k == 0:
        return None
    arguments = ["distributed", "plan", "-k", str(k), "-n", str(distinct)]
    if blocks is not None:
        arguments += ["--blocks", str(blocks)]
    plan = json.loads("".join(pipe(binary, arguments, [])))
    if plan["plan"] == "nothing":
        return None
    if plan["plan"] == "brute":
        return {"masks": [], "tables": [()], "brute": True}
    return {
        "masks": [int(mask, 16) for mask in plan["block_masks"]],
        "tables": [tuple(table) for table in plan["tables"]],
        "brute": False,
    }


def owner(masks, k, difference, table_of):
    """The table that owns a pair with XOR `difference`: the one keyed on
    the first m - k blocks the pair agrees on."""
    agree = tuple(j for j, mask in enumerate(masks) if difference & mask == 0)
    return table_of.get(agree[: len(masks) - k])


def candidates(spark, entries, k, binary, blocks, partitions, stats, counters):
    """Every pair of classes of a space whose fingerprints lie within k,
    as (space, a, b, distance, members of a, members of b, text of a, text
    of b) with a < b. `entries` are ((space, fingerprint), (class,
    payload)). Identical fingerprints are collapsed first; the distinct
    ones are exploded into one key per table and grouped by key, and a
    pair is kept by the table that owns it."""
    sc = spark.sparkContext
    collapsed = entries.groupByKey(partitions).mapValues(sorted) \
        .partitionBy(partitions).cache()
    distinct = collapsed.map(lambda item: item[0][0]).countByValue()
    plans = {}
    for space, count in sorted(distinct.items()):
        plan = plan_tables(binary, k, count, blocks)
        stats[space + "_distinct_fingerprints"] = count
        stats[space + "_tables"] = len(plan["tables"]) if plan else 0
        stats[space + "_blocks"] = len(plan["masks"]) if plan else 0
        if plan is not None:
            plan["table_of"] = {table: number for number, table in enumerate(plan["tables"])}
            plan["key_masks"] = [sum(plan["masks"][j] for j in table)
                                 for table in plan["tables"]]
            plans[space] = plan
    plans = sc.broadcast(plans)
    keys = counters["keys"]

    def same(item):
        (space, _), classes = item
        return [(space, a, b, 0, pa, pb)
                for i, (a, pa) in enumerate(classes) for b, pb in classes[i + 1:]]

    def explode(key):
        space, fingerprint = key
        plan = plans.value.get(space)
        if plan is None:
            return []
        keys.add(len(plan["key_masks"]))
        return [((space, table, fingerprint & mask), fingerprint)
                for table, mask in enumerate(plan["key_masks"])]

    def pairs_in(item):
        (space, table, _), fingerprints = item
        plan = plans.value[space]
        masks, table_of, brute = plan["masks"], plan["table_of"], plan["brute"]
        values = sorted(fingerprints)
        out = []
        for i, x in enumerate(values):
            for y in values[i + 1:]:
                difference = x ^ y
                distance = difference.bit_count()
                if distance > k:
                    continue
                if brute or owner(masks, k, difference, table_of) == table:
                    out.append(((space, x), (y, distance)))
        return out

    near = collapsed.keys().flatMap(explode).groupByKey(partitions).flatMap(pairs_in)
    # Each fingerprint pair stands for the pairs of their classes.
    seconds = near.join(collapsed) \
        .map(lambda item: ((item[0][0], item[1][0][0]), (item[1][0][1], item[1][1])))
    both = seconds.join(collapsed)

    def expand(item):
        (space, _), ((distance, firsts), others) = item
        out = []
        for a, pa in firsts:
            for b, pb in others:
                out.append((space, a, b, distance, pa, pb) if a < b
                           else (space, b, a, distance, pb, pa))
        return out

    return collapsed.flatMap(same).union(both.flatMap(expand))


# ------------------------------------------------------------ verification


def verify(pairs, binary, features, threshold, counters):
    """The near pairs among candidate class pairs (space, a, b, distance,
    payload a, payload b): those whose first documents' exact Jaccard is
    at least the threshold, by `simdup distributed verify` on the
    executors (character pairs in the short-text space), as (space, a, b,
    distance, jaccard, features, members a, members b)."""
    verified = counters["verified"]

    def run(partition):
        rows = {}
        lines = []
        for space, a, b, distance, (a_members, a_text), (b_members, b_text) in partition:
            rows[(space, a, b)] = (distance, a_members, b_members)
            lines.append(json.dumps({"a": [space, a], "b": b, "a_text": a_text,
                                     "b_text": b_text, "short_texts": space == "short"}))
        verified.add(len(lines))
        arguments = ["distributed", "verify", "-t", threshold] + features
        for line in pipe(binary, arguments, lines):
            verdict = json.loads(line)
            if verdict["near"]:
                (space, a), b = verdict["a"], verdict["b"]
                distance, a_members, b_members = rows[(space, a, b)]
                yield (space, a, b, distance, verdict["jaccard"], verdict.get("features"),
                       a_members, b_members)

    return pairs.mapPartitions(run)


# --------------------------------------------------------------- components


def components(edges, partitions, stats):
    """Connected components of an undirected graph given by `edges`
    (u, v): (vertex, smallest vertex of its component) for every vertex
    with an edge, by alternating large-star and small-star (Kiveris et
    al., "Connected Components in MapReduce and Beyond", SoCC 2014) until
    the graph is a set of stars around each component's smallest vertex."""

    def large_star(item):
        vertex, neighbours = item
        smallest = min(min(neighbours), vertex)
        return [(v, smallest) for v in neighbours if v > vertex]

    def small_star(item):
        vertex, smaller = item
        around = set(smaller) | {vertex}
        smallest = min(around)
        return [(v, smallest) for v in around if v != smallest]

    def not_a_star(item):
        # A vertex with two parents, or a parent that has a parent.
        _, roles = item
        parents = {parent for role, parent in roles if role == "child"}
        return len(parents) > 1 or (parents and any(role == "parent" for role, _ in roles))

    current = edges.filter(lambda e: e[0] != e[1]).map(lambda e: (max(e), min(e))) \
        .distinct(partitions).cache()
    rounds = 0
    while True:
        rounds += 1
        large = current.flatMap(lambda e: [e, (e[1], e[0])]).groupByKey(partitions) \
            .flatMap(large_star)
        small = large.map(lambda e: (max(e), min(e))).groupByKey(partitions) \
            .flatMap(small_star).distinct(partitions).cache()
        roles = small.flatMap(lambda e: [(e[0], ("child", e[1])), (e[1], ("parent", None))])
        done = roles.groupByKey(partitions).filter(not_a_star).isEmpty()
        current.unpersist()
        current = small
        if done:
            break
    stats["component_rounds"] = rounds
    return current


# ------------------------------------------------------------------- the job


def find(spark, args):
    """Runs the job; returns (pairs, groups, stats): pairs as dicts with
    `scan --format jsonl`'s fields plus the documents' indices (`_a`,
    `_b`), sorted as the scan lists them (Jaccard descending, then input
    order); groups as lists of (index, name), in order of first member;
    stats, counted as the job runs (complete once pairs and groups have
    been computed)."""
    if __name__ != "__main__":
        # Imported (by a test, a notebook): the executors unpickle this
        # module's functions by name, so they need the module too.
        spark.sparkContext.addPyFile(os.path.abspath(__file__))
    sc = spark.sparkContext
    binary = args.binary or "simdup"
    features = feature_options(args)
    partitions = args.partitions or sc.defaultParallelism
    stats = {}
    counters = {name: sc.accumulator(0) for name in ("keys", "verified")}

    records = read_records(spark, args)
    documents = fingerprint(records, binary, features)
    classes = classes_of(documents, args.min_features).cache()
    # Short texts are compared apart only with the scan's own shingles.
    short_on = args.shingle is None
    # When every document is a short text, no pair is the words space's.
    words_on = not classes.filter(
        lambda item: any(not short for _, _, short in item[1]["members"])).isEmpty()

    def entries(item):
        class_id, info = item
        payload = (info["members"], info["text"])
        out = []
        if words_on and not info["exact_only"]:
            out.append((("words", info["simhash"]), (class_id, payload)))
        if short_on and info["short"] is not None:
            out.append((("short", info["short"]), (class_id, payload)))
        return out

    def counted(candidate):
        # A words pair stands for its document pairs of at most one short
        # text: a pair of classes of short texts only is the other space's.
        space, _, _, _, (a_members, _), (b_members, _) = candidate
        if space == "short":
            return True
        short_a = sum(1 for _, _, short in a_members if short)
        short_b = sum(1 for _, _, short in b_members if short)
        return len(a_members) * len(b_members) - short_a * short_b > 0

    found = candidates(spark, classes.flatMap(entries), args.max_distance, binary, args.blocks,
                       partitions, stats, counters).filter(counted)
    near = verify(found, binary, features, args.threshold, counters).cache()
    pairs = document_pairs(near, classes)
    groups = document_groups(near, classes, partitions, stats)
    stats.update(counters)
    return pairs, groups, stats


def stat_values(stats):
    """The stats with each counter's value (read after the actions)."""
    return {name: getattr(value, "value", value) for name, value in stats.items()}


def document_pairs(near, classes):
    """Every document pair: within each class (Jaccard 1, distance 0), and
    between near classes (a pair of two short texts only from the
    character-pair space, any other only from the words space), sorted as
    the scan sorts them."""

    def within(item):
        _, info = item
        members = info["members"]
        return [pair_record(a, b, 0, 1.0, None) for i, a in enumerate(members)
                for b in members[i + 1:]]

    def between(pair):
        space, _, _, distance, jaccard, features, xs, ys = pair
        short_texts = space == "short"
        out = []
        for x in xs:
            for y in ys:
                if (x[2] and y[2]) != short_texts:
                    continue
                a, b = (x, y) if x[0] < y[0] else (y, x)
                out.append(pair_record(a, b, distance, jaccard, features))
        return out

    return classes.flatMap(within).union(near.flatMap(between)) \
        .sortBy(lambda p: (max(1.0 - p["jaccard"], 0.0), p["_a"], p["_b"]))


def pair_record(a, b, distance, jaccard, features):
    """One pair of members (index, name, short) with the fields of `scan
    --format jsonl`, and the indices."""
    record = {"a": a[1], "b": b[1], "distance": distance,
              "similarity": 1.0 - distance / 64.0, "jaccard": jaccard}
    if features is not None:
        record["features"] = features
    record["_a"], record["_b"] = a[0], b[0]
    return record


def document_groups(near, classes, partitions, stats):
    """The groups: connected components of near classes, plus every class
    of two or more documents; members (index, name) in input order, groups
    in order of first member."""
    component = components(near.map(lambda p: (p[1], p[2])), partitions, stats)
    members = classes.mapValues(lambda info: [(index, name) for index, name, _ in info["members"]])
    rooted = members.leftOuterJoin(component, partitions) \
        .map(lambda item: (item[1][1] if item[1][1] is not None else item[0], item[1][0]))
    groups = rooted.reduceByKey(lambda x, y: x + y, partitions).values() \
        .filter(lambda group: len(group) >= 2).map(sorted)
    return groups.sortBy(lambda group: group[0][0])


def write(spark, pairs, groups, args):
    """Writes pairs/ and groups/ under the output folder."""
    pair_rows = pairs.map(lambda p: {key: value for key, value in p.items()
                                     if not key.startswith("_")})
    group_rows = groups.zipWithIndex() \
        .map(lambda item: {"id": item[1] + 1, "members": [name for _, name in item[0]]})
    pairs_path = os.path.join(args.output, "pairs")
    groups_path = os.path.join(args.output, "groups")
    if args.format == "jsonl":
        pair_rows.map(lambda row: json.dumps(row, ensure_ascii=False, separators=(",", ":"))) \
            .saveAsTextFile(pairs_path)
        group_rows.map(lambda row: json.dumps(row, ensure_ascii=False, separators=(",", ":"))) \
            .saveAsTextFile(groups_path)
        return
    pair_schema = T.StructType([
        T.StructField("a", T.StringType(), False),
        T.StructField("b", T.StringType(), False),
        T.StructField("distance", T.IntegerType(), False),
        T.StructField("similarity", T.DoubleType(), False),
        T.StructField("jaccard", T.DoubleType(), False),
        T.StructField("features", T.StringType(), True),
    ])
    group_schema = T.StructType([
        T.StructField("id", T.LongType(), False),
        T.StructField("members", T.ArrayType(T.StringType(), False), False),
    ])
    spark.createDataFrame(
        pair_rows.map(lambda r: (r["a"], r["b"], r["distance"], r["similarity"],
                                 r["jaccard"], r.get("features"))),
        pair_schema).write.parquet(pairs_path)
    spark.createDataFrame(group_rows.map(lambda r: (r["id"], r["members"])), group_schema) \
        .write.parquet(groups_path)


def main(argv=None):
    """spark-submit entry point."""
    args = parse_args(sys.argv[1:] if argv is None else argv)
    spark = SparkSession.builder.appName("simdup").getOrCreate()
    try:
        pairs, groups, stats = find(spark, args)
        write(spark, pairs, groups, args)
        print("simdup_spark: " + json.dumps(stat_values(stats), sort_keys=True),
              file=sys.stderr)
    except JobError as error:
        print(f"simdup_spark: {error}", file=sys.stderr)
        return 2
    finally:
        spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
