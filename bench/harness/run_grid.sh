#!/usr/bin/env bash
# Run real llama.cpp (node-llama-cpp, CPU) on a small grid of synthetic GGUF models and compare
# each case with `llmplan estimate`. Bounded: each case has a 90 s timeout, the whole grid ~5 min.
# usage: bench/harness/run_grid.sh [results.json]
#   env: MODELS="org--name ..." (data/models dirs), QUANTS, CTXS, LLMPLAN (path to the CLI), WORK (scratch dir)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="${1:-$here/results/grid.json}"
MODELS="${MODELS:-HuggingFaceTB--SmolLM2-135M Qwen--Qwen2.5-0.5B-Instruct}"
QUANTS="${QUANTS:-q8_0 q4_0}"
CTXS="${CTXS:-512 2048}"
BATCH="${BATCH:-512}"  # n_batch = n_ubatch (node-llama-cpp sets both from batchSize)
LLMPLAN="${LLMPLAN:-$root/build/llmplan}"
WORK="${WORK:-/tmp/llmplan-harness}"
[ -d "$here/node_modules/node-llama-cpp" ] || (cd "$here" && npm install --no-audit --no-fund --ignore-scripts)
mkdir -p "$WORK" "$(dirname "$out")"
cases="$WORK/cases.jsonl"; : >"$cases"
for m in $MODELS; do
  for q in $QUANTS; do
    python3 "$here/make_gguf.py" "$root/data/models/$m" "$WORK/$m" --type "$q" >/dev/null
    gguf="$WORK/$m/model-$q.gguf"
    for c in $CTXS; do
      for fa in off on; do
        echo "case $m $q ctx=$c fa=$fa" >&2
        meas="$(cd "$here" && timeout 90 node measure.mjs --model "$gguf" --ctx "$c" --batch "$BATCH" --fa "$fa" --mmap off 2>/dev/null | tail -n 1 || echo '{"error":"measure failed"}')"
        est="$("$LLMPLAN" estimate "$WORK/$m/config" --engine llama.cpp --device cpu --weights "$q" --ctx "$c" \
               --n-batch "$BATCH" --ubatch "$BATCH" --flash-attn "$fa" --mmap off --json 2>/dev/null || echo '{"error":"estimate failed"}')"
        est_gguf="$("$LLMPLAN" estimate "$gguf" --engine llama.cpp --device cpu --ctx "$c" \
               --n-batch "$BATCH" --ubatch "$BATCH" --flash-attn "$fa" --mmap off --json 2>/dev/null || echo '{"error":"estimate failed"}')"
        printf '{"model":"%s","quant":"%s","ctx":%s,"flash_attn":"%s","measured":%s,"estimate":%s,"estimate_gguf":%s}\n' \
          "$m" "$q" "$c" "$fa" "$meas" "$est" "$est_gguf" >>"$cases"
      done
    done
  done
done
python3 "$here/compare.py" "$cases" "$out"
