#!/usr/bin/env python3
"""Training speed: llmplan's training plan against the step times the dev sources publish.

For each dev training case whose source publishes a speed (Qwen-1's s/it with batch 1 x gradient
accumulation 8; torchtune's tokens/s; ms-swift's packed runs, samples of max_length tokens over seconds):
  - the achieved model FLOPs utilisation: measured tokens/s per GPU x llmplan's flops_per_token / the
    GPU's dense BF16 peak (gpus.csv), the matmuls only, as estimate --json reports them;
  - the plan's prediction: `llmplan plan MODEL ARGS --trainer T --hardware GPU --json`, the candidate's
    train_tokens_per_s / count (tokens/s per GPU; the plan picks its own GPU count and ZeRO stage), and
    its error predicted / measured - 1; with --before OTHER_LLMPLAN, the same for another build.
A summary per source and overall: median |error| and the share within 25%. Standard library only.

    python3 bench/train_speed.py [--llmplan build/llmplan] [--before OLD/llmplan] [--shared ../shared]
"""
import argparse, csv, json, re, statistics, subprocess, sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def peaks():
    out = {}
    with open(ROOT / "data/hardware/gpus.csv") as f:
        for r in csv.DictReader(f):
            if r["fp16_bf16_dense_tflops"]:
                out[r["name"]] = float(r["fp16_bf16_dense_tflops"]) * 1e12
    return out


def gpu_of(source, truth):
    if source in ("qwen1_readme_profiling", "ms_swift_benchmark"):  # both: A100-SXM4-80G (their how_measured)
        return "A100 SXM4 80GB"
    hw = truth.get("hardware", "")
    for key, name in (("4090", "GeForce RTX 4090"), ("A6000", "RTX A6000"), ("H100", "H100 SXM 80GB"),
                      ("A100", "A100 SXM4 80GB")):
        if key in hw:
            return name
    return None


# The trainer each source ran (as tests/unit/training_accuracy_test.cpp's trainer_of).
TRAINER = {"qwen1_readme_profiling": "hf", "ms_swift_benchmark": "ms-swift", "torchtune_readme_memory": "torchtune"}


def plan_speed(llmplan, model, args, trainer, gpu):
    """(tokens/s per GPU, GPUs, ZeRO stage, host-bound) of the plan's candidate on `gpu`, or None."""
    # The dev cases name their trainer since issue 23 (`--trainer` in args); older cases did not.
    extra = [] if "--trainer" in args else ["--trainer", trainer]
    p = subprocess.run([llmplan, "plan", model] + args + extra + ["--hardware", gpu, "--json"],
                       capture_output=True, text=True)
    if p.returncode:
        return None
    for c in json.loads(p.stdout)["candidates"]:
        if c["hardware"] == gpu and c.get("train_tokens_per_s"):
            host = any(r.startswith("host-bound") for r in c["reasons"])
            return c["train_tokens_per_s"] / c["count"], c["count"], c["zero_stage"], host
    return None


