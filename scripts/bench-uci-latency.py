#!/usr/bin/env python3
"""UCI timing benchmarks of crown over raw pipes.

Usage: bench-uci-latency.py [--quick] [PATH_TO_CROWN]   (default target/release/crown)

1. isready latency while searching: Threads 2, `go infinite`, then after
   20..200 ms `isready` (alone, or after a `position` command that must wait
   for the search: the issue-18 case); time from writing `isready` to
   reading `readyok`. Median and p99 over 50 tries of each; an answer that
   takes over 2 s counts as a timeout and is reported as such (the search
   is then stopped and the try goes on).
2. stop latency: Threads 2, Hash 256, `go infinite` from a few positions,
   `stop` after 50..300 ms; time from writing `stop` to reading `bestmove`.
   Median and p99 over 50 tries (target: median under 5 ms).
3. movetime overshoot: `go movetime 100`; time from writing `go` to reading
   `bestmove`, minus 100 ms. Median and p99 over 100 searches (target: p99
   under 15 ms).
4. SMP speed: nps of `go movetime 5000` with Threads 1 and Threads 2 from
   three positions, each in a fresh process, the two thread counts
   alternating (nps from crown's last info line); median ratio (target at
   least 1.8 on an idle 2-core machine).

Numbers on a machine shared with other work are noisy: run on an idle one
for figures to quote, and read the medians first.
"""

import queue
import random
import statistics
import subprocess
import sys
import threading
import time

POSITIONS = [
    "position startpos",
    "position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "position fen r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "position fen 8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
]


class Crown:
    def __init__(self, binary):
        self.proc = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, bufsize=1)
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def until(self, prefix, timeout=None):
        """Lines up to the first starting with `prefix`; None after `timeout` s."""
        lines = []
        deadline = None if timeout is None else time.perf_counter() + timeout
        while True:
            left = None if deadline is None else max(0.0, deadline - time.perf_counter())
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                return None
            if line is None:
                raise RuntimeError("crown closed its output")
            lines.append(line)
            if line.startswith(prefix):
                return lines

    def sync(self):
        self.send("isready")
        self.until("readyok")

    def quit(self):
        self.send("quit")
        self.proc.wait(timeout=30)


def percentile(values, p):
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(p / 100 * (len(ordered) - 1))))
    return ordered[k]


def isready_latency(binary, tries, queued):
    """isready during go infinite; with `queued`, after a position command."""
    crown = Crown(binary)
    crown.send("uci")
    crown.until("uciok")
    crown.send("setoption name Threads value 2")
    crown.sync()
    rng = random.Random(11)
    latencies, timeouts = [], 0
    for i in range(tries):
        crown.send(POSITIONS[i % len(POSITIONS)])
        crown.send("go infinite")
        time.sleep(rng.uniform(0.02, 0.2))
        if queued:
            crown.send(POSITIONS[(i + 1) % len(POSITIONS)])
        t0 = time.perf_counter()
        crown.send("isready")
        lines = crown.until("readyok", timeout=2.0)
        if lines is None:
            # The engine answers only once the search ends: stop it; its
            # bestmove then comes before the readyok.
            timeouts += 1
            crown.send("stop")
            crown.until("readyok")
        else:
            latencies.append((time.perf_counter() - t0) * 1000)
            crown.send("stop")
            if not any(l.startswith("bestmove") for l in lines):
                crown.until("bestmove")
    crown.quit()
    return latencies, timeouts


def stop_latency(binary, tries):
    crown = Crown(binary)
    crown.send("uci")
    crown.until("uciok")
    crown.send("setoption name Threads value 2")
    crown.send("setoption name Hash value 256")
    crown.sync()
    rng = random.Random(7)
    latencies = []
    for i in range(tries):
        crown.send(POSITIONS[i % len(POSITIONS)])
        crown.send("go infinite")
        crown.sync()
        time.sleep(rng.uniform(0.05, 0.3))
        t0 = time.perf_counter()
        crown.send("stop")
        crown.until("bestmove")
        latencies.append((time.perf_counter() - t0) * 1000)
    crown.quit()
    return latencies


def movetime_overshoot(binary, searches):
    crown = Crown(binary)
    crown.send("uci")
    crown.until("uciok")
    crown.sync()
    overshoot = []
    for i in range(searches):
        crown.send(POSITIONS[i % len(POSITIONS)])
        crown.sync()
        t0 = time.perf_counter()
        crown.send("go movetime 100")
        crown.until("bestmove")
        overshoot.append((time.perf_counter() - t0) * 1000 - 100)
    crown.quit()
    return overshoot


def nps(binary, threads, millis, position):
    crown = Crown(binary)
    crown.send("uci")
    crown.until("uciok")
    crown.send(f"setoption name Threads value {threads}")
    crown.send("setoption name Hash value 256")
    crown.send(position)
    crown.sync()
    crown.send(f"go movetime {millis}")
    lines = crown.until("bestmove")
    infos = [l.split() for l in lines if l.startswith("info") and " nps " in l]
    last = infos[-1]
    crown.quit()
    return int(last[last.index("nps") + 1])


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    quick = "--quick" in sys.argv
    binary = args[0] if args else "target/release/crown"

    for queued in (False, True):
        lat, timeouts = isready_latency(binary, 10 if quick else 50, queued)
        what = "after a queued position" if queued else "alone"
        figures = (f"median {statistics.median(lat):.2f} ms, p99 {percentile(lat, 99):.2f} ms, "
                   f"max {max(lat):.2f} ms" if lat else "no answer in time")
        print(f"isready latency during go infinite, {what} (Threads 2, "
              f"{len(lat) + timeouts} tries): {figures}; {timeouts} over 2 s", flush=True)

    lat = stop_latency(binary, 10 if quick else 50)
    print(f"stop latency (Threads 2, Hash 256, {len(lat)} tries): "
          f"median {statistics.median(lat):.2f} ms, p99 {percentile(lat, 99):.2f} ms, "
          f"max {max(lat):.2f} ms", flush=True)
    worst = sorted(range(len(lat)), key=lambda i: -lat[i])[:3]
    print("  slowest tries: " + ", ".join(f"#{i} {lat[i]:.1f} ms" for i in worst), flush=True)

    over = movetime_overshoot(binary, 20 if quick else 100)
    print(f"go movetime 100 overshoot ({len(over)} searches): "
          f"median {statistics.median(over):.2f} ms, p99 {percentile(over, 99):.2f} ms, "
          f"max {max(over):.2f} ms", flush=True)

    millis = 1000 if quick else 5000
    # Threads 1 and Threads 2 alternate position by position, so that load
    # from elsewhere falls on both alike.
    one, two = [], []
    for position in POSITIONS[:3]:
        one.append(nps(binary, 1, millis, position))
        two.append(nps(binary, 2, millis, position))
    ratios = [b / a for a, b in zip(one, two)]
    print(f"nps go movetime {millis}: Threads 1 {one}, Threads 2 {two}, "
          f"ratios {[round(r, 2) for r in ratios]}, median ratio {statistics.median(ratios):.2f}",
          flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
