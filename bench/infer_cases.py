#!/usr/bin/env python3
"""Write tests/data/truth/infer_cases.jsonl: the inference cases of the outside accuracy measure
(../shared/bench/cases/dev.jsonl) whose model config is in data/models, each with the engine
release its source names, as `--engine-version` (the memory of an engine depends on its release;
see src/estimate/engine_versions.cpp).

    python3 bench/infer_cases.py [DEV_JSONL] [OUT_JSONL]

The release of each source comes from what the source states (its how_measured or the case
notes); a source that states none is run at the current release.
"""
import json
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Source -> release, from the source's own words (../shared/truth/<source>.json).
BY_SOURCE = {
    # how_measured.framework: "Hugging Face transformers 4.38.2, PyTorch 2.1.2+cu118, ..."
    "qwen2_speed_benchmark": "transformers@4.38.2",
    # how_measured.framework: "Hugging Face transformers 4.46.0, PyTorch 2.3.1, ..."
    "qwen25_speed_benchmark": "transformers@4.46.0",
    # Qwen-1 README requirements: "transformers 4.32.0 and above"; the tables date from 2023-11.
    "qwen1_readme_profiling": "transformers@4.32.0",
    # The doc's WizardCoder/octocoder runs date from mid-2023 (config transformers_version 4.30).
    "hf_transformers_llm_optimization_doc": "transformers@4.30.0",
}

# vLLM issue logs: the notes date each log; the release current at that date (vLLM's tags).
VLLM_BY_NOTE = [
    (r"vLLM \(Dec 2023\)", "vllm@0.2.6"),
    (r"vLLM \(Feb 2024\)", "vllm@0.3.2"),
    (r"vLLM \(late-2024, V0\)", "vllm@0.6.3"),
    (r"vLLM \(V0 worker, Dec 2024 main\)", "vllm@0.6.5"),
    (r"vLLM \(V1, mid-2025\)", "vllm@0.9.2"),
]

# ik_llama.cpp forked mainline in mid-2024, before online CPU repacking (mainline PR 10446, b4273),
# and never took it up: as far as the buffers it allocates, it is a llama.cpp build before b4273.
IK_LLAMA = "llama.cpp@b3300"


def release(case):
    src, notes = case["source"], case.get("notes", "")
    if src in BY_SOURCE:
        return BY_SOURCE[src]
    if src == "vllm_issue_logs":
        for pattern, rel in VLLM_BY_NOTE:
            if re.search(pattern, notes):
                return rel
    if src == "llamacpp_issue_logs" and "ik_llama.cpp" in notes:
        return IK_LLAMA
    return None


def main():
    dev = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "..", "shared", "bench", "cases", "dev.jsonl")
    out = sys.argv[2] if len(sys.argv) > 2 else os.path.join(ROOT, "tests", "data", "truth", "infer_cases.jsonl")
    n = 0
    with open(dev) as f, open(out + ".tmp", "w") as w:
        for line in f:
            c = json.loads(line)
            if c.get("task") != "infer" or not c.get("model_dir"):
                continue
            if not os.path.exists(os.path.join(ROOT, "data", c["model_dir"], "config.json")):
                continue
            rel = release(c)
            if rel and "--engine-version" not in c["args"]:
                c["args"] = c["args"] + ["--engine-version", rel]
            w.write(json.dumps(c) + "\n")
            n += 1
    os.replace(out + ".tmp", out)
    print(f"{n} cases -> {out}")


if __name__ == "__main__":
    main()
