#!/usr/bin/env python3
"""Group precision of `simdup scan --groups` on a real corpus with exact
ground truth (benches/real/build-corpora.py), for each way of forming
groups: the share of the document pairs within groups that are relevant
(word-3 Jaccard >= the threshold in the truth), the number of groups and
the largest. A group of s documents holds s (s - 1) / 2 pairs.

Connected components chain (releases 1 and 3 of a file join one group
through release 2); groups led by their first member (`--group-by
first`) hold only documents near their first (docs/QUALITY.md, "Groups
led by their first member").

Usage: benches/real/group-precision.py CORPUS [THRESHOLD [-- SCAN ARGS...]]
  CORPUS     a folder of target/real (its docs/ are scanned; the truth is
             CORPUS-text's when it exists: scan reads the text view)
  THRESHOLD  default 0.8
Environment: SIMDUP (default target/release/simdup).
"""
import json
import os
import subprocess
import sys


def main():
    args = sys.argv[1:]
    extra = []
    if "--" in args:
        extra = args[args.index("--") + 1:]
        args = args[: args.index("--")]
    if not args:
        sys.exit(__doc__)
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    simdup = os.path.abspath(os.environ.get("SIMDUP", os.path.join(root, "target/release/simdup")))
    corpus = os.path.join(root, "target/real", args[0])
    threshold = float(args[1]) if len(args) > 1 else 0.8
    truth_dir = corpus + "-text" if os.path.isdir(corpus + "-text") else corpus
    relevant = set()
    with open(os.path.join(truth_dir, "truth-words3.jsonl")) as truth:
        for line in truth:
            pair = json.loads(line)
            if "a" in pair and pair["jaccard"] >= threshold:
                relevant.add((pair["a"], pair["b"]))
                relevant.add((pair["b"], pair["a"]))
    for group_by in ("components", "first"):
        report = json.loads(subprocess.run(
            [simdup, "scan", "docs", "--groups", "--group-by", group_by, "--format", "json",
             "-q", "--threshold", str(threshold)] + extra,
            cwd=corpus, capture_output=True, check=True, text=True,
        ).stdout)
        implied = hits = largest = 0
        for group in report["groups"]:
            members = group["members"]
            largest = max(largest, len(members))
            for i, a in enumerate(members):
                for b in members[i + 1:]:
                    implied += 1
                    hits += (a, b) in relevant
        print(
            f"{args[0]} --group-by {group_by}: {len(report['groups'])} groups, "
            f"{implied} pairs within them, {hits} relevant: group precision "
            f"{hits / max(implied, 1):.3f}; largest {largest}"
        )


if __name__ == "__main__":
    main()
