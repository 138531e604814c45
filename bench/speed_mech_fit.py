#!/usr/bin/env python3
"""Fit of the llama.cpp decode constants in src/plan/speed.cpp (decode_efficiency_table, decode_overhead_table).

Data: ../shared/speed_truth/xiongjiedai_llama3.json (one-GPU rows) and llamacpp_apple_silicon_4167.json,
batch-1 decode (tg) cases. Model: step = (weights + KV at the mean context) / (share x peak bandwidth)
+ n_layer x per-layer overhead; shares per memory class (HBM, GDDR, Apple LPDDR), overhead per backend
(CUDA, Metal). Least squares on log(predicted / measured), Nelder-Mead (bench/speed_fit.py).
Weight sizes are the ones the sources print (GiB). Run from the repository root with ../shared present.
"""
import csv, json, math, os, statistics, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from speed_fit import nelder_mead
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
T = os.path.join(ROOT, '..', 'shared', 'speed_truth') + '/'
gpus={r['name']:r for r in csv.DictReader(open(os.path.join(ROOT, 'data/hardware/gpus.csv')))}
HWMAP={'NVIDIA GeForce RTX 3070':None,'NVIDIA GeForce RTX 3080':'GeForce RTX 3080 (10GB)','NVIDIA GeForce RTX 3090':'GeForce RTX 3090',
'NVIDIA GeForce RTX 4080':'GeForce RTX 4080 (16GB)','NVIDIA GeForce RTX 4090':'GeForce RTX 4090','NVIDIA RTX A6000':'RTX A6000',
'NVIDIA RTX 6000 Ada Generation':'RTX 6000 Ada Generation','NVIDIA A40':'A40','NVIDIA L40S':'L40S','NVIDIA A100 80GB PCIe':'A100 PCIe 80GB',
'NVIDIA A100-SXM4-80GB':'A100 SXM4 80GB','NVIDIA H100 PCIe':'H100 PCIe 80GB','NVIDIA H100 80GB HBM3':'H100 SXM 80GB',
'Apple M1':'Apple M1','Apple M1 Max':'Apple M1 Max','Apple M2 Ultra':'Apple M2 Ultra','Apple M3 Max':'Apple M3 Max'}
GiB=1024**3
cases=[]
d=json.load(open(T+'xiongjiedai_llama3.json'))
for c in d['cases']:
    if c['gpu_count']!=1: continue
    name=HWMAP.get(c['hardware_as_published'])
    if not name: continue
    g=gpus[name]
    size=float(c['size'].split()[0])*GiB
    L=32 if '8B' in c['hf_id'] else 80
    P=8.03e9 if L==32 else 70.6e9
    n=c['prompt_tokens'] or c['gen_tokens']
    cases.append(dict(src='x',hw=name,mem=g['memory_type'] or ('HBM' if 'H100' in name else ''),apple=name.startswith('Apple'),bw=float(g['memory_bandwidth_gb_s'])*1e9,
       W=size,L=L,P=P,q=c['quant'],kind=c['kind'],n=n,meas=c['measured']['tokens_per_s'],kvrow=L*8*128*2*2, g=g))
d=json.load(open(T+'llamacpp_apple_silicon_4167.json'))
APPLE={'M1':'Apple M1','M1 Pro':'Apple M1 Pro','M1 Max':'Apple M1 Max','M1 Ultra':'Apple M1 Ultra','M2':'Apple M2','M2 Pro':'Apple M2 Pro','M2 Max':'Apple M2 Max','M2 Ultra':'Apple M2 Ultra','M3':'Apple M3','M3 Pro':'Apple M3 Pro','M3 Max':'Apple M3 Max','M3 Ultra':'Apple M3 Ultra','M4':'Apple M4','M4 Pro':'Apple M4 Pro','M4 Max':'Apple M4 Max'}
SZ={'F16':12.55,'Q8_0':6.67,'Q4_0':3.56}
for c in d['cases']:
    bw=float(c['bandwidth_as_published'].split()[0])*1e9
    cases.append(dict(src='a',hw=c['chip']+' '+str(c['gpu_cores']),mem='LPDDR',apple=True,bw=bw,W=SZ[c['quant']]*GiB,L=32,P=6.74e9,q=c['quant'],kind=c['kind'],
       n=c['prompt_tokens'] or c['gen_tokens'],meas=c['measured']['tokens_per_s'],kvrow=32*32*128*2*2,cores=c['gpu_cores']))
dec=[c for c in cases if c['kind']=='decode']
def cls(c):
    if c['apple']: return 2
    return 0 if c['mem'].startswith('HBM') else 1
def pred(x,c):
    e=x[cls(c)]; tl=x[3] if not c['apple'] else x[4]
    ctx=c['n']/2
    t=(c['W']+c['kvrow']*ctx)/(e*c['bw'])+c['L']*tl*1e-3
    return 1/t
def loss(x):
    if min(x)<=0: return 1e9
    return sum(math.log(pred(x,c)/c['meas'])**2 for c in dec)
x=nelder_mead(loss,[0.7,0.85,0.8,0.08,0.15])
print('decode fit', [round(v,3) for v in x])
for grp in ['x','a']:
    errs=[pred(x,c)/c['meas']-1 for c in dec if c['src']==grp]
    print(grp, len(errs), 'median', round(statistics.median(abs(e) for e in errs),3), 'max', round(max(abs(e) for e in errs),3))
from collections import defaultdict
by=defaultdict(list)
for c in dec: by[(c['hw'],c['q'])].append(pred(x,c)/c['meas']-1)
for k,v in sorted(by.items()): print(k, round(statistics.median(v),3))
