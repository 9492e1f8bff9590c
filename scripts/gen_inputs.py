#!/usr/bin/env python3
"""Deterministic benchmark inputs for `scripts/bench`.

Every file is generated from a fixed seed with `random.Random(seed)` using only
`random()` and `randrange()`, whose outputs are stable across Python 3 versions, so
the same command always writes byte-identical files.

Usage:
    scripts/gen_inputs.py --out DIR [--puzzle NAME ...] [--past] [--list]

Puzzles (the per-puzzle switch; default: all):
    bloxorz   bloxorz.in       4 cases of 500x500 open floor (a few E), target walled off
              bloxorz12.in     12 such cases (process start-up a small part of the time)
    sokoban   sokoban.in       100 mazes of 20x20, target walled off (all Impossible:
                               the whole state space is searched)
              sokoban_open.in  100 mazes of 20x20, target open (most solvable: checks
                               the push and walk counts against the C++)
    curling   curling.in       100 boards of 20x20 with sparse blocks (5-15%)
              curling_dense.in 100 boards of 20x20 with 25-40% blocks (the sparse
                               boards keep the C++ DFS at ~10 ms; these give it work)
    huarong   huarong.in       one 30x30 board, mostly 1s, 500 valid queries
--past adds inputs past the judges' limits (only puz can run them; the C++ arrays are
fixed-size):
    bloxorz   bloxorz_past.in  one case of 2000x2000, target walled off
    sokoban   sokoban_past.in  3 mazes of 60x60: target walled off, then two open
    huarong   huarong_past.in  one 100x100 board, 5,000 valid queries
"""

import argparse
import hashlib
import os
import random
import sys

PUZZLES = ("bloxorz", "sokoban", "curling", "huarong")


def pick(rng, lo, hi):
    """An integer in [lo, hi] (inclusive)."""
    return lo + rng.randrange(hi - lo + 1)


# ---------------------------------------------------------------- Bloxorz


def bloxorz_case(rng, n, m, fragile_frac):
    """An n x m open floor with a few 'E', a standing 'X', and an 'O' ringed by '#'.

    The ring makes the goal unreachable (every position that could stand on O, or lie
    next to it, covers a '#'), so the search explores the whole reachable space:
    about 3 * n * m states.
    """
    g = [["."] * m for _ in range(n)]
    orow, ocol = pick(rng, 1, n - 2), pick(rng, 1, m - 2)
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            g[orow + dr][ocol + dc] = "#"
    g[orow][ocol] = "O"
    for _ in range(int(n * m * fragile_frac)):
        r, c = rng.randrange(n), rng.randrange(m)
        if g[r][c] == ".":
            g[r][c] = "E"
    while True:
        r, c = rng.randrange(n), rng.randrange(m)
        if g[r][c] == ".":
            g[r][c] = "X"
            break
    return "%d %d\n%s\n" % (n, m, "\n".join("".join(row) for row in g))


def gen_bloxorz(rng):
    # Fragile fractions: none, then a few: the floor stays mostly open.
    cases = [bloxorz_case(rng, 500, 500, f) for f in (0.0, 0.001, 0.005, 0.01)]
    return "".join(cases) + "0 0\n"


def gen_bloxorz12(rng):
    """Twelve judge-limit cases, so that process start-up is a small part of the time."""
    fracs = (0.0, 0.001, 0.005, 0.01) * 3
    cases = [bloxorz_case(rng, 500, 500, f) for f in fracs]
    return "".join(cases) + "0 0\n"


def gen_bloxorz_past(rng):
    return bloxorz_case(rng, 2000, 2000, 0.001) + "0 0\n"


# ---------------------------------------------------------------- Sokoban


def sokoban_case(rng, n, m, wall_frac, ring=True):
    """An n x m maze (spec section 2 format) whose target is ringed by '#' when `ring`.

    With the ring the box can never reach T, so every reachable (box, side) state is
    explored; without it the maze is often solvable.
    """
    g = [["."] * m for _ in range(n)]
    for r in range(n):
        for c in range(m):
            if rng.random() < wall_frac:
                g[r][c] = "#"
    tr, tc = rng.randrange(n), rng.randrange(m)
    if ring:
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                if 0 <= tr + dr < n and 0 <= tc + dc < m:
                    g[tr + dr][tc + dc] = "#"
    g[tr][tc] = "T"
    # The box away from the border so that pushes exist; the player anywhere free.
    free = lambda r, c: g[r][c] == "."
    while True:
        r, c = pick(rng, 1, n - 2), pick(rng, 1, m - 2)
        if free(r, c):
            g[r][c] = "B"
            break
    while True:
        r, c = rng.randrange(n), rng.randrange(m)
        if free(r, c):
            g[r][c] = "S"
            break
    return "%d %d\n%s\n" % (n, m, "\n".join("".join(row) for row in g))


