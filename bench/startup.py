#!/usr/bin/env python3
"""Start-up cost of llmplan commands as processes, against a C++ hello world built in the same run.

Usage: bench/startup.py [LLMPLAN] [RUNS]   (defaults: build/llmplan 40)

Each command is started RUNS times, interleaved with the others (so that load from other work on
the machine falls on all of them alike); each run's CPU time (user + system, from wait4's rusage)
and wall time are taken, and the median is printed, with the difference from hello world and the
targets of issue 24 (--help within 3 ms of CPU of hello world, estimate within 6 ms, plan 20 ms).
Exit status 1 when a target is missed.
"""
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

LLMPLAN = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "build/llmplan")
RUNS = int(sys.argv[2]) if len(sys.argv) > 2 else 40
MODEL = "Qwen/Qwen2.5-7B-Instruct"

# (name, argv, target in ms of CPU over hello world; None: shown only)
COMMANDS = [
    ("hello", None, None),
    ("--help", [LLMPLAN, "--help"], 3.0),
    ("estimate", [LLMPLAN, "estimate", MODEL, "--ctx", "8192"], 6.0),
    ("estimate --json", [LLMPLAN, "estimate", MODEL, "--ctx", "8192", "--json"], 6.0),
    ("plan", [LLMPLAN, "plan", MODEL, "--ctx", "8192"], 20.0),
]


def build_hello(tmp):
    cxx = os.environ.get("CXX", "c++")
    src = os.path.join(tmp, "hello.cpp")
    exe = os.path.join(tmp, "hello")
    with open(src, "w") as f:
        f.write('#include <iostream>\nint main() { std::cout << "hello, world\\n"; }\n')
    subprocess.run([cxx, "-std=c++20", "-O2", src, "-o", exe], check=True)
    return exe


def one(argv):
    devnull = os.open(os.devnull, os.O_WRONLY)
    t0 = time.perf_counter()
    pid = os.posix_spawn(argv[0], argv, os.environ, file_actions=[(os.POSIX_SPAWN_DUP2, devnull, 1)])
    _, status, ru = os.wait4(pid, 0)
    wall = time.perf_counter() - t0
    os.close(devnull)
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"{' '.join(argv)}: exit status {os.waitstatus_to_exitcode(status)}")
    return (ru.ru_utime + ru.ru_stime) * 1e3, wall * 1e3


def main():
    tmp = tempfile.mkdtemp()
    try:
        hello = build_hello(tmp)
        cmds = [(n, a if a else [hello], t) for n, a, t in COMMANDS]
        cpu = {n: [] for n, _, _ in cmds}
        wall = {n: [] for n, _, _ in cmds}
        for n, a, _ in cmds:  # warm the page cache
            one(a)
        for _ in range(RUNS):
            for n, a, _ in cmds:
                c, w = one(a)
                cpu[n].append(c)
                wall[n].append(w)
    finally:
        shutil.rmtree(tmp)
    h = statistics.median(cpu["hello"])
    print(f"{LLMPLAN}, {RUNS} runs each, medians; load: {os.getloadavg()[0]:.2f}")
    print(f"{'command':18} {'CPU ms':>8} {'wall ms':>8} {'CPU - hello':>12} {'ratio':>6}  target")
    missed = False
    for n, _, t in cmds:
        c = statistics.median(cpu[n])
        w = statistics.median(wall[n])
        ok = "" if t is None else ("ok" if c - h <= t else "MISSED") + f" (<= {t:g} ms)"
        missed |= ok.startswith("MISSED")
        print(f"{n:18} {c:8.1f} {w:8.1f} {c - h:12.1f} {c / h:6.1f}  {ok}")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
