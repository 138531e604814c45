#!/usr/bin/env bash
# Runs one libFuzzer target for a bounded time on a copy of its seed corpus (the committed corpus
# is never modified). Exits non-zero on any finding (crash, leak, timeout, OOM, and any sanitizer
# report: a "runtime error:" line of UBSan fails the run even if a build let it recover).
#   usage: run_fuzzer.sh BINARY CORPUS_DIR
#   env:   FUZZ_SECONDS (default 60)
set -euo pipefail
if [ $# -ne 2 ]; then
  echo "usage: $0 BINARY CORPUS_DIR" >&2
  exit 2
fi
bin=$1
corpus=$2
seconds=${FUZZ_SECONDS:-60}
work=$(mktemp -d "${TMPDIR:-/tmp}/llmplan-fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/corpus" "$work/artifacts"
if [ -d "$corpus" ]; then
  cp -R "$corpus/." "$work/corpus/"
fi
# -rss_limit_mb: the readers must bound every allocation; -timeout: seconds per input.
status=0
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
"$bin" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
  -artifact_prefix="$work/artifacts/" "$work/corpus" >"$work/log" 2>&1 || status=$?
tail -n 200 "$work/log"
reports=$(grep -c -E "runtime error:|ERROR: (Address|Leak|Undefined)Sanitizer" "$work/log" || true)
if [ -n "$(ls -A "$work/artifacts")" ] || [ "$status" -ne 0 ] || [ "$reports" -ne 0 ]; then
  echo "fuzzer $(basename "$bin") found a problem (exit $status, $reports sanitizer reports); artifacts:" >&2
  for a in "$work/artifacts"/*; do
    [ -e "$a" ] || continue
    echo "  $a ($(stat -c %s "$a") bytes), base64:" >&2
    base64 -w0 "$a" >&2 || true
    echo >&2
  done
  exit 1
fi
echo "fuzzer $(basename "$bin"): no findings in ${seconds}s"