def gen_sokoban(rng):
    cases = [sokoban_case(rng, 20, 20, 0.04 + 0.08 * rng.random()) for _ in range(100)]
    return "".join(cases) + "0 0\n"


def gen_sokoban_open(rng):
    cases = [sokoban_case(rng, 20, 20, 0.05 + 0.15 * rng.random(), ring=False) for _ in range(100)]
    return "".join(cases) + "0 0\n"


def gen_sokoban_past(rng):
    cases = [sokoban_case(rng, 60, 60, 0.08, ring=True)]
    cases += [sokoban_case(rng, 60, 60, 0.05 + 0.10 * rng.random(), ring=False) for _ in range(2)]
    return "".join(cases) + "0 0\n"


# ---------------------------------------------------------------- Curling


def curling_case(rng, w, h, block_frac):
    """A board (spec section 4 format: `w h`, then h rows of w spaced ints)."""
    g = [[1 if rng.random() < block_frac else 0 for _ in range(w)] for _ in range(h)]
    sr, sc = rng.randrange(h), rng.randrange(w)
    while True:
        gr, gc = rng.randrange(h), rng.randrange(w)
        if (gr, gc) != (sr, sc):
            break
    g[sr][sc] = 2
    g[gr][gc] = 3
    return "%d %d\n%s\n" % (w, h, "\n".join(" ".join(map(str, row)) for row in g))


def gen_curling(rng):
    cases = [curling_case(rng, 20, 20, 0.05 + 0.10 * rng.random()) for _ in range(100)]
    return "".join(cases) + "0 0\n"


def gen_curling_dense(rng):
    cases = [curling_case(rng, 20, 20, 0.25 + 0.15 * rng.random()) for _ in range(100)]
    return "".join(cases) + "0 0\n"


# ---------------------------------------------------------------- Huarong


def gen_huarong_past(rng):
    return gen_huarong(rng, n=100, m=100, q=5000)


def gen_huarong(rng, n=30, m=30, q=500, fixed_frac=0.08):
    """One board of 0/1 (mostly 1) and q queries `EX EY SX SY TX TY`, 1-based.

    Every query is valid: blank and piece on distinct 1-cells; the target is a 1-cell
    too (occasionally the piece's own cell, which answers 0).
    """
    g = [[0 if rng.random() < fixed_frac else 1 for _ in range(m)] for _ in range(n)]
    ones = [(r, c) for r in range(n) for c in range(m) if g[r][c] == 1]
    lines = ["%d %d %d" % (n, m, q)]
    lines += [" ".join(map(str, row)) for row in g]
    for _ in range(q):
        e = ones[rng.randrange(len(ones))]
        while True:
            s = ones[rng.randrange(len(ones))]
            if s != e:
                break
        t = ones[rng.randrange(len(ones))]
        lines.append("%d %d %d %d %d %d" % (e[0] + 1, e[1] + 1, s[0] + 1, s[1] + 1, t[0] + 1, t[1] + 1))
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- main

# (file name, generator, seed): one fixed seed per file.
JOBS = {
    "bloxorz": [("bloxorz.in", gen_bloxorz, 172), ("bloxorz12.in", gen_bloxorz12, 1212)],
    "sokoban": [("sokoban.in", gen_sokoban, 174), ("sokoban_open.in", gen_sokoban_open, 1475)],
    "curling": [("curling.in", gen_curling, 3009), ("curling_dense.in", gen_curling_dense, 1144)],
    "huarong": [("huarong.in", gen_huarong, 1979)],
}
PAST = {
    "bloxorz": [("bloxorz_past.in", gen_bloxorz_past, 3322)],
    "sokoban": [("sokoban_past.in", gen_sokoban_past, 6060)],
    "huarong": [("huarong_past.in", gen_huarong_past, 100100)],
}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True, help="directory to write the inputs to")
    ap.add_argument("--puzzle", action="append", choices=PUZZLES, help="generate only this puzzle's inputs (repeatable)")
    ap.add_argument("--past", action="store_true", help="also write the past-the-limits inputs")
    args = ap.parse_args()

    os.makedirs(args.out, exist_ok=True)
    for name in args.puzzle or PUZZLES:
        jobs = JOBS[name] + (PAST.get(name, []) if args.past else [])
        for fname, gen, seed in jobs:
            text = gen(random.Random(seed)).encode("ascii")
            path = os.path.join(args.out, fname)
            # Rewrite only on change, so mtimes stay put between identical runs.
            old = None
            if os.path.exists(path):
                with open(path, "rb") as f:
                    old = f.read()
            if old != text:
                with open(path, "wb") as f:
                    f.write(text)
            print("%s  %s  %d bytes" % (hashlib.sha256(text).hexdigest()[:16], path, len(text)))


if __name__ == "__main__":
    try:
        main()
    except BrokenPipeError:
        sys.exit(1)
