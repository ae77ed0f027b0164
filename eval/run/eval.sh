#!/usr/bin/env bash
# eval.sh reproduces the `mbench run` and `mbench compare` figures of
# docs/eval/run.md on github.com/pelletier/go-toml/v2's ./benchmark suite:
#
#   1. two runs of `go test -bench . -count 10` (the baseline), compared by
#      benchstat and by mbench compare (A/A: same binary, same machine);
#   2. a long reference: mbench run -criterion static, 10 forks, taken in
#      chunks interleaved with the runs below;
#   3. mbench run with each criterion: wall time, and each benchmark's mean
#      against the reference (fraction within 1%, 3%, 5%);
#   4. five A/A trials: pairs of default mbench runs compared with mbench compare.
#
# usage: eval/run/eval.sh OUTDIR
# Everything runs one after the other; on a 2-core VM it takes about 40 minutes.
# Keep the machine otherwise idle: the figures are about this machine's noise.
set -euo pipefail
out=${1:?usage: eval.sh OUTDIR}
repo=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)
scratch=${SCRATCH:-$(mktemp -d)}
version=${VERSION:-v2.4.3}

(cd "$repo" && go build -o "$out/mbench" ./cmd/mbench && go build -o "$out/benchstat" golang.org/x/perf/cmd/benchstat)
src=$("$repo/eval/fetch-module.sh" "$scratch" github.com/pelletier/go-toml/v2 "$version")
cd "$src"
mb="$out/mbench"
db="$out/mbench.db"

timed() { # timed NAME CMD... : runs CMD, records its wall time in NAME.time
  local name=$1; shift
  local t0=$(date +%s.%N)
  "$@"
  echo "$(date +%s.%N) - $t0" | bc > "$out/$name.time"
}

# 1. the go test baseline
if [ ! -f "$out/gotest-2.txt" ]; then
  for i in 1 2; do
    echo "go test run $i" >&2
    timed "gotest-$i" sh -c "go test -run '^\$' -bench . -count 10 ./benchmark > '$out/gotest-$i.txt'"
  done
fi

# This VM drifts: in one 7-minute run all benchmarks slowed by 11% and
# stayed there. A reference taken at one time and a candidate at another
# would measure the drift, not the method. So the reference is taken in five
# chunks of 2 forks each (static: 5 warm-up + 10 measured 100ms iterations),
# interleaved with the candidate runs, and pooled into ref.json: its 10 forks
# span the whole period the candidates ran in.
refchunk() { # refchunk I
  [ -f "$out/ref-$1.json" ] && return
  echo "reference chunk $1" >&2
  timed "ref-$1" "$mb" run -db "$db" -label "ref-$1" -criterion static -iter 100ms -wi-min 5 -wi-max 5 -mi 10 \
    -f-min 2 -f-max 2 -seed "$1" -json "$out/ref-$1.json" ./benchmark > "$out/ref-$1.summary"
}
crit() { # crit NAME: one run with the default configuration and criterion NAME
  [ -f "$out/crit-$1.json" ] && return
  echo "criterion $1" >&2
  timed "crit-$1" "$mb" run -db "$db" -label "crit-$1" -criterion "$1" -json "$out/crit-$1.json" ./benchmark > "$out/crit-$1.summary"
}
aa() { # aa I: an A/A trial, two default runs one after the other
  local seed=0
  for side in a b; do
    seed=$((seed + 1))
    [ -f "$out/aa-$1-$side.json" ] && continue
    echo "A/A trial $1, side $side" >&2
    timed "aa-$1-$side" "$mb" run -db "$db" -label "aa-$1-$side" -seed "$1$seed" -json "$out/aa-$1-$side.json" ./benchmark > "$out/aa-$1-$side.summary"
  done
}
refchunk 1; crit cv; crit rciw
refchunk 2; crit kld; aa 1
refchunk 3; aa 2; aa 3
refchunk 4; aa 4; aa 5
refchunk 5

# Pool the chunks: keep one run record, and make each chunk's suite runs
# distinct (chunk 3's suite run 1 becomes 301) so that forks stay apart.
{
  head -n 1 "$out/ref-1.json"
  for i in 1 2 3 4 5; do
    tail -n +2 "$out/ref-$i.json" | sed "s/\"suite\":\([0-9]*\)/\"suite\":${i}0\1/"
  done
} > "$out/ref.json"
cat "$out"/ref-[1-5].time | awk '{ s += $1 } END { print s }' > "$out/ref.time"

"$repo/eval/run/report.sh" "$out"
