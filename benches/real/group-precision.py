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
import subprocess
import sys

from real_corpus import Run


def main():
    run = Run(sys.argv[1:], __doc__)
    near = run.near()
    for group_by in ("components", "first"):
        report = json.loads(subprocess.run(
            [run.simdup, "scan", "docs", "--groups", "--group-by", group_by, "--format", "json",
             "-q", "--threshold", str(run.threshold)] + run.extra,
            cwd=run.corpus, capture_output=True, check=True, text=True,
        ).stdout)
        implied = hits = largest = 0
        for group in report["groups"]:
            members = group["members"]
            largest = max(largest, len(members))
            for i, a in enumerate(members):
                for b in members[i + 1:]:
                    implied += 1
                    hits += b in near.get(a, ())
        print(
            f"{run.name} --group-by {group_by}: {len(report['groups'])} groups, "
            f"{implied} pairs within them, {hits} relevant: group precision "
            f"{hits / max(implied, 1):.3f}; largest {largest}"
        )


if __name__ == "__main__":
    main()
