#!/usr/bin/env python3
"""Training memory against published figures the dev set does not hold (tests/data/truth/external_train.jsonl).

    python3 bench/external_train.py [--llmplan build/llmplan] [--cases FILE] [--source NAME] [--json OUT]

Each case is run three times through `llmplan estimate MODEL ARGS --json`: with the default trainer (only the
case's `args`), with the trainer the source used (`args` + `trainer_args`), and with only the part of
`trainer_args` that ../shared/cli-contract.md defines (`--trainer`, `--batch-lengths`, `--grad-accum`: what an
outside scorer passes when a source states them; llmplan's own options such as `--fsdp-units` or `--loss` dropped).
The metric is the busiest GPU's `total_bytes` (`cuda_total_max`: nvidia-smi, or a GPU's capacity) or
`total_bytes - overhead` (`cuda_allocated_max`: torch.cuda.max_memory_allocated); a case whose metric names a
`counter` (`torch_reserved` where the source printed torch.cuda.max_memory_reserved, `unknown` where it never
said: the closest of the three) is read at that counter of the JSON's `counters`. Error = (predicted - measured) /
measured; a case is within tolerance when |error| <= its tolerance (12% LoRA/QLoRA, 15% full).
Standard library only. Exit status 0 unless a command cannot be run at all (the figures are a report, not a gate).
No constant of llmplan is fitted to these cases: they are a check set.
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
GIB = 2**30


COUNTERS = ("torch_allocated", "torch_reserved", "device_used")
# The training options of ../shared/cli-contract.md that trainer_args may carry; the rest are llmplan's own.
CONTRACT_OPTIONS = ("--trainer", "--batch-lengths", "--grad-accum")


def contract_only(trainer_args: list[str]) -> list[str]:
    out = []
    for i in range(0, len(trainer_args) - 1, 2):
        if trainer_args[i] in CONTRACT_OPTIONS:
            out += trainer_args[i:i + 2]
    return out


def predicted(doc: dict, kind: str, counter: str | None = None, measured: int = 0) -> int:
    devs = [d for d in doc["devices"] if str(d.get("device", "")).startswith("cuda")]
    if not devs:
        raise KeyError("no cuda device in the JSON")
    # The counter the source printed (the contract's `counters`, issue 23): torch.cuda.max_memory_reserved is
    # `torch_reserved`, not the device total (which adds the CUDA context); a source that never said which is
    # compared with the closest of the three, as ../shared/bench/score.py does for `unknown`.
    if counter in COUNTERS:
        return max(int(d["counters"][counter]) for d in devs)
    if counter == "unknown":
        per = [max(int(d["counters"][c]) for d in devs) for c in COUNTERS]
        return min(per, key=lambda v: abs(v - measured))
    if kind == "cuda_allocated_max":
        return max(int(d["total_bytes"]) - int(d["parts"]["overhead"]) for d in devs)
    if kind == "cuda_total_max":
        return max(int(d["total_bytes"]) for d in devs)
    raise ValueError(f"unknown metric kind {kind}")


def run(llmplan: list[str], case: dict, extra: list[str]) -> dict:
    argv = llmplan + ["estimate", case["model_id"]] + case["args"] + extra + ["--json"]
    try:
        p = subprocess.run(argv, capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as e:
        return {"ok": False, "why": str(e), "not_run": True}
    if p.returncode != 0:
        return {"ok": False, "why": (p.stderr.strip().splitlines() or [""])[-1][:200]}
    doc = json.loads(p.stdout)
    pred = predicted(doc, case["metric"]["kind"], case["metric"].get("counter"), case["measured_bytes"])
    err = (pred - case["measured_bytes"]) / case["measured_bytes"]
    return {"ok": True, "pred": pred, "err": err, "within": abs(err) <= case["tolerance"]}


def summary(rows: list[dict]) -> str:
    n = len(rows)
    answered = [r for r in rows if r["ok"]]
    if not n:
        return "n 0"
    within = sum(1 for r in answered if r["within"]) / n
    under = sum(1 for r in answered if r["err"] < -0.10) / n
    med = f"{100 * statistics.median(abs(r['err']) for r in answered):5.1f}%" if answered else "    -"
    return (f"n {n:3d}  answered {len(answered):3d}  within tolerance {100 * within:5.1f}%  "
            f"median |error| {med}  under by > 10% {100 * under:5.1f}%")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0], epilog=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--llmplan", default=str(REPO / "build" / "llmplan"))
    ap.add_argument("--cases", default=str(REPO / "tests" / "data" / "truth" / "external_train.jsonl"))
    ap.add_argument("--source", help="only this source's cases")
    ap.add_argument("--json", help="write every case's results here")
    a = ap.parse_args(argv)
    cases = [json.loads(line) for line in Path(a.cases).read_text().splitlines() if line.strip()]
    if a.source:
        cases = [c for c in cases if c["source"] == a.source]
    cmd = a.llmplan.split()
    results = []
    print(f"{'case':28s} {'measured':>10s} {'default':>10s} {'err':>7s} {'matched':>10s} {'err':>7s}  trainer")
    for c in cases:
        d = run(cmd, c, [])
        m = run(cmd, c, c.get("trainer_args", []))
        k = run(cmd, c, contract_only(c.get("trainer_args", [])))
        results.append({"id": c["id"], "source": c["source"], "default": d, "matched": m, "contract": k})

        def cell(r):
            return (f"{r['pred'] / GIB:8.2f}Gi {100 * r['err']:+6.1f}%" if r["ok"] else f"{'error':>10s} {'':>7s}")
        print(f"{c['id']:28s} {c['measured_bytes'] / GIB:8.2f}Gi {cell(d)} {cell(m)}  {' '.join(c.get('trainer_args', []))}")
        for r in (d, m, k):
            if not r["ok"]:
                print(f"    llmplan failed: {r['why']}")
    print()
    for which, title in (("default", "default trainer"), ("matched", "matched trainer"),
                         ("contract", "matched trainer, contract options only")):
        print(f"{title}:")
        for src in sorted({r["source"] for r in results}):
            print(f"  {src:28s} {summary([r[which] for r in results if r['source'] == src])}")
        print(f"  {'all':28s} {summary([r[which] for r in results])}")
    if a.json:
        Path(a.json).write_text(json.dumps(results, indent=1))
    return 1 if any(r[w].get("not_run") for r in results for w in ("default", "matched", "contract")) else 0


if __name__ == "__main__":
    sys.exit(main())
