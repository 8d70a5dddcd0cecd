#!/usr/bin/env python3
"""How much of what an exact dedup would drop `simdup dedup` drops, on a
real corpus with exact ground truth (benches/real/build-corpora.py).

The exact answer is the greedy one over the truth pairs: files in walk
order, each dropped when a file kept before it has Jaccard >= the
threshold with it. simdup's drops are exact by construction (each is
verified), so what is measured is recall: the share of the exact drops
simdup makes, and the drops it makes that the exact greedy does not (a
different earlier choice of which copy to keep can change later ones).

Usage: benches/real/dedup-recall.py CORPUS [THRESHOLD [-- DEDUP ARGS...]]
  CORPUS     a folder of target/real (its docs/ are deduplicated; the truth
             is CORPUS-text's when it exists: dedup reads the text view)
  THRESHOLD  default 0.8
Environment: SIMDUP (default target/release/simdup).
"""
import json
import os
import subprocess
import sys
import tempfile

from real_corpus import Run


def main():
    run_args = Run(sys.argv[1:], __doc__)
    args, extra, simdup = [run_args.name], run_args.extra, run_args.simdup
    corpus, threshold = run_args.corpus, run_args.threshold
    near = run_args.near()
    # Walk order: the order `simdup fingerprint` lists the files in.
    listed = subprocess.run(
        [simdup, "fingerprint", "docs"], cwd=corpus, capture_output=True, check=True, text=True
    ).stdout
    order = [line.split("  ", 1)[1] for line in listed.splitlines() if not line.startswith("#")]
    kept, exact_drops = set(), set()
    for name in order:
        if near.get(name, set()) & kept:
            exact_drops.add(name)
        else:
            kept.add(name)
    with tempfile.TemporaryDirectory() as tmp:
        dropped_file = os.path.join(tmp, "dropped.jsonl")
        run = subprocess.run(
            [simdup, "dedup", "docs", "--threshold", str(threshold), "--dropped", dropped_file]
            + extra,
            cwd=corpus, capture_output=True, check=True, text=True,
        )
        with open(dropped_file) as dropped:
            ours = {json.loads(line)["path"] for line in dropped}
    summary = run.stderr.strip().splitlines()[-1]
    both = len(ours & exact_drops)
    print(
        f"{args[0]} {' '.join(extra) or '(defaults)'}: exact greedy drops {len(exact_drops)}, "
        f"simdup drops {len(ours)}; recall {both / max(len(exact_drops), 1):.3f} "
        f"({len(exact_drops - ours)} missed, {len(ours - exact_drops)} others)"
    )
    print(f"  {summary}")


if __name__ == "__main__":
    main()
