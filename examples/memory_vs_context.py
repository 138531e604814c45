#!/usr/bin/env python3
"""Memory against context length for a few models, from llmplan's Python module.

    PYTHONPATH=build/python python3 examples/memory_vs_context.py [out.png]

Each point is one llmplan.estimate() (llama.cpp, Q4_K_M weights, one GPU): the GPU's total, which
grows with the KV cache. With matplotlib installed (apt-get install python3-matplotlib) it draws
the curves to out.png; without it, it prints the table.
"""
import sys

import llmplan

MODELS = ["Qwen/Qwen2.5-0.5B-Instruct", "Qwen/Qwen2.5-7B-Instruct", "meta-llama/Llama-3.1-8B-Instruct"]
CONTEXTS = [2048, 4096, 8192, 16384, 32768, 65536, 131072]
GIB = 1 << 30


def gpu_total(model, ctx):
    doc = llmplan.estimate(model, weights="q4_k_m", ctx=ctx, engine="llama.cpp", offline=True)
    return max(d["total_bytes"] for d in doc["devices"]) / GIB


curves = {m: [gpu_total(m, c) for c in CONTEXTS] for m in MODELS}
print("context " + " ".join(f"{m.split('/')[1]:>28}" for m in MODELS))
for i, c in enumerate(CONTEXTS):
    print(f"{c:>7} " + " ".join(f"{curves[m][i]:>24.2f} GiB" for m in MODELS))

try:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    sys.exit(0)
fig, ax = plt.subplots(figsize=(7, 4))
for m, ys in curves.items():
    ax.plot(CONTEXTS, ys, marker="o", label=m.split("/")[1])
ax.set_xscale("log", base=2)
ax.set_xlabel("context (tokens)")
ax.set_ylabel("GPU memory (GiB)")
ax.set_title("llama.cpp, Q4_K_M: memory against context")
ax.legend()
fig.tight_layout()
fig.savefig(sys.argv[1] if len(sys.argv) > 1 else "memory_vs_context.png", dpi=120)
