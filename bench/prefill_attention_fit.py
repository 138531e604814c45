#!/usr/bin/env python3
"""Fit the bytes llama.cpp's unfused prompt attention moves per (query token, cached token, head, layer).

Without flash attention llama.cpp multiplies K.Q into an F32 score matrix, masks/scales and soft-maxes
it, and multiplies V by it: separate kernels, each streaming the scores through memory. The step from
pp512 to pp8192 (the mean context a prompt token attends to grows from 256 to 4096) then costs time
in proportion to the scores' bytes over the memory bandwidth, not to the FLOPs. This script reads the
records score_speed.py writes (--json) for xiongjiedai_llama3 (Llama-3 8B, 32 layers x 32 query heads,
head dim 128, F16 and Q4_K_M, one CUDA GPU) and prints, per GPU, the extra seconds a token of pp8192
takes over pp512, less the attention FLOPs at the prompt GEMM share, times the GPU's peak bandwidth,
over the pairs added: bytes per (pair, head, layer).  The median is the constant of
src/plan/speed_prefill.cpp (llamacpp_unfused_score_bytes).

    python3 ../shared/bench/score_speed.py --llmplan build/llmplan --split dev --json s.json
    python3 bench/prefill_attention_fit.py s.json
"""
import csv
import json
import os
import statistics
import sys
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
LAYERS, HEADS, HEAD_DIM = 32, 32, 128  # Llama-3 8B (config.json of meta-llama/Meta-Llama-3-8B)
SHARE = {'F16': 0.49, 'Q4_K_M': 0.38}   # prefill_share_llamacpp_f16 / _quantized (speed_prefill.cpp)


def main():
    gpus = {r['name']: r for r in csv.DictReader(open(os.path.join(HERE, '..', 'data', 'hardware', 'gpus.csv')))}
    recs = json.load(open(sys.argv[1]))
    rate = defaultdict(dict)
    for c in recs:
        if c.get('status') != 'answered' or c['source'] != 'xiongjiedai_llama3' or c['metric'] != 'prefill':
            continue
        if c['gpu_count'] != 1 or '8B' not in c['model_label'] or not c['workload'].endswith('CUDA'):
            continue
        pp, wt = c['workload'].split()[:2]
        rate[(c['hardware'], wt)][int(pp[2:])] = c['measured']
    out = []
    for (hw, wt), r in sorted(rate.items()):
        g = gpus.get(hw)
        if not g or 512 not in r or 8192 not in r or not g['memory_bandwidth_gb_s']:
            continue
        bw = float(g['memory_bandwidth_gb_s']) * 1e9
        tf = float(g['fp16_fp16acc_dense_tflops'] or g['fp16_bf16_dense_tflops'] or 0) * 1e12
        dt = 1 / r[8192] - 1 / r[512]
        pairs = (4096 - 256) * HEADS * LAYERS
        flops = 2 * 2 * HEAD_DIM * pairs  # QK^T and PV
        dt_bytes = dt - (flops / (SHARE.get(wt, 0.4) * tf) if tf else 0)
        b = dt_bytes * bw / pairs
        if dt <= 0:
            print(f'{hw:28} {wt:7} skipped: pp8192 not slower than pp512 (a run the source flags)')
            continue
        out.append(b)
        print(f'{hw:28} {wt:7} {dt * 1e6:7.1f} us a token more at pp8192; {b:5.1f} bytes a pair, head and layer')
    print(f'median {statistics.median(out):.1f} bytes over {len(out)} GPU x weight rows '
          f'(range {min(out):.1f}-{max(out):.1f})')


if __name__ == '__main__':
    main()
