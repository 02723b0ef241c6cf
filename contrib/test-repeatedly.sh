#!/usr/bin/env bash
# The README's test command, run N times from one fresh clone of this repository's HEAD, some runs with both
# cores kept busy by something else (issue 37: a newcomer's machine is often busy). One line per run goes to
# OUT/summary; each run's whole log to OUT/runK.log.
# Usage: contrib/test-repeatedly.sh [OUT (default /tmp/queued-test-runs)] [RUNS (default 5)] [LOADED (default "2 4")]
set -u
repo=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-/tmp/queued-test-runs}
runs=${2:-5}
loaded=" ${3:-2 4} "
clone="$out/clone"
rm -rf "$out" && mkdir -p "$out"
git clone -q "$repo" "$clone" && cd "$clone" || exit 1
git log --oneline -1 >"$out/commit"
for run in $(seq 1 "$runs"); do
  pids=()
  if [[ "$loaded" == *" $run "* ]]; then
    for _ in 1 2; do yes >/dev/null & pids+=($!); done
  fi
  start=$(date +%s)
  bash contrib/test.sh >"$out/run$run.log" 2>&1
  status=$?
  ((${#pids[@]})) && kill "${pids[@]}"
  passed=$(grep -oE "Test run with [0-9]+ tests.*" "$out/run$run.log" | tail -1)
  echo "run $run $([[ ${#pids[@]} -gt 0 ]] && echo loaded || echo idle): rc=$status $(($(date +%s) - start)) s: $passed" >>"$out/summary"
done
