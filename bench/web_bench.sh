#!/usr/bin/env bash
# Load test of `llmplan serve` with wrk (Debian's `wrk`) on 127.0.0.1, for a bounded time:
# requests/s, latency percentiles, errors, and the server's resident memory before and after.
# Usage: bench/web_bench.sh [LLMPLAN] [SECONDS] [CONNECTIONS]   (defaults: build/llmplan 10 8)
# wrk and the server share the machine: the load average (uptime) is printed beside each run, since
# other work on the same cores lowers requests/s.
set -euo pipefail
LLMPLAN=${1:-build/llmplan}
SECS=${2:-10}
CONNS=${3:-8}
command -v wrk > /dev/null || { echo "wrk not found: apt-get install wrk" >&2; exit 2; }

out=$(mktemp)
"$LLMPLAN" serve --port 0 > "$out" 2>&1 &
pid=$!
trap 'kill $pid 2> /dev/null; rm -f "$out"' EXIT
for _ in $(seq 50); do grep -q "serving" "$out" && break; sleep 0.1; done
base=$(grep -o 'http://127.0.0.1:[0-9]*' "$out")
rss() { awk '/VmRSS/ {print $2 * 1024}' "/proc/$pid/status"; }

estimate="$base/api/estimate?model=Qwen/Qwen2.5-7B-Instruct&ctx=8192"
plan="$base/api/plan?model=Qwen/Qwen2.5-7B-Instruct&ctx=8192&weights=q4_k_m"
# Warm-up: the catalog entry and the hardware tables are parsed on first use, and each worker
# thread's malloc arena grows to its working size during the first seconds of load (measured: 15.2 ->
# 16.0 MB on the estimate route, then flat); the measured runs start after that.
rss_cold=$(rss)
wrk -t2 -c"$CONNS" -d2s "$estimate" > /dev/null
wrk -t2 -c"$CONNS" -d2s "$plan" > /dev/null
echo "server RSS at start ${rss_cold} bytes, after a 2 s warm-up of each route $(rss) bytes"

run() { # name url seconds
    local before after
    before=$(rss)
    echo "== $1: wrk -t2 -c$CONNS -d${3}s --latency $2"
    echo "load before: $(uptime)"
    wrk -t2 -c"$CONNS" -d"${3}s" --latency "$2" | tee /tmp/wrk.$$.txt
    after=$(rss)
    echo "load after:  $(uptime)"
    echo "server RSS before ${before} bytes, after ${after} bytes"
    grep -q "Non-2xx\|Socket errors" /tmp/wrk.$$.txt && echo "ERRORS above" || echo "errors: 0"
    rm -f /tmp/wrk.$$.txt
}
run estimate "$estimate" "$SECS"
run plan "$plan" "$SECS"
