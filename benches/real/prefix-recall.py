#!/usr/bin/env python3
"""What a join of short texts on their rarest character pairs alone would
find, against the exact join: a measurement for the search of dedup's
short texts once their exact join is given up (today: by character-pair
fingerprint within k = 6, expected recall 0.130 at 0.8).

Simulates dedup of the short lines (at most 256 characters) of FILE, in
order: a line is dropped when a kept line has Jaccard >= the threshold
with it by character pairs; the kept lines are indexed by the prefix of
their pairs in one global order, rarest first (the exact join's rule:
|x| - ceil(t |x|) + 1 pairs). Then again with each prefix cut to its
rarest R pairs, for R = 1, 2, 3. For each R it prints the share of the
exact run's drops it makes, and the shares of the postings it reads and
of the candidates it verifies. Every drop is verified, so only recall
and cost change.

The normalisation is simdup's only roughly (lower case, runs of
whitespace as one space; no NFKC, punctuation kept), so the counts are
close to simdup's, not equal; the runs compare with each other. Pure
Python and quadratic on crowded lines, as the exact join is: 40,000
generated address lines take about 11 minutes, 100,000 real lines 3.

Usage: benches/real/prefix-recall.py FILE [RECORDS [THRESHOLD]]
  RECORDS    short lines to read (default 30000)
  THRESHOLD  default 0.8
"""
import collections
import math
import sys


def short_lines(path, records):
    lines = []
    with open(path, encoding="utf-8", errors="replace") as source:
        for line in source:
            if len(lines) >= records:
                break
            line = line.rstrip("\n")
            if len(line) <= 256:
                lines.append(" ".join(line.lower().split()))
    return lines


def dedup(ranked, sets, threshold, cut):
    """Drops, postings read and candidates verified, with each prefix cut
    to `cut` pairs (None: the exact prefix)."""
    index = collections.defaultdict(list)
    drops = postings = candidates = 0
    for number, ranks in enumerate(ranked):
        if not ranks:
            continue
        size = len(ranks)
        prefix = size - math.ceil(threshold * size - 1e-9) + 1
        if cut is not None:
            prefix = min(prefix, cut)
        met = set()
        dropped = False
        for rank in ranks[:prefix]:
            listed = index[rank]
            postings += len(listed)
            for kept in listed:
                if kept in met:
                    continue
                met.add(kept)
                other = len(ranked[kept])
                if other < threshold * size - 1e-9 or size < threshold * other - 1e-9:
                    continue
                shared = len(sets[number] & sets[kept])
                if shared / (size + other - shared) >= threshold - 1e-12:
                    dropped = True
                    break
            if dropped:
                break
        candidates += len(met)
        if dropped:
            drops += 1
        else:
            for rank in ranks[:prefix]:
                index[rank].append(number)
    return drops, postings, candidates


def main():
    args = sys.argv[1:]
    if not args:
        sys.exit(__doc__)
    records = int(args[1]) if len(args) > 1 else 30000
    threshold = float(args[2]) if len(args) > 2 else 0.8
    lines = short_lines(args[0], records)
    sets = [frozenset(line[i : i + 2] for i in range(len(line) - 1)) for line in lines]
    counts = collections.Counter(pair for pairs in sets for pair in pairs)
    order = sorted(counts, key=lambda pair: (counts[pair], pair))
    rank = {pair: at for at, pair in enumerate(order)}
    ranked = [sorted(rank[pair] for pair in pairs) for pairs in sets]
    drops, postings, candidates = dedup(ranked, sets, threshold, None)
    print(f"{len(lines)} short lines, exact join: {drops} dropped, "
          f"{postings} postings read, {candidates} candidates", flush=True)
    print("| rarest pairs | drops | postings read | candidates |")
    print("|---:|---:|---:|---:|")
    for cut in (1, 2, 3):
        d, p, c = dedup(ranked, sets, threshold, cut)
        print(f"| {cut} | {d / max(drops, 1):.3f} | {p / max(postings, 1):.3f} "
              f"| {c / max(candidates, 1):.3f} |", flush=True)


if __name__ == "__main__":
    main()
