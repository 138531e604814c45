#!/usr/bin/env bash
# The long fuzz run before a release (outside CI): every libFuzzer target of the fuzz preset for
# MINUTES minutes each (default 10), from a copy of its seed corpus, with ASan + UBSan and every
# sanitizer finding fatal. Prints one line a target (executions, corpus growth, findings) and a
# summary; exits 1 when any target found something (its reproducer is kept under the work folder
# and printed in base64, ready to be added to tests/fuzz/corpus/<target>/ as a regression seed).
#   usage: bench/fuzz_long.sh [MINUTES] [TARGET...]
#   needs: clang and libclang-rt-14-dev (the fuzz preset: `cmake --preset fuzz && cmake --build --preset fuzz`)
set -euo pipefail
cd "$(dirname "$0")/.."
minutes=${1:-10}
shift || true
build=build-fuzz
if [ ! -d "$build" ]; then
  cmake --preset fuzz >/dev/null
fi
cmake --build --preset fuzz -j"$(nproc)" >/dev/null
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  for src in tests/fuzz/fuzz_*.cpp; do
    targets+=("$(basename "$src" .cpp)")
  done
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/llmplan-fuzz-long.XXXXXX")
echo "llmplan fuzz_long: ${#targets[@]} targets x ${minutes} min, $(date -u +%Y-%m-%dT%H:%MZ), $(git rev-parse --short HEAD), work in $work"
printf '%-22s %12s %10s %10s %s\n' target executions "corpus in" "corpus out" findings
failed=0
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
for t in "${targets[@]}"; do
  bin="$build/tests/$t"
  [ -x "$bin" ] || { echo "$t: not built ($bin)" >&2; failed=1; continue; }
  mkdir -p "$work/$t/corpus" "$work/$t/artifacts"
  cp -R "tests/fuzz/corpus/$t/." "$work/$t/corpus/" 2>/dev/null || true
  seeds=$(find "$work/$t/corpus" -type f | wc -l)
  status=0
  "$bin" -max_total_time=$((minutes * 60)) -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
    -artifact_prefix="$work/$t/artifacts/" "$work/$t/corpus" >"$work/$t/log" 2>&1 || status=$?
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$work/$t/log" | grep -o '[0-9]*$' || echo "?")
  grown=$(find "$work/$t/corpus" -type f | wc -l)
  reports=$(grep -c -E "runtime error:|ERROR: (Address|Leak|Undefined)Sanitizer" "$work/$t/log" || true)
  found="none"
  if [ "$status" -ne 0 ] || [ "$reports" -ne 0 ] || [ -n "$(ls -A "$work/$t/artifacts")" ]; then
    found="exit $status, $reports sanitizer reports, artifacts: $(ls "$work/$t/artifacts" | tr '\n' ' ')"
    failed=1
    grep -m5 -E "runtime error:|ERROR:" "$work/$t/log" >&2 || true
    for a in "$work/$t/artifacts"/*; do
      [ -e "$a" ] && { echo "  $a: $(base64 -w0 "$a")" >&2; }
    done
  fi
  printf '%-22s %12s %10s %10s %s\n' "$t" "$execs" "$seeds" "$grown" "$found"
done
[ "$failed" -eq 0 ] && echo "no findings" || echo "FINDINGS: see above and $work"
exit "$failed"
