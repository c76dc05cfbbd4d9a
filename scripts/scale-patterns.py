#!/usr/bin/env python3
"""Multiplies every weight of a draughts pattern file by one factor.

Usage: scale-patterns.py IN.cdp OUT.cdp FACTOR

Why: patterns trained on search scores alone (`crown-tune patterns --lambda
0`) come out with a compressed scale. Under squared loss the trained
evaluation predicts the part of the search score it can see, which is
closer to even than the score itself, so a man or a king is worth less in
its units. The search's margins (futility, razoring, the aspiration window,
the reductions' thresholds) were tuned by SPSA in the units of the file
before, and read the compressed scores as smaller than they are. The fix is
to stretch the file back: fit K to the game results for the old file and for
the new one on the same data (`crown-tune patterns --data D --start F --out
/dev/null --epochs 0 --lambda 0` prints `K = ...` fitted to the results when
`--k` is not given) and scale the new file by K(new) / K(old); refitting K
on the scaled file should then give K(old). Generation 6 of the international
patterns was made so (tuning/generations.md).

The file format is that of src/eval/draughts/patterns.rs (version 2): a
32-byte header, then a (middlegame, endgame) pair of little-endian i16 per
feature, then the FNV-1a (32-bit) of everything before. The header is kept,
each weight is rounded and clamped to i16 (the clamped count is printed), and
the checksum is written anew. A file that is not a pattern file of version 2
is refused with a message and nothing is written.
"""

import struct
import sys

HEADER = 32
MAGIC = b"CRWNPAT\0"


def fnv1a(data: bytes) -> int:
    h = 0x811C9DC5
    for byte in data:
        h = ((h ^ byte) * 0x01000193) & 0xFFFFFFFF
    return h


def main() -> int:
    if len(sys.argv) != 4:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    src, dst, factor_text = sys.argv[1:]
    try:
        factor = float(factor_text)
    except ValueError:
        print(f"scale-patterns: FACTOR must be a number, not {factor_text!r}", file=sys.stderr)
        return 2
    if not 0.1 <= factor <= 10.0:
        print(f"scale-patterns: FACTOR {factor} is outside 0.1..10", file=sys.stderr)
        return 2
    try:
        with open(src, "rb") as f:
            data = f.read()
    except OSError as e:
        print(f"scale-patterns: cannot read {src}: {e.strerror}", file=sys.stderr)
        return 1
    body, check = data[:-4], data[-4:]
    if len(data) < HEADER + 4 or body[:8] != MAGIC or (len(body) - HEADER) % 4 != 0:
        print(f"scale-patterns: {src} is not a pattern file", file=sys.stderr)
        return 1
    if struct.unpack("<I", body[8:12])[0] != 2:
        print(f"scale-patterns: {src} is not of version 2", file=sys.stderr)
        return 1
    if struct.unpack("<I", check)[0] != fnv1a(body):
        print(f"scale-patterns: {src} fails its checksum", file=sys.stderr)
        return 1
    count = (len(body) - HEADER) // 2
    weights = struct.unpack(f"<{count}h", body[HEADER:])
    scaled = [round(w * factor) for w in weights]
    clamped = sum(1 for w in scaled if not -32768 <= w <= 32767)
    scaled = [max(-32768, min(32767, w)) for w in scaled]
    out = body[:HEADER] + struct.pack(f"<{count}h", *scaled)
    try:
        with open(dst, "wb") as f:
            f.write(out + struct.pack("<I", fnv1a(out)))
    except OSError as e:
        print(f"scale-patterns: cannot write {dst}: {e.strerror}", file=sys.stderr)
        return 1
    print(f"{dst}: {count // 2} features scaled by {factor} ({clamped} weights clamped)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
