#!/bin/sh
# Compiler launcher that writes each compile's CPU time (user + system seconds) and its output file to
# $LLMPLAN_COMPILE_LOG, so that a build's serial compile cost can be summed on a shared machine where
# wall time says little (bench/README.md, build time). Usage:
#   LLMPLAN_COMPILE_LOG=/tmp/c.log cmake -B /tmp/b -G Ninja -DCMAKE_CXX_COMPILER_LAUNCHER=$PWD/bench/compile_cpu.sh
#   cmake --build /tmp/b --target llmplan_core
#   awk '{s += $1 + $2} END {print s " s CPU, " NR " compiles"}' /tmp/c.log
log=${LLMPLAN_COMPILE_LOG:-/dev/null}
out=$(printf '%s\n' "$@" | awk 'p {print; exit} $0 == "-o" {p = 1}')
exec /usr/bin/time -a -o "$log" -f "%U %S $out" "$@"
