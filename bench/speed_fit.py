#!/usr/bin/env python3
"""Fit of the Hugging Face transformers decode constants in src/plan/speed.h.

Data: tests/data/truth/qwen25_speed_benchmark.json (Qwen2.5 speed tables: transformers 4.46 generate,
A100 80GB, batch 1, 2048 new tokens after 1/6144/14336/30720 input tokens; tokens/s = 2048 / seconds of
the whole generate call). Fitted on the 102 single-GPU cases; the 10 multi-GPU cases are printed too.

Model (per decode step, at the average context input + output/2):
    host = n_layer * (layer_ms [+ quant_layer_ms for GPTQ-Int8 and AWQ])
    gpu  = 16-bit bytes / (0.6 * BW) + quantized weights / dequant_rate
         + n_layer * n_head * head_dim * 2 (K, V) * 2 bytes * context / (attn_eff * BW)
    step = max(host, gpu)
    tokens/s = 2048 / (input / prefill_tokens_per_s + 2048 * step)
with the catalog's A100 SXM4 80GB row (2039 GB/s, 312 TFLOPS) and llmplan's prefill roofline
(0.5 of peak). Objective: least squares on log(predicted / measured); Nelder-Mead (no numpy needed).
Byte counts are re-derived here from data/models/*/config.json (GPTQ/AWQ layouts as
src/estimate/weights.cpp); tests/unit/speed_accuracy_test.cpp evaluates the constants with llmplan's
own counts (bench/accuracy_speed.md).

Run from the repository root: python3 bench/speed_fit.py
"""
import glob
import json
import math
import os
import statistics

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BW, FLOPS, EFF, PREFILL_EFF = 2039e9, 312e12, 0.6, 0.5


def load_configs():
    cfg = {}
    for f in glob.glob(os.path.join(ROOT, "data/models/Qwen--Qwen2.5-*/config.json")):
        cfg[os.path.basename(os.path.dirname(f)).replace("Qwen--", "Qwen/")] = json.load(open(f))
    return cfg


def describe(c):
    L, H, nh, kv = c["num_hidden_layers"], c["hidden_size"], c["num_attention_heads"], c["num_key_value_heads"]
    I, V, hd = c["intermediate_size"], c["vocab_size"], c["hidden_size"] // c["num_attention_heads"]
    lins = [(H, H), (kv * hd, H), (kv * hd, H), (H, H), (I, H), (I, H), (H, I)]  # (out, in)
    other = V * H * (1 if c["tie_word_embeddings"] else 2) + L * (H + 2 * kv * hd + 2 * H) + H
    lin = L * sum(o * i for o, i in lins)
    return dict(L=L, nh=nh, kv=kv, hd=hd, lins=lins, lin=lin, other=other, params=lin + other)


def weight_bytes(m, prec):
    if prec == "BF16":
        return 2 * (m["lin"] + m["other"]), 0
    bits = 8 if prec == "GPTQ-Int8" else 4
    q = 0
    for o, i in m["lins"]:
        g = (i + 127) // 128
        q += o * i * bits / 8 + g * o * bits / 8 + g * o * 2 + (0 if prec == "AWQ" else i * 4)
    return 2 * m["other"], m["L"] * q


def cases():
    cfg = load_configs()
    doc = json.load(open(os.path.join(ROOT, "tests/data/truth/qwen25_speed_benchmark.json")))
    out = []
    for c in doc["cases"]:
        base = c["base_model"]
        m = describe(cfg.get(base) or cfg[base.replace("-Instruct", "")])
        out.append(dict(c=c, m=m, prec=c["precision"], inp=c["input_length"], out=c["output_length"],
                        gpus=c["num_gpus"], meas=c["measured"]["speed_tokens_per_s"]))
    return out


