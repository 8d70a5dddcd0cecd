#!/usr/bin/env python3
"""Address-like or log-like records with planted near-copies, for timing
`simdup dedup` (benches/dedup.sh).

    benches/gen-records.py N [SEED] [addresses|logs] > records.txt

addresses (the default, about 45 bytes a line): a business, a street
address, a town and a postcode, drawn from word lists.

logs (about 80 bytes a line): a timestamp, a level, a component and a
message from one of six formats with numbers, ids and addresses filled
in. Lines of one format share most of their character pairs, so their
SimHashes crowd together, while two of them rarely reach a Jaccard of
0.8: the hard case for a search by fingerprint.

Either way one line in ten is a near-copy of a recent line (a street
type abbreviated or spelled out, a word dropped, a letter changed, or a
suffix added; log lines have no street type, so a quarter of their
near-copies come out exact) and one in twenty an exact copy. The output depends on N, SEED and the kind alone.
"""

import random
import sys

FIRST = """Green Golden Silver Blue Red Lucky Happy Royal Grand Little Big Old
New Sunny Corner Village City Harbour River Mountain Ocean Park Garden
Star Maple Oak Pine Cedar Willow Rose Lily Iris Ivy Amber Coral Pearl Ruby
Jade Crystal Copper Iron Stone Brick""".split()
SECOND = """Leaf Dragon Lion Eagle Hawk Fox Bear Wolf Tiger Phoenix Crown Anchor
Bridge Tower Lantern Compass Arrow Bell Cloud Wave Moon Sun Tree Hill
Valley Meadow Brook Field Forest Lake""".split()
KIND = """Cafe Bakery Books Hardware Florist Pharmacy Deli Diner Grocer Tailor
Barber Salon Garage Motors Cycles Pets Toys Music Gallery Studio Dental
Clinic Hotel Inn Bistro Pizzeria Noodles Sushi Butcher Market""".split()
STREET = """High Church Main Park Station Victoria King Queen George Market
Mill School Bridge Water Albert Elizabeth Collins Bourke Pitt Oxford
Elm Washington Lincoln Jefferson Madison Franklin Jackson Adams Monroe
Hamilton Grant Pacific Ocean Beach Forest Hill Lake River Spring""".split()
TYPE = [("St", "Street"), ("Rd", "Road"), ("Ave", "Avenue"), ("Ln", "Lane"),
        ("Blvd", "Boulevard"), ("Dr", "Drive"), ("Ct", "Court"), ("Pl", "Place")]
TOWN = """Springfield Riverside Fairview Franklin Greenville Bristol Clinton
Salem Madison Georgetown Arlington Ashland Burlington Manchester Milton
Newport Oxford Dover Hudson Kingston Lexington Marion Jackson Auburn
Dayton Lebanon Mount Vernon Oakland Troy Winchester Chester Clayton
Florence Princeton Richmond Jamestown Centerville Shelby""".split()


def line(rng):
    short, long = rng.choice(TYPE)
    kind = short if rng.random() < 0.5 else long
    return (f"{rng.choice(FIRST)} {rng.choice(SECOND)} {rng.choice(KIND)} "
            f"{rng.randint(1, 9999)} {rng.choice(STREET)} {kind} "
            f"{rng.choice(TOWN)} {rng.randint(10000, 99999)}")


LOG_FORMATS = [
    "{ts} INFO  [worker-{w}] GET /api/v1/items/{n} 200 {ms}ms user={u}",
    "{ts} WARN  [worker-{w}] slow query on orders ({ms} ms) rows={n}",
    "{ts} ERROR [worker-{w}] connection reset by peer {ip}:{port}",
    "{ts} INFO  [scheduler] job {job} finished in {ms} ms",
    "{ts} DEBUG [cache] evicted {n} entries, {u} bytes free",
    "{ts} INFO  [auth] login ok for user {u} from {ip}",
]


def log_line(rng):
    ts = "2026-11-%02dT%02d:%02d:%02d.%03dZ" % (
        rng.randint(1, 28), rng.randint(0, 23), rng.randint(0, 59),
        rng.randint(0, 59), rng.randint(0, 999))
    ip = "10.%d.%d.%d" % (rng.randint(0, 255), rng.randint(0, 255), rng.randint(0, 255))
    return rng.choice(LOG_FORMATS).format(
        ts=ts, w=rng.randint(1, 16), n=rng.randint(1, 99999), ms=rng.randint(1, 5000),
        u=rng.randint(1000, 999999), ip=ip, port=rng.randint(1024, 65535),
        job=rng.choice(["backup", "reindex", "gc", "sync"]))


def near_copy(rng, text):
    words = text.split(" ")
    edit = rng.randrange(4)
    if edit == 0:
        for short, long in TYPE:
            if short in words:
                words[words.index(short)] = long
                break
            if long in words:
                words[words.index(long)] = short
                break
    elif edit == 1 and len(words) > 4:
        del words[rng.randrange(1, len(words))]
    elif edit == 2:
        # (Log lines have empty words between double spaces.)
        filled = [i for i, word in enumerate(words) if word]
        i = filled[rng.randrange(len(filled))]
        word = words[i]
        j = rng.randrange(len(word))
        words[i] = word[:j] + rng.choice("abcdefghijklmnopqrstuvwxyz") + word[j + 1:]
    else:
        words.append(rng.choice(["North", "South", "East", "West", "Central"]))
    return " ".join(words)


def main():
    count = int(sys.argv[1])
    rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 1)
    kind = sys.argv[3] if len(sys.argv) > 3 else "addresses"
    make = {"addresses": line, "logs": log_line}[kind]
    made = []
    out = sys.stdout
    for _ in range(count):
        roll = rng.random()
        if made and roll < 0.05:
            text = made[rng.randrange(len(made))]
        elif made and roll < 0.15:
            text = near_copy(rng, made[rng.randrange(max(0, len(made) - 1000), len(made))])
        else:
            text = make(rng)
        made.append(text)
        out.write(text + "\n")


if __name__ == "__main__":
    main()
