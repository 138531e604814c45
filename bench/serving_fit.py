#!/usr/bin/env python3
"""The fit of the serving step model's efficiency rows (src/serve/step_model.cpp), reproducible.

The rows are fitted per engine on that engine's own measured rows, in two stages:

1. Scale: from a scoring run's records (score_serving.py --json), the least-squares (in log space)
   factor that centres each engine's TPOT on its measurements is the factor its bandwidth share moves
   by (decode steps are bound by the bytes they read), and the one that centres TTFT is the factor of
   its matmul share (prefill chunks are bound by FLOPs). Printed per engine and per metric, with the
   errors a run of that engine's rows alone gives.
2. All-reduce: per tensor-parallel degree, the TPOT left unexplained at low load (concurrency <= 16),
   over the 2 x layers all-reduces of a step: the latency of one all-reduce, whose growth with the GPUs
   of the group gives tp_peer_s and whose TP2 value gives tp_sync_s.

    python3 ../shared/bench/score_serving.py --llmplan build/llmplan --split dev \
        --source serving_aiconfigurator_silicon --engine-map sglang=none --engine-map trtllm=none --json v.json
    python3 bench/serving_fit.py v.json [--engine vllm]

The least squares of a constant in log space is the mean of log(measured / predicted); the script prints
it with the median (robust to the few runs the source flags). Standard library only.
"""
import argparse
import json
import math
import re
import statistics
from collections import defaultdict

# decoder layers of the models in ../shared/serving_truth (config.json num_hidden_layers of each Hub id)
LAYERS = {'meta-llama/Llama-3.1-70B': 80, 'meta-llama/Llama-3.1-8B-Instruct': 32, 'Qwen/Qwen3-32B': 64,
          'openai/gpt-oss-120b': 36, 'Qwen/Qwen3-235B-A22B-FP8': 94, 'moonshotai/Kimi-K2.5': 61,
          'deepseek-ai/DeepSeek-R1': 61, 'deepseek-ai/DeepSeek-V3': 61}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('json')
    ap.add_argument('--engine', help='published engine to fit (default: each)')
    a = ap.parse_args()
    cases = [c for c in json.load(open(a.json)) if c.get('status') == 'answered' and c.get('predicted')]
    if a.engine:
        cases = [c for c in cases if c['engine_published'] == a.engine]
    fam = defaultdict(list)
    for c in cases:
        m = c['metric']
        f = 'tpot' if m.startswith('tpot') else 'ttft' if m.startswith('ttft') else 'throughput'
        fam[(c['engine_published'], f)].append(c)
    print('stage 1: factor that centres each engine and metric (log least squares; median)')
    for (eng, f), cs in sorted(fam.items()):
        r = [math.log(c['measured'] / c['predicted']) for c in cs if c['measured'] > 0]
        if not r:
            continue
        mean, med = math.exp(statistics.mean(r)), math.exp(statistics.median(r))
        what = {'tpot': 'bandwidth share x 1/factor', 'ttft': 'matmul share x 1/factor',
                'throughput': 'both x factor'}[f]
        print(f'  {eng:7} {f:10} n={len(cs):5}  measured/predicted {mean:5.3f} (median {med:5.3f})  -> {what}')
    print('stage 2: TPOT left per all-reduce at concurrency <= 16, by tensor parallel (dense and MoE rows)')
    left = defaultdict(list)
    for c in cases:
        if not c['metric'].startswith('tpot') or c['model'] not in LAYERS:
            continue
        n = re.search(r'--concurrency (\d+)', c.get('question') or '')
        if not n or int(n.group(1)) > 16:
            continue
        left[(c['engine_published'], c['tp'])].append(
            (c['measured'] - c['predicted']) * 1e-3 / (2 * LAYERS[c['model']]))
    for (eng, tp), v in sorted(left.items()):
        print(f'  {eng:7} TP{tp}: n={len(v):4}  {statistics.median(v) * 1e6:+6.1f} us an all-reduce left over '
              '(0 when the row prices it)')


if __name__ == '__main__':
    main()
