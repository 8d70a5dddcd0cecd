"""A paper estimate of the Spark job on a large corpus, from per-document,
per-key and per-comparison costs measured in local mode (docs/SPARK.md).

    python spark/estimate.py [--docs 1e9] [--cores 800] [--simdup target/release/simdup]

For each k it prints the single-machine plan (`simdup distributed plan`:
blocks and tables), the keys and their shuffle bytes, the comparisons in
buckets (the cost model of docs/SEARCH.md, for uniformly random
fingerprints), core-seconds, and wall time on the cluster; then the same
for the number of blocks that is cheapest with Spark's costs (`--blocks`).
"""

import argparse
import json
import math
import os
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)


def comparisons(n, k, m):
    """C(n, 2) times the chance that a random pair shares a table's key,
    summed over the tables (docs/SEARCH.md, "The cost model")."""
    narrow, wide, chosen = 64 // m, 64 % m, m - k
    pairs = n * (n - 1) / 2
    return sum(math.comb(wide, i) * math.comb(m - wide, chosen - i)
               * pairs * 2.0 ** -(chosen * narrow + i)
               for i in range(0, min(chosen, wide) + 1))


def plan(simdup, n, k):
    done = subprocess.run([simdup, "distributed", "plan", "-k", str(k), "-n", str(int(n))],
                          capture_output=True, check=True, text=True)
    return json.loads(done.stdout)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--docs", type=float, default=1e9)
    parser.add_argument("--cores", type=int, default=800, help="executor cores in all")
    parser.add_argument("--network", type=float, default=100 * 125e6,
                        help="shuffle bytes per second across the cluster (default: 100 "
                        "executors at 1 Gbit/s)")
    parser.add_argument("--doc-seconds", type=float, default=1.7e-3,
                        help="core-seconds per document outside the tables (measured)")
    parser.add_argument("--doc-bytes", type=float, default=9.2e3,
                        help="shuffle bytes per document outside the tables (measured)")
    parser.add_argument("--key-seconds", type=float, default=8.8e-6,
                        help="core-seconds per table key (measured)")
    parser.add_argument("--key-bytes", type=float, default=11.3,
                        help="shuffle bytes per table key (measured)")
    parser.add_argument("--compare-seconds", type=float, default=0.3e-6,
                        help="core-seconds per comparison in a bucket (measured)")
    parser.add_argument("--simdup", default=os.path.join(REPO, "target/release/simdup"))
    args = parser.parse_args()
    n = args.docs
    print(f"n = {n:.0e} documents, {args.cores} cores, "
          f"{args.network / 1e9:.1f} GB/s of shuffle across the cluster")
    print("| k | blocks | tables | keys | key shuffle | comparisons | core-hours | "
          "shuffle in all | wall hours |")
    print("|---|---|---|---|---|---|---|---|---|")
    for k in (3, 6, 9):
        single = len(plan(args.simdup, n, k)["block_masks"])
        options = {}
        for m in range(k + 1, 65):
            tables = math.comb(m, k)
            if tables > 1e6:
                continue
            keys = n * tables
            compared = comparisons(n, k, m)
            seconds = (n * args.doc_seconds + keys * args.key_seconds
                       + compared * args.compare_seconds)
            shuffle = n * args.doc_bytes + keys * args.key_bytes
            wall = seconds / args.cores + shuffle / args.network
            options[m] = (tables, keys, keys * args.key_bytes, compared, seconds, shuffle, wall)
        best = min(options, key=lambda m: options[m][6])
        for label, m in ((f"{single} (plan)", single), (f"{best} (--blocks)", best)):
            tables, keys, key_bytes, compared, seconds, shuffle, wall = options[m]
            print(f"| {k} | {label} | {tables} | {keys:.1e} | {key_bytes / 1e12:.1f} TB | "
                  f"{compared:.1e} | {seconds / 3600:,.0f} | {shuffle / 1e12:.1f} TB | "
                  f"{wall / 3600:.1f} |")


if __name__ == "__main__":
    main()
