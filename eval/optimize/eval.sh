#!/usr/bin/env bash
# eval.sh reproduces the `mbench optimize` figures of docs/eval/optimize.md:
#
#   1. full runs (`mbench run -levels 3,5,5 -iter 100ms`) of go-toml v2 at three
#      released versions (./benchmark) and of zap v1.27.0 (a subset of its root
#      package's benchmarks, those that are not sub-benchmark families);
#   2. `mbench optimize` of every full run with each of the five metrics at
#      threshold 1%: time saved, change rates, the two baselines;
#   3. `mbench optimize -replay` over the three go-toml versions (plan made on
#      the oldest), each metric: detections, FPR and FNR;
#   4. the newest go-toml version run with its own plan, and with the plan as
#      the upper bound of the cv criterion: wall time and change rate against
#      the full run;
#   5. the replay again on full runs of the three go-toml versions taken
#      interleaved (eval/duet/dueteval levels: every version's forks of a suite
#      run in one random order), so that the machine's drift over the minutes
#      between separate runs does not count as a change; plans with and
#      without -min-forks 3.
#
# usage: eval/optimize/eval.sh OUTDIR
# About 30 minutes on a 2-core VM. Keep the machine otherwise idle. Steps whose
# output exists are skipped, so an interrupted evaluation can be resumed.
set -euo pipefail
out=${1:?usage: eval.sh OUTDIR}
repo=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)
scratch=${SCRATCH:-$(mktemp -d)}
mkdir -p "$scratch"
gotoml=${GOTOML_VERSIONS:-"v2.2.4 v2.3.0 v2.4.3"}
zapv=${ZAP_VERSION:-v1.27.0}
zapbench='^Benchmark(BoolsArrayMarshaler|BoolsReflect|NoContext|[A-Za-z0-9]+Field|AddCaller.*|5With.*|10Fields|100Fields|SugarSingleStrArg|LnSugarSingleStrArg)$'
levels=3,5,5
iter=100ms
metrics="cv rmad rciw-mean rciw-t rciw-median"

(cd "$repo" && go build -o "$out/mbench" ./cmd/mbench)
mb="$out/mbench"
db="$out/optimize.db"

timed() { # timed NAME CMD... : runs CMD, records its wall time in NAME.time
  local name=$1; shift
  local t0=$(date +%s.%N)
  "$@"
  echo "$(date +%s.%N) - $t0" | bc > "$out/$name.time"
}

full() { # full LABEL DIR PKG [BENCH]
  local label=$1 dir=$2 pkg=$3 bench=${4:-.}
  [ -f "$out/$label.summary" ] && return
  echo "full run $label" >&2
  (cd "$dir" && timed "$label" "$mb" run -db "$db" -label "$label" -levels "$levels" -iter "$iter" -bench "$bench" \
    -json "$out/$label.json" "$pkg" > "$out/$label.summary.tmp")
  mv "$out/$label.summary.tmp" "$out/$label.summary"
}

# 1. full runs
labels=()
for v in $gotoml; do
  src=$("$repo/eval/fetch-module.sh" "$scratch" github.com/pelletier/go-toml/v2 "$v")
  full "gotoml-$v" "$src" ./benchmark
  labels+=("gotoml-$v")
done
src=$("$repo/eval/fetch-module.sh" "$scratch" go.uber.org/zap "$zapv")
full "zap-$zapv" "$src" . "$zapbench"

# 2. plans, every full run × metric (-min-forks 1: the paper's text; step 5
#    compares it with the default, 3)
for l in "${labels[@]}" "zap-$zapv"; do
  for m in $metrics; do
    [ -f "$out/optimize-$l-$m.txt" ] && continue
    timed "optimize-$l-$m" "$mb" optimize -db "$db" -metric "$m" -min-forks 1 -o "$out/plan-$l-$m.json" "$l" > "$out/optimize-$l-$m.txt"
    "$mb" optimize -db "$db" -metric "$m" -min-forks 1 -o /dev/null -format json "$l" > "$out/optimize-$l-$m.json"
  done
done

# 3. replay over the go-toml versions, plan from the oldest
for m in $metrics; do
  [ -f "$out/replay-$m.txt" ] && continue
  "$mb" optimize -db "$db" -replay -plan "$out/plan-${labels[0]}-$m.json" "${labels[@]}" > "$out/replay-$m.txt"
  "$mb" optimize -db "$db" -replay -format json -plan "$out/plan-${labels[0]}-$m.json" "${labels[@]}" > "$out/replay-$m.json"
done

# 4. the newest go-toml with its plan, alone and bounding the cv criterion
newest=${labels[${#labels[@]}-1]}
src="$scratch/v2-${newest#gotoml-}"
for mode in plan bounded; do
  [ -f "$out/$mode.summary" ] && continue
  extra=()
  [ "$mode" = bounded ] && extra=(-criterion cv)
  (cd "$src" && timed "$mode" "$mb" run -db "$db" -label "$newest-$mode" -plan "$out/plan-$newest-rciw-mean.json" "${extra[@]}" \
    -json "$out/$mode.json" ./benchmark > "$out/$mode.summary")
done

# 5. interleaved full runs of the go-toml versions, and the replay on them
(cd "$repo/eval" && go build -o "$out/dueteval" ./duet/dueteval)
args=()
for v in $gotoml; do args+=("gotoml-$v=$scratch/v2-$v"); done
if [ ! -f "$out/interleaved.done" ]; then
  echo "interleaved full runs" >&2
  timed interleaved "$out/dueteval" levels -pkg ./benchmark -levels "$levels" -iter "$iter" -o "$out/interleaved" "${args[@]}"
  touch "$out/interleaved.done"
fi
files=()
for v in $gotoml; do files+=("gotoml-$v=$out/interleaved-gotoml-$v.json"); done
for mf in 1 3; do
  for m in $metrics; do
    [ -f "$out/replay-interleaved-mf$mf-$m.json" ] && continue
    "$mb" optimize -metric "$m" -min-forks "$mf" -o "$out/plan-interleaved-mf$mf-$m.json" "${files[0]}" > "$out/optimize-interleaved-mf$mf-$m.txt"
    "$mb" optimize -replay -format json -plan "$out/plan-interleaved-mf$mf-$m.json" "${files[@]}" > "$out/replay-interleaved-mf$mf-$m.json"
  done
done

"$repo/eval/optimize/report.sh" "$out"
