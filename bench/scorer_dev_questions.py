#!/usr/bin/env python3
"""Write tests/data/truth/speed_dev_questions.json and serving_dev_questions.json: the dev cases of the
outside speed and serving measures (../shared/bench/score_speed.py on ../shared/speed_truth,
../shared/bench/score_serving.py on ../shared/serving_truth) as those scorers ask them, so that ctest
(tests/accuracy/scorer_floors.py) runs the same `llmplan plan` questions without reading ../shared.

The questions are not rebuilt here: each scorer's own main() runs in this process, --split dev, with its
subprocess calls recorded instead of run (each answered "exit 1"), and its --json rows give the call each
case reads. So the options are exactly the scorer's, including its hardware lists and its --top 1000.

    python3 bench/scorer_dev_questions.py [SHARED_BENCH_DIR]       (default ../shared/bench)

Each file: {"source": ..., "calls": [[arg, ...] without the program], "cases": [{id, source, call (indexes; candidates merged),
and the fields the scorer compares: metric, measured, hardware row and kind or GPU/TP counts ...}]}.
Cases the scorer does not ask (no catalog row, a run the contract cannot express) are only counted
("not_asked"): they are never answered, so no figure the test checks reads them.
"""
import datetime
import hashlib
import importlib.util
import io
import json
import os
import shlex
import subprocess
import sys
import tempfile
from contextlib import redirect_stdout

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "tests", "data", "truth")
FAKE = "LLMPLAN"  # the program word the recorded argv starts with; dropped from the written calls

SPEED_KEEP = ("id", "source", "status", "reason", "metric", "measured", "hardware", "hardware_kind", "gpu_count",
              "engine", "P", "G")
SERVING_KEEP = ("id", "source", "status", "reason", "metric", "measured", "hardware", "gpus", "tp")


def load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def record(mod, argv):
    """Run mod.main() with argv, every subprocess.run recorded and answered with no candidates; its --json rows."""
    calls = []

    def fake_run(args, **kw):
        calls.append(list(args))
        return subprocess.CompletedProcess(args, 0, stdout='{"candidates": []}', stderr="")

    real = mod.subprocess.run
    mod.subprocess.run = fake_run
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "rows.json")
        sys.argv = [mod.__file__, "--llmplan", FAKE, "--split", "dev", "--json", out] + argv
        try:
            with redirect_stdout(io.StringIO()):
                mod.main()
        finally:
            mod.subprocess.run = real
        rows = json.load(open(out))
    return calls, rows


def sha(path):
    return hashlib.sha256(open(path, "rb").read()).hexdigest()[:16]


def write(name, scorer_path, truth_dir, calls, rows, key_of, keep):
    index = {}
    out_calls = []
    for argv in calls:
        assert argv[0] == FAKE, argv
        key = key_of(argv)
        if key not in index:
            index[key] = len(out_calls)
            out_calls.append(argv[1:])
    cases, not_asked = [], 0
    for r in rows:
        if not r.get("call"):  # not asked (no catalog row, a run the contract cannot express): never answered
            not_asked += 1
            continue
        c = {k: r.get(k) for k in keep if k in r and k not in ("status", "reason")}
        # asked (answered here with no candidates): the test scores it from the real answer
        c["status"] = "asked"
        c["call"] = [index[k] for k in r["call"].split(" && ")] if " && " in r["call"] else [index[r["call"]]]
        cases.append(c)
    truth = sorted(f for f in os.listdir(truth_dir) if f.endswith(".json"))
    doc = {
        "source": (f"written by bench/scorer_dev_questions.py on {datetime.date.today().isoformat()} from "
                   f"{os.path.basename(scorer_path)} (sha256 {sha(scorer_path)}...) --split dev on "
                   + ", ".join(f"{f} ({sha(os.path.join(truth_dir, f))}...)" for f in truth)
                   + "; each truth file names its measurements' sources (URLs) in its own header"),
        "not_asked": not_asked,
        "calls": out_calls,
        "cases": cases,
    }
    path = os.path.join(OUT, name)
    with open(path, "w") as f:  # one call or case a line
        f.write("{\n")
        for k in ("source", "not_asked"):
            f.write(f"{json.dumps(k)}: {json.dumps(doc[k])},\n")
        for k in ("calls", "cases"):
            f.write(f"{json.dumps(k)}: [\n" + ",\n".join(json.dumps(x, separators=(",", ":")) for x in doc[k]) + "\n]")
            f.write(",\n" if k == "calls" else "\n")
        f.write("}\n")
    print(f"{path}: {len(out_calls)} calls, {len(cases)} cases asked, {not_asked} not asked")


def main():
    bench = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "..", "shared", "bench")
    speed_py = os.path.join(bench, "score_speed.py")
    serving_py = os.path.join(bench, "score_serving.py")

    speed = load(speed_py, "score_speed")
    calls, rows = record(speed, ["--worst", "0"])
    # score_speed keys a call by ' '.join(argv after the program); a group over names with a comma makes two calls
    # joined by ' && ' (run_plan), whose candidates are merged
    write("speed_dev_questions.json", speed_py, speed.TRUTH_DIR, calls, rows, lambda a: " ".join(a[1:]), SPEED_KEEP)

    serving = load(serving_py, "score_serving")
    calls, rows = record(serving, ["--worst", "0", "--jobs", "1"])
    for r in rows:
        r["call"] = r.get("question")
    write("serving_dev_questions.json", serving_py, serving.TRUTH_DIR, calls, rows, shlex.join, SERVING_KEEP)


if __name__ == "__main__":
    main()
