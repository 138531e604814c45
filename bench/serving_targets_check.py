#!/usr/bin/env python3
"""Does the fewest-GPU deployment `plan` picks for a load with latency targets actually meet them?

Issue 22 asks that "the fewest-GPU answer for a row with targets is a configuration the measured sweep shows
meeting them". This checks it on the measured sweeps of ../shared/serving_truth, read through the outside
scorer's own row builder (score_serving.py: the same model, hardware, engine and option mapping):

  1. rows of one deployment question (source, engine, model, hardware, prompt/output lengths, options) form a
     sweep over tensor parallel x concurrency, each point with a measured TTFT and TPOT;
  2. every closed-loop point P of a sweep becomes a question with P's own measured TTFT and TPOT as the targets,
     held at the 50th percentile (the sources print a mean or a median):
        llmplan plan MODEL --engine E --hardware H --input-len I --output-len O --concurrency C
                     --ttft-ms TTFT(P) --tpot-ms TPOT(P) --slo-percentile 50 --offline --json
     so at least one measured deployment (P itself) meets the targets, and llmplan chooses tensor parallel and
     instances on its own;
  3. the answer (tensor parallel T, instances k, each carrying C / k requests) is looked up in the sweep:
       met        the sweep measured T at concurrency C / k and both latencies were within the targets
                  (with --noise: within them plus that share, for run-to-run noise);
       missed     measured there and at least one latency was over;
       unmeasured the sweep has no point at T and C / k (cannot be checked either way);
       none       llmplan found no deployment meeting the targets (it says so: pessimistic, not wrong);
  4. and the plan's GPU count is compared with the fewest GPUs of any measured point (T', C / k' on k' instances)
     that meets the targets: "more" is a safe over-provision, "fewer" must be a measured "met".

    python3 bench/serving_targets_check.py --llmplan build/llmplan            # vLLM and SGLang rows
    python3 bench/serving_targets_check.py --llmplan build/llmplan --engines vllm,sglang,trtllm --noise 0.05

Standard library only. Prints a table per published engine and the worst "missed" points.
"""
import argparse
import importlib.util
import json
import os
import subprocess
import sys
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))


def load_scorer(path):
    spec = importlib.util.spec_from_file_location('score_serving', path)
    if spec is None or spec.loader is None:
        raise SystemExit(f'{path}: cannot load the serving scorer')
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def sweep_key(r):
    opts = {k: v for k, v in r['opts'].items() if k not in ('--gpus', '--tensor-parallel', '--max-num-seqs')}
    return (r['source'], r['engine_published'], r['engine'], r['model'], r['hardware'], r['input_len'],
            r['output_len'], json.dumps(opts, sort_keys=True))