def predict(x, k, per_query_head=True):
    layer_ms, quant_layer_ms, rate_e11, attn_eff = x
    m = k["m"]
    ctx = k["inp"] + k["out"] / 2
    quant_extra = quant_layer_ms if k["prec"] in ("GPTQ-Int8", "AWQ") else 0
    host = m["L"] * (layer_ms + quant_extra) * 1e-3
    b16, _ = weight_bytes(m, k["prec"])
    weights = b16 / (EFF * BW) + (0 if k["prec"] == "BF16" else m["lin"] / (rate_e11 * 1e11))
    heads = m["nh"] if per_query_head else m["kv"]
    attn = m["L"] * heads * m["hd"] * 2 * 2 * ctx / (attn_eff * BW)
    step = max(host, weights + attn)
    prefill = k["inp"] / (PREFILL_EFF * FLOPS / (2 * m["params"]))
    return k["out"] / (prefill + k["out"] * step)


def nelder_mead(f, x0, iters=4000):
    n = len(x0)
    pts = [list(x0)] + [[x0[j] + (abs(x0[j]) * 0.2 + 0.05 if j == i else 0) for j in range(n)] for i in range(n)]
    vals = [f(p) for p in pts]
    for _ in range(iters):
        order = sorted(range(n + 1), key=lambda i: vals[i])
        pts, vals = [pts[i] for i in order], [vals[i] for i in order]
        c = [sum(p[j] for p in pts[:-1]) / n for j in range(n)]
        xr = [c[j] + (c[j] - pts[-1][j]) for j in range(n)]
        fr = f(xr)
        if fr < vals[0]:
            xe = [c[j] + 2 * (c[j] - pts[-1][j]) for j in range(n)]
            fe = f(xe)
            pts[-1], vals[-1] = (xe, fe) if fe < fr else (xr, fr)
        elif fr < vals[-2]:
            pts[-1], vals[-1] = xr, fr
        else:
            xc = [c[j] + 0.5 * (pts[-1][j] - c[j]) for j in range(n)]
            fc = f(xc)
            if fc < vals[-1]:
                pts[-1], vals[-1] = xc, fc
            else:
                for i in range(1, n + 1):
                    pts[i] = [pts[0][j] + 0.5 * (pts[i][j] - pts[0][j]) for j in range(n)]
                    vals[i] = f(pts[i])
    i = min(range(n + 1), key=lambda i: vals[i])
    return pts[i]


def quantile(v, q):
    v = sorted(v)
    i = q * (len(v) - 1)
    lo = int(i)
    return v[lo] + (v[min(lo + 1, len(v) - 1)] - v[lo]) * (i - lo)


def fit(single, per_query_head):
    def loss(x):
        if min(x) <= 0:
            return 1e9
        return sum(math.log(predict(x, k, per_query_head) / k["meas"]) ** 2 for k in single)

    x = nelder_mead(loss, [0.85, 0.25, 7.0, 0.15 if per_query_head else 0.03])
    return nelder_mead(loss, x)  # restart from the optimum


def report(x, all_cases, per_query_head):
    print("layer_ms %.4f  quant_layer_ms %.4f  dequant %.3g weights/s  attention_efficiency %.4f"
          % (x[0], x[1], x[2] * 1e11, x[3]))
    for name, group in (("single GPU", [k for k in all_cases if k["gpus"] == 1]),
                        ("multi GPU", [k for k in all_cases if k["gpus"] > 1])):
        err = [abs(predict(x, k, per_query_head) / k["meas"] - 1) for k in group]
        print("  %-10s n %3d  within 25%% %5.1f%%  median %.1f%%  p90 %.1f%%  worst %.1f%%"
              % (name, len(err), 100 * sum(e <= 0.25 for e in err) / len(err), 100 * statistics.median(err),
                 100 * quantile(err, 0.9), 100 * max(err)))


def main():
    all_cases = cases()
    single = [k for k in all_cases if k["gpus"] == 1]
    print("attention reads K/V per query head (the model in speed.h):")
    report(fit(single, True), all_cases, True)
    print("alternative, K/V read once per KV head:")
    report(fit(single, False), all_cases, False)


if __name__ == "__main__":
    main()
