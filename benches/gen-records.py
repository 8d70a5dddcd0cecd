#!/usr/bin/env python3
"""Address-like records (about 45 bytes a line) with planted near-copies,
for timing `simdup dedup` (benches/dedup.sh).

    benches/gen-records.py N [SEED] > records.txt

Each line is a business, a street address, a town and a postcode, drawn
from word lists; one line in ten is a near-copy of an earlier line (a
street type abbreviated or spelled out, a word dropped, a letter changed,
or a suffix added) and one in twenty an exact copy. The output depends on
N and SEED alone.
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
        i = rng.randrange(len(words))
        word = words[i]
        j = rng.randrange(len(word))
        words[i] = word[:j] + rng.choice("abcdefghijklmnopqrstuvwxyz") + word[j + 1:]
    else:
        words.append(rng.choice(["North", "South", "East", "West", "Central"]))
    return " ".join(words)


def main():
    count = int(sys.argv[1])
    rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 1)
    made = []
    out = sys.stdout
    for _ in range(count):
        roll = rng.random()
        if made and roll < 0.05:
            text = made[rng.randrange(len(made))]
        elif made and roll < 0.15:
            text = near_copy(rng, made[rng.randrange(max(0, len(made) - 1000), len(made))])
        else:
            text = line(rng)
        made.append(text)
        out.write(text + "\n")


if __name__ == "__main__":
    main()