def ask(cmd, r, opts, timeout):
    argv = cmd.split() + ['plan', r['model'], '--engine', r['engine'], '--hardware', r['hardware'],
                          '--input-len', str(r['input_len']), '--output-len', str(r['output_len']),
                          '--concurrency', str(int(r['load'])),
                          '--ttft-ms', f"{r['metrics']['ttft_mean']:.6g}",
                          '--tpot-ms', f"{r['metrics']['tpot_mean']:.6g}", '--slo-percentile', '50']
    for k, v in opts.items():
        argv += [k] if v is None else [k, str(v)]
    argv += ['--offline', '--json']
    try:
        p = subprocess.run(argv, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {'error': 'timeout'}
    if p.returncode != 0:
        lines = (p.stderr or p.stdout).strip().splitlines()
        return {'error': f'exit {p.returncode}: ' + (lines[0][:160] if lines else '')}
    try:
        doc = json.loads(p.stdout)
    except json.JSONDecodeError:
        return {'error': 'no JSON on stdout'}
    for c in doc.get('candidates', []):
        if c.get('hardware') == r['hardware'] and isinstance(c.get('serving'), dict):
            return {'serving': c['serving']}
    return {'error': 'no candidate with a serving object for this hardware'}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--llmplan', required=True)
    ap.add_argument('--scorer', default=os.path.join(HERE, '..', '..', 'shared', 'bench', 'score_serving.py'))
    ap.add_argument('--engines', default='vllm,sglang', help='published engines whose rows are asked [vllm,sglang]')
    ap.add_argument('--ask-as-published', action='store_true',
                    help='ask SGLang rows as --engine sglang (default: as the scorer maps them)')
    ap.add_argument('--noise', type=float, default=0.0, help='share over a target still counted as met [0]')
    ap.add_argument('--jobs', type=int, default=2)
    ap.add_argument('--timeout', type=float, default=60)
    ap.add_argument('--json', help='write every point and its verdict here')
    a = ap.parse_args()

    sc = load_scorer(a.scorer)
    emap = dict(sc.ENGINES)
    if a.ask_as_published:
        emap['sglang'] = ('sglang', 'asked as itself')
    rows = sc.build_rows(emap)
    wanted = set(a.engines.split(','))
    pts = [r for r in rows if not r['unscored'] and r['engine'] and r['hardware'] and r['model']
           and r['engine_published'] in wanted and r['load_kind'] == 'concurrency'
           and r['metrics'].get('ttft_mean') and r['metrics'].get('tpot_mean')
           and '--max-num-seqs' not in r['opts']]          # static batches fix the engine: not a planner question
    sweeps = defaultdict(dict)
    for r in pts:
        sweeps[sweep_key(r)][(r['tp'], int(r['load']))] = (r['metrics']['ttft_mean'], r['metrics']['tpot_mean'])
    # only sweeps that measured more than one tensor-parallel degree give the planner a choice to check
    pts = [r for r in pts if len({tp for tp, _ in sweeps[sweep_key(r)]}) > 1]
    if not pts:
        raise SystemExit('no sweep with more than one tensor-parallel degree for these engines')

    def one(r):
        opts = {k: v for k, v in r['opts'].items() if k not in ('--gpus', '--tensor-parallel')}
        return r, ask(a.llmplan, r, opts, a.timeout)

    with ThreadPoolExecutor(a.jobs) as ex:
        results = list(ex.map(one, pts))

    lim = 1 + a.noise
    out, tally = [], defaultdict(lambda: defaultdict(int))
    for r, res in results:
        sw, conc = sweeps[sweep_key(r)], int(r['load'])
        t_ttft, t_tpot = r['metrics']['ttft_mean'], r['metrics']['tpot_mean']
        meets = {k: v[0] <= t_ttft * lim and v[1] <= t_tpot * lim for k, v in sw.items()}
        fewest = min((tp * (conc // c) for (tp, c), ok in meets.items() if ok and c and conc % c == 0), default=None)
        rec = {'id': r['id'], 'engine': r['engine_published'], 'workload': r['workload'], 'model': r['model'],
               'hardware': r['hardware'], 'targets_ms': [t_ttft, t_tpot], 'fewest_measured_gpus': fewest}
        if 'error' in res:
            verdict = 'error'
            rec['error'] = res['error']
        else:
            s = res['serving']
            tp, inst = s.get('tensor_parallel'), s.get('instances')
            rec.update(plan_tp=tp, plan_instances=inst, plan_gpus=s.get('gpus'), plan_meets=s.get('meets_targets'))
            if not s.get('meets_targets'):
                verdict = 'none'
            elif not inst or conc % inst:
                verdict = 'unmeasured'
            else:
                key = (tp, conc // inst)
                verdict = 'unmeasured' if key not in sw else ('met' if meets[key] else 'missed')
                if key in sw:
                    rec['measured_ms'] = list(sw[key])
            if fewest and s.get('gpus') and s.get('meets_targets'):
                rec['vs_fewest'] = 'fewer' if s['gpus'] < fewest else ('same' if s['gpus'] == fewest else 'more')
                tally[r['engine_published']]['gpus_' + rec['vs_fewest']] += 1
        rec['verdict'] = verdict
        tally[r['engine_published']][verdict] += 1
        tally[r['engine_published']]['points'] += 1
        out.append(rec)

    cols = ('points', 'met', 'missed', 'unmeasured', 'none', 'error', 'gpus_fewer', 'gpus_same', 'gpus_more')
    print(f"{'engine (published)':20s}" + ''.join(f'{c:>11s}' for c in cols))
    total = defaultdict(int)
    for e in sorted(tally):
        print(f'{e:20s}' + ''.join(f'{tally[e][c]:11d}' for c in cols))
        for c in cols:
            total[c] += tally[e][c]
    print(f"{'all':20s}" + ''.join(f'{total[c]:11d}' for c in cols))
    checked = total['met'] + total['missed']
    share = f'{100 * total["met"] / checked:.1f}%' if checked else '-'
    print(f'\nanswers the sweep measured: {checked}; meeting the targets there: {total["met"]} ({share}); '
          f'noise allowance {100 * a.noise:g}%')
    missed = sorted((o for o in out if o['verdict'] == 'missed'),
                    key=lambda o: -max(o['measured_ms'][0] / o['targets_ms'][0], o['measured_ms'][1] / o['targets_ms'][1]))
    for o in missed[:10]:
        print(f"  missed {o['id']}: {o['workload']} {o['model']} on {o['hardware']}: plan tp{o['plan_tp']} x"
              f"{o['plan_instances']}; measured TTFT {o['measured_ms'][0]:.0f} / {o['targets_ms'][0]:.0f} ms, "
              f"TPOT {o['measured_ms'][1]:.1f} / {o['targets_ms'][1]:.1f} ms")
    if a.json:
        with open(a.json, 'w') as f:
            json.dump(out, f, indent=1)
    return 0


if __name__ == '__main__':
    sys.exit(main())
