#!/usr/bin/env python3
"""Break the serving scorer's misses down by engine, GPU, model, metric and load level.

    python3 ../shared/bench/score_serving.py --llmplan build/llmplan --split dev --json r.json
    python3 bench/serving_breakdown.py r.json [--by engine,metric] [--min 20]

Reads the --json file score_serving.py writes (one record per compared number) and prints, for each
group, the answered cases, the median |error|, the median signed error (predicted / measured - 1) and the
share optimistic by more than 25% (a throughput read > +25%, a latency read < -25%), worst groups first.
Standard library only.
"""
import argparse
import json
import re
import statistics
from collections import defaultdict


def load_level(q):
    m = re.search(r'--concurrency (\d+)', q or '')
    if m:
        n = int(m.group(1))
        for hi, name in ((1, 'c1'), (4, 'c2-4'), (16, 'c5-16'), (64, 'c17-64'), (256, 'c65-256')):
            if n <= hi:
                return name
        return 'c>256'
    m = re.search(r'--request-rate (\S+)', q or '')
    return 'rate ' + m.group(1) if m else '?'


def lengths(q):
    i = re.search(r'--input-len (\d+)', q or '')
    o = re.search(r'--output-len (\d+)', q or '')
    if not (i and o):
        return '?'
    i, o = int(i.group(1)), int(o.group(1))
    return ('in<=512' if i <= 512 else 'in<=2k' if i <= 2048 else 'in>2k') + '/' + \
        ('out<=256' if o <= 256 else 'out<=2k' if o <= 2048 else 'out>2k')


def weights(q):
    m = re.search(r'--weights (\S+)', q or '')
    return m.group(1) if m else 'native'


KEYS = {
    'engine': lambda c: c['engine_published'],
    'source': lambda c: c['source'].replace('serving_', ''),
    'metric': lambda c: c['metric'],
    'gpu': lambda c: c['hardware'] or '?',
    'model': lambda c: c['model'] or '?',
    'tp': lambda c: f"tp{c['tp']}",
    'load': lambda c: load_level(c.get('question')),
    'lengths': lambda c: lengths(c.get('question')),
    'weights': lambda c: weights(c.get('question')),
    'binding': lambda c: c.get('binding') or '?',
}


def optimistic(c):
    e = c['error']
    return e > 0.25 if c['metric'] in ('output_tps', 'total_tps') else e < -0.25


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('json')
    ap.add_argument('--by', default='engine,metric', help='comma-separated keys: ' + ', '.join(KEYS))
    ap.add_argument('--min', type=int, default=10, help='smallest group printed')
    ap.add_argument('--sort', default='optim', choices=('optim', 'med', 'n', 'name'))
    a = ap.parse_args()
    cases = [c for c in json.load(open(a.json)) if c.get('status') == 'answered']
    keys = a.by.split(',')
    for k in keys:
        if k not in KEYS:
            raise SystemExit(f'--by: unknown key {k} (one of {", ".join(KEYS)})')
    groups = defaultdict(list)
    for c in cases:
        groups[tuple(KEYS[k](c) for k in keys)].append(c)
    rows = []
    for g, cs in groups.items():
        if len(cs) < a.min:
            continue
        e = [c['error'] for c in cs]
        rows.append((g, len(cs), statistics.median(abs(x) for x in e), statistics.median(e),
                     sum(optimistic(c) for c in cs) / len(cs)))
    order = {'optim': lambda r: -r[4], 'med': lambda r: -r[2], 'n': lambda r: -r[1], 'name': lambda r: r[0]}
    rows.sort(key=order[a.sort])
    w = max([len(' | '.join(r[0])) for r in rows] + [10])
    print(f"{' | '.join(keys):<{w}}  {'n':>6} {'med|e|':>7} {'med e':>7} {'optim25':>7}")
    for g, n, med, sgn, opt in rows:
        print(f"{' | '.join(g):<{w}}  {n:>6} {med:>7.1%} {sgn:>+7.1%} {opt:>7.1%}")
    e = [c['error'] for c in cases]
    print(f"{'all':<{w}}  {len(cases):>6} {statistics.median(abs(x) for x in e):>7.1%} "
          f"{statistics.median(e):>+7.1%} {sum(map(optimistic, cases)) / max(1, len(cases)):>7.1%}")


if __name__ == '__main__':
    main()
