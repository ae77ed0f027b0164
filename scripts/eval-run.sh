#!/usr/bin/env bash
# eval-run.sh reproduces the `mbench run` and `mbench compare` figures of
# docs/EVALUATION.md on github.com/pelletier/go-toml/v2's ./benchmark suite:
#
#   1. two runs of `go test -bench . -count 10` (the baseline), compared by
#      benchstat and by mbench compare (A/A: same binary, same machine);
#   2. a long reference run: mbench run -criterion static with a large
#      configuration;
#   3. mbench run with each criterion: wall time, and each benchmark's mean
#      against the reference (fraction within 1%, 3%, 5%);
#   4. A/A trials: pairs of default mbench runs compared with mbench compare.
#
# usage: scripts/eval-run.sh OUTDIR [AA_TRIALS]
# Everything runs one after the other; on a 2-core VM it takes about an hour.
# Keep the machine otherwise idle: the figures are about this machine's noise.
set -euo pipefail
out=${1:?usage: eval-run.sh OUTDIR [AA_TRIALS]}
trials=${2:-5}
repo=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)
scratch=${SCRATCH:-$(mktemp -d)}
version=${VERSION:-v2.4.3}

(cd "$repo" && go build -o "$out/mbench" ./cmd/mbench && go build -o "$out/benchstat" golang.org/x/perf/cmd/benchstat)
src=$("$repo/scripts/fetch-module.sh" "$scratch" github.com/pelletier/go-toml/v2 "$version")
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

# 2. the reference: static, 10 forks x (5 warm-up + 10 measured) x 100ms
if [ ! -f "$out/ref.json" ]; then
  echo "reference run" >&2
  timed ref "$mb" run -db "$db" -label ref -criterion static -wi-max 5 -mi 10 -f-min 10 -f-max 10 \
    -json "$out/ref.json" ./benchmark > "$out/ref.summary"
fi

# 3. each criterion with the defaults otherwise; the default criterion's run
#    doubles as the first run of the first A/A trial.
for crit in ${CRITERIA:-cv rciw kld}; do
  [ -f "$out/crit-$crit.json" ] && continue
  echo "criterion $crit" >&2
  timed "crit-$crit" "$mb" run -db "$db" -label "crit-$crit" -criterion "$crit" -json "$out/crit-$crit.json" ./benchmark > "$out/crit-$crit.summary"
done

# 4. A/A trials with the default criterion
for i in $(seq 1 "$trials"); do
  for side in a b; do
    f="$out/aa-$i-$side.json"
    [ -f "$f" ] && continue
    echo "A/A trial $i, side $side" >&2
    timed "aa-$i-$side" "$mb" run -db "$db" -label "aa-$i-$side" -json "$f" ./benchmark > "$out/aa-$i-$side.summary"
  done
done

"$repo/scripts/eval-report.sh" "$out"
