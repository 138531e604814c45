#!/usr/bin/env python3
"""Fit of the board-power limit on llama.cpp CUDA prefill (src/plan/speed.cpp tensor_power_table) and
of the prefill shares that go with it (prefill_share_llamacpp_quantized / _f16).

Data: ../shared/speed_truth/xiongjiedai_llama3.json, one-GPU CUDA prefill (pp512..pp8192) cases of
Llama-3 8B/70B, F16 and Q4_K_M. Model (the one in speed.cpp): tokens/s = share x peak x limit /
(2 x params + attention FLOPs x 4.5), peak = fp16_fp16acc (else fp16_bf16) TFLOPS of gpus.csv, x0.5
on Hopper, limit = min(1, tdp_w / (W per TFLOPS x peak)) for the architectures in the table.
For each watts-per-TFLOPS value the shares are the median pp512 share (so the scale is not fitted
twice); printed: cases within 25% and the median error per GPU. Two F16 rows the source flags as
anomalous (A100 SXM 8B F16, L40S 8B F16: far below the same GPU at Q4_K_M) are left out of the
shares. Run with ../shared (or ../../shared from a worktree) present.
"""
import csv, json, os, statistics, sys
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
T = next(p for p in (os.path.join(ROOT, up, 'shared', 'speed_truth', 'xiongjiedai_llama3.json') for up in ('..', '../..'))
         if os.path.exists(p))  # ../shared beside the checkout (or a worktree's ../../shared)
gpus = {r['name']: r for r in csv.DictReader(open(os.path.join(ROOT, 'data/hardware/gpus.csv')))}
HW = {'NVIDIA GeForce RTX 3080': 'GeForce RTX 3080 (10GB)', 'NVIDIA GeForce RTX 3090': 'GeForce RTX 3090',
      'NVIDIA GeForce RTX 4080': 'GeForce RTX 4080 (16GB)', 'NVIDIA GeForce RTX 4090': 'GeForce RTX 4090',
      'NVIDIA RTX A6000': 'RTX A6000', 'NVIDIA RTX 6000 Ada Generation': 'RTX 6000 Ada Generation', 'NVIDIA A40': 'A40',
      'NVIDIA L40S': 'L40S', 'NVIDIA A100 80GB PCIe': 'A100 PCIe 80GB', 'NVIDIA A100-SXM4-80GB': 'A100 SXM4 80GB',
      'NVIDIA H100 PCIe': 'H100 PCIe 80GB'}
ANOMALOUS = {('A100 SXM4 80GB', '8B', 'F16'), ('L40S', '8B', 'F16')}
cases = []
for c in json.load(open(T))['cases']:
    name = HW.get(c['hardware_as_published'])
    if not name or c['gpu_count'] != 1 or c['kind'] != 'prefill': continue
    g = gpus[name]
    big = '70B' in c['hf_id']
    P, L, H = (70.6e9, 80, 64) if big else (8.03e9, 32, 32)
    n = c['prompt_tokens']
    peak = float(g['fp16_fp16acc_dense_tflops'] or g['fp16_bf16_dense_tflops']) * 1e12
    flops = 2 * P + L * 2 * H * 256 * (n // 2) * 4.5  # attention: head_dim 128 (K + V), unfused x4.5
    cases.append(dict(hw=name, size='70B' if big else '8B', q=c['quant'], n=n, meas=c['measured']['tokens_per_s'],
                      peak=peak * (0.5 if g['architecture'] == 'Hopper' else 1), flops=flops,
                      tdp=float(g['tdp_w']) if g['tdp_w'] else None, cc=g['compute_capability']))

def limit(c, table):
    w = table.get(c['cc'])
    return 1.0 if not w or not c['tdp'] else min(1.0, c['tdp'] / (w * c['peak'] / 1e12))

def evaluate(table, show=False):
    share = {}
    for q in ('Q4_K_M', 'F16'):
        v = [c['meas'] * c['flops'] / (c['peak'] * limit(c, table)) for c in cases
             if c['q'] == q and c['n'] == 512 and (c['hw'], c['size'], q) not in ANOMALOUS]
        share[q] = statistics.median(v)
    err = {}
    for c in cases:
        pred = share[c['q']] * c['peak'] * limit(c, table) / c['flops']
        err.setdefault(c['hw'], []).append(pred / c['meas'] - 1)
    within = sum(abs(e) <= 0.25 for v in err.values() for e in v)
    if show:
        for h in sorted(err):
            print(f"  {h:26s} median {100 * statistics.median(err[h]):+5.0f}%  within25 {sum(abs(e) <= .25 for e in err[h])}/{len(err[h])}")
    return within, share

print(f'{len(cases)} cases')
for w in (None, 1.2, 1.3, 1.36, 1.45, 1.55):
    table = {'8.9': w} if w else {}
    within, share = evaluate(table)
    print(f"Ada W/TFLOPS {w}: within25 {within}/{len(cases)}  shares Q4_K_M {share['Q4_K_M']:.3f} F16 {share['F16']:.3f}")
print('GA102 (8.6) added at 2.2 W/TFLOPS:', evaluate({'8.9': 1.36, '8.6': 2.2})[0])
print('per GPU at 1.36:'); evaluate({'8.9': 1.36}, True)