def summary(errs):
    a = [abs(e) for e in errs]
    return (f"median |error| {statistics.median(a)*100:.1f}%, within 25%: {sum(x <= 0.25 for x in a)} of {len(a)}"
            if a else "no cases")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--llmplan", default=str(ROOT / "build/llmplan"))
    ap.add_argument("--before", help="another llmplan binary whose plan speed to show beside (e.g. main's)")
    ap.add_argument("--shared", default=str(ROOT.parent / "shared"))
    a = ap.parse_args()
    shared = Path(a.shared)
    pk = peaks()
    rows = []
    for line in open(shared / "bench/cases/dev.jsonl"):
        c = json.loads(line)
        if c["task"] != "train" or not c["model_dir"]:
            continue
        # The published row: the one whose memory is this case's measured value (at its seq).
        seq_s = c["args"][c["args"].index("--seq") + 1]
        rows_t = json.load(open(shared / c["source_file"]))["cases"]
        match = [t for t in rows_t
                 if c["measured_value"] in (t.get("measured", {}).get("gpu_memory"),
                                            t.get("measured", {}).get("peak_memory_per_gpu"))
                 and str(t.get("sequence_length", seq_s)).split()[0] == seq_s]
        if len(match) != 1:
            continue
        truth = match[0]
        m = truth.get("measured", {})
        gpus = int(c["args"][c["args"].index("--gpus") + 1]) if "--gpus" in c["args"] else 1
        seq = int(c["args"][c["args"].index("--seq") + 1])
        mb = int(c["args"][c["args"].index("--micro-batch") + 1])
        if "speed_s_per_iter" in m and m["speed_s_per_iter"]:
            tok_s_gpu = 8 * mb * seq / float(m["speed_s_per_iter"])  # one step = 8 accumulated micro-batches a GPU
        elif "packing=True" in truth.get("tuner_params", "") and m.get("train_speed"):
            # ms-swift's packed Tuners rows: "R(N samples/T seconds)", every packed sample max_length tokens
            # long; samples/s of unpacked rows hide their lengths (the dataset's vary), so only these count.
            n_t = re.search(r"\((\d+) samples/([\d.]+) seconds\)", m["train_speed"])
            if not n_t:
                continue
            tok_s_gpu = int(n_t.group(1)) * seq / float(n_t.group(2)) / gpus
        elif m.get("tokens_per_s"):
            tok_s_gpu = float(m["tokens_per_s"]) / (gpus if "per GPU" not in str(m.get("tokens_per_s_note", "")) else 1)
        else:
            continue
        gpu = gpu_of(c["source"], truth)
        if gpu not in pk:
            continue
        p = subprocess.run([a.llmplan, "estimate", str(shared / c["model_dir"])] + c["args"] + ["--json"],
                           capture_output=True, text=True)
        if p.returncode:
            continue
        fpt = json.loads(p.stdout)["flops_per_token"]
        model = str(shared / c["model_dir"])
        trainer = TRAINER.get(c["source"], "hf")
        after = plan_speed(a.llmplan, model, c["args"], trainer, gpu)
        before = plan_speed(a.before, model, c["args"], trainer, gpu) if a.before else None
        rows.append((c["id"], gpu, " ".join(c["args"][2:12]), tok_s_gpu, tok_s_gpu * fpt / pk[gpu], before, after))
    cols = "| case | GPU | workload | measured tokens/s/GPU | achieved MFU |"
    cols += " before: plan tokens/s/GPU | error |" if a.before else ""
    print(cols + " plan tokens/s/GPU (GPUs, ZeRO) | error | bound |")
    print("| --- | --- | --- | ---: | ---: |" + (" ---: | ---: |" if a.before else "") + " ---: | ---: | --- |")
    for r in rows:
        line = f"| {r[0]} | {r[1]} | {r[2]} | {r[3]:.0f} | {r[4]*100:.1f}% |"
        if a.before:
            line += f" {r[5][0]:.0f} | {(r[5][0]/r[3]-1)*100:+.0f}% |" if r[5] else " - | - |"
        if r[6]:
            line += (f" {r[6][0]:.0f} ({r[6][1]}, {r[6][2]}) | {(r[6][0]/r[3]-1)*100:+.0f}% |"
                     f" {'host' if r[6][3] else 'device'} |")
        else:
            line += " - | - | - |"
        print(line)
    by = {}
    for r in rows:
        by.setdefault(r[0].split("#")[0], []).append(r)
    for s, v in list(by.items()) + [("all", rows)]:
        m = [r[4] for r in v]
        print(f"\n{s}: {len(v)} cases, achieved MFU median {statistics.median(m)*100:.1f}%, "
              f"range {min(m)*100:.1f}%-{max(m)*100:.1f}% (matmul FLOPs only)")
        if a.before:
            print(f"  before: {summary([r[5][0]/r[3]-1 for r in v if r[5]])}")
        print(f"  plan:   {summary([r[6][0]/r[3]-1 for r in v if r[6]])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
