#!/usr/bin/env bash
# GGUF writer self-check (needs no npm): write each model/type, read it back with
# `llmplan inspect FILE.gguf --json` and compare n_params / n_layer / n_vocab with `inspect` of the
# patched config dir, and weights_bytes with the writer's own tensor-data size (minus final padding).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"; root="$(cd "$here/../.." && pwd)"
LLMPLAN="${LLMPLAN:-$root/build/llmplan}"; WORK="${WORK:-/tmp/llmplan-harness-check}"
fail=0
for m in ${MODELS:-HuggingFaceTB--SmolLM2-135M Qwen--Qwen2.5-0.5B-Instruct meta-llama--Llama-3.2-1B-Instruct}; do
  for q in f16 q8_0 q4_0; do
    python3 "$here/make_gguf.py" "$root/data/models/$m" "$WORK/$m" --type "$q" >/dev/null
    a="$("$LLMPLAN" inspect "$WORK/$m/model-$q.gguf" --json)"; b="$("$LLMPLAN" inspect "$WORK/$m/config" --json)"
    r="$(python3 -c '
import json,sys
a=json.loads(sys.argv[1])["model"]; b=json.loads(sys.argv[2])["model"]
bad=[k for k in ("n_params","n_layer","n_embd","n_head","n_head_kv","n_vocab") if a[k]!=b[k]]
print(("FAIL "+",".join("%s %s!=%s"%(k,a[k],b[k]) for k in bad)) if bad else "ok n_params=%d weights_bytes=%d"%(a["n_params"],a["weights_bytes"]))' "$a" "$b")"
    echo "$m $q: $r"; case "$r" in FAIL*) fail=1;; esac
  done
done
exit $fail
