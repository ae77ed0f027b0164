#!/usr/bin/env bash
# gotest.sh fetches github.com/pelletier/go-toml/v2 from the module proxy into a
# scratch directory and records N runs of `go test -bench . -count 10` of its ./benchmark
# package, the baseline that mbench compare and mbench run are evaluated against.
#
# usage: eval/run/gotest.sh OUTDIR [RUNS] [VERSION]
set -euo pipefail
out=${1:?usage: gotest.sh OUTDIR [RUNS] [VERSION]}
runs=${2:-3}
version=${3:-v2.4.3}
mkdir -p "$out"
out=$(cd "$out" && pwd)
scratch=${SCRATCH:-$(mktemp -d)}
repo=$(cd "$(dirname "$0")/../.." && pwd)
src=$("$repo/eval/fetch-module.sh" "$scratch" github.com/pelletier/go-toml/v2 "$version")
cd "$src"
go test -c -o "$out/gotoml.test" ./benchmark
cd benchmark
for i in $(seq 1 "$runs"); do
  echo "run $i of $runs" >&2
  /usr/bin/time -f "%e" -o "$out/gotest-$i.time" \
    go test -run '^$' -bench . -count 10 >"$out/gotest-$i.txt"
done
