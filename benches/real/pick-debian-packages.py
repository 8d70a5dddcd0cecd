#!/usr/bin/env python3
"""Writes the fixed Debian package list of the real-text corpora.

The list (benches/real/debian-packages.txt) is committed, so every rebuild
uses the same packages; this script only documents how it was chosen and
can make a new one. Input: the Packages index of Debian's main archive
(bookworm, amd64), as `apt-get update` stores it. The rule:

- one binary package per source package (the first by name), so the
  copyright files are not the same file many times over;
- every source with a package of priority required, important or standard
  (the base system, whatever its size up to 20 MB);
- plus the first N other sources in the order of the SHA-256 of their
  chosen package's name (a uniform sample across sections), among those
  whose chosen package is at most 1 MB compressed.

Usage: benches/real/pick-debian-packages.py PACKAGES-FILE [N] > benches/real/debian-packages.txt
(PACKAGES-FILE: `/usr/lib/apt/apt-helper cat-file` of
/var/lib/apt/lists/*_debian_dists_bookworm_main_binary-amd64_Packages*).
"""

import hashlib
import sys


def records(text):
    for block in text.split("\n\n"):
        fields = {}
        for line in block.split("\n"):
            if line and not line[0].isspace() and ":" in line:
                key, value = line.split(":", 1)
                fields[key] = value.strip()
        if "Package" in fields:
            yield fields


def main():
    path = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 850
    with open(path, encoding="utf-8") as f:
        recs = list(records(f.read()))
    by_source = {}
    for r in recs:
        source = r.get("Source", r["Package"]).split(" ")[0]
        by_source.setdefault(source, []).append(r)
    base, rest = [], []
    for source, pkgs in by_source.items():
        chosen = min(pkgs, key=lambda r: r["Package"])
        size = int(chosen["Size"])
        if any(r.get("Priority") in ("required", "important", "standard") for r in pkgs):
            if size <= 20_000_000:
                base.append(chosen["Package"])
        elif size <= 1_000_000:
            rest.append(chosen["Package"])
    rest.sort(key=lambda p: hashlib.sha256(p.encode()).hexdigest())
    chosen = sorted(set(base) | set(rest[:n]))
    print("# Debian packages of the debian-docs and debian-copyright corpora (bookworm, amd64).")
    print("# Chosen by benches/real/pick-debian-packages.py: one package per source; every")
    print(f"# base-system source ({len(base)}), and {n} others sampled by hash (at most 1 MB each).")
    for p in chosen:
        print(p)


if __name__ == "__main__":
    main()
