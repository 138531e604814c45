#!/usr/bin/env python3
"""Break the outside scorer's training misses down by mechanism-bearing groups.

    python3 bench/train_breakdown.py [--llmplan build/llmplan] [--split dev] [--json OUT] [--cases]

Runs ../shared/bench/score.py's own case runner (same options, same counter, --catalog) over the
training cases and prints, per group (source, trainer, method, counter, batch lengths, GPUs,
checkpointing, precision), n, within tolerance, median signed error, and the share under-estimated
by more than 10%; --cases lists every case with its signed error, the counters and the parts.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.path.join(ROOT, "..", "..", "shared") if not os.path.isdir(os.path.join(ROOT, "..", "shared")) else os.path.join(ROOT, "..", "shared")
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(SHARED, "bench"))
import benchlib as bl  # noqa: E402


def opt(args, name, default="-"):
    return args[args.index(name) + 1] if name in args else default


def run(cmd, case):
    model = str(bl.REPO_ROOT / case["model_dir"]) if case["model_dir"] else case["model_id"]
    argv = cmd + ["estimate", model] + case["args"] + ["--json"]
    p = subprocess.run(argv, capture_output=True, text=True, timeout=60)
    r = {"case": case, "answered": False}
    if p.returncode != 0:
        r["why"] = (p.stderr.strip().splitlines() or [""])[-1][:200]
        return r
    doc = json.loads(p.stdout)
    pred = bl.extract_metric(case["metric"], doc, case.get("measured_bytes"))
    r.update(bl.case_error(case, pred))
    r["answered"] = True
    r["pred"] = pred
    devs = [d for d in doc.get("devices", []) if str(d.get("device", "")).startswith("cuda")]
    if devs:
        d = max(devs, key=lambda d: d["total_bytes"])
        r["parts"] = d.get("parts", {})
        r["counters"] = d.get("counters", {})
    return r


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--llmplan", default=os.path.join(ROOT, "build", "llmplan"))
    ap.add_argument("--split", default="dev")
    ap.add_argument("--source")
    ap.add_argument("--json")
    ap.add_argument("--cases", action="store_true")
    a = ap.parse_args()
    cases = [c for c in bl.load_cases(a.split, a.source) if c.get("task") == "train"]
    with ThreadPoolExecutor(4) as ex:
        res = list(ex.map(lambda c: run([a.llmplan], c), cases))
    keys = {
        "source": lambda c: c["source"],
        "trainer": lambda c: opt(c["args"], "--trainer", "default"),
        "method": lambda c: opt(c["args"], "--method"),
        "counter": lambda c: c["metric"].get("counter", "-") + ("/fits" if c["metric"]["kind"] == "fits" else ""),
        "lengths": lambda c: opt(c["args"], "--batch-lengths", "default"),
        "gpus/zero": lambda c: opt(c["args"], "--gpus", "1") + "/z" + opt(c["args"], "--zero", "0"),
        "ckpt": lambda c: opt(c["args"], "--grad-checkpointing", "default"),
        "precision": lambda c: opt(c["args"], "--precision"),
        "source+method": lambda c: c["source"] + " " + opt(c["args"], "--method"),
    }
    for name, f in keys.items():
        groups = {}
        for r in res:
            groups.setdefault(f(r["case"]), []).append(r)
        print(f"\n== by {name}")
        print(f"{'group':44s} {'n':>4s} {'ans':>4s} {'within':>7s} {'med':>7s} {'under10':>8s}")
        for g, rs in sorted(groups.items(), key=lambda kv: -sum(1 for r in kv[1] if r.get("answered") and r["err"] < -0.10)):
            ans = [r for r in rs if r["answered"]]
            within = sum(1 for r in ans if r["ok"]) / len(rs)
            under = sum(1 for r in ans if r["err"] < -0.10) / len(rs)
            med = statistics.median([r["err"] for r in ans]) if ans else float("nan")
            print(f"{g[:44]:44s} {len(rs):4d} {len(ans):4d} {100*within:6.1f}% {100*med:+6.1f}% {100*under:7.1f}%")
    if a.cases:
        print()
        for r in sorted(res, key=lambda r: (r["case"]["source"], r.get("err") or 0)):
            c = r["case"]
            if not r["answered"]:
                print(f"{c['id']:34s} unanswered: {r.get('why')}")
                continue
            gib = 1024 ** 3
            pr = " ".join(f"{k}={v / gib:.2f}" for k, v in r.get("parts", {}).items() if v)
            cn = " ".join(f"{k[:5]}={v / gib:.2f}" for k, v in r.get("counters", {}).items())
            meas = c.get("measured_bytes") or c["metric"].get("capacity_bytes", 0)
            print(f"{c['id']:34s} {100*r['err']:+6.1f}% {'ok ' if r['ok'] else 'MISS'} meas={meas/gib:.2f} pred={r['pred']/gib:.2f} "
                  f"[{c['metric'].get('counter')}] {' '.join(c['args'][2:])} | {cn} | {pr}")
    if a.json:
        with open(a.json, "w") as f:
            json.dump([{"id": r["case"]["id"], "err": r.get("err"), "ok": r.get("ok"), "pred": r.get("pred")} for r in res], f, indent=0)


if __name__ == "__main__":
    main()
