#!/usr/bin/env bash
# eval.sh reproduces docs/eval/scale-out.md: it measures the benchmark
# suite of github.com/pelletier/go-toml/v2 v2.2.4 (from the module proxy)
# on this one machine, then again split into 2, 4 and 8 shards run one
# after another, each split under its own label, and compares each
# split's gathered result with the one-machine run. A second one-machine
# run is the control: what two unsharded runs of this machine differ by.
#
#   single     mbench run, the whole suite                      into mbench.db
#   shards-2   mbench run -shard i/2, i = 1, 2                  into mbench.db
#   shards-4   mbench run -shard i/4, i = 1..4                  into mbench.db
#   shards-8   mbench run -shard i/8, each into its own file    shard-8-i.db,
#              as a CI job does, then mbench store copy of the eight files
#              into one store (the "gather" step, timed)
#   again      mbench run, the whole suite once more            into mbench.db
#
# It also times what every CI job pays before it measures: the module's
# download into an empty module cache, and the builds of mbench and of the
# module's test binaries with an empty build cache. eval/scaleout/tabulate
# prints the tables, including the cost of 1,000 benchmarks on 1, 8 and 64
# runners.
#
# usage: eval/scaleout/eval.sh OUTDIR
# It takes about 15 minutes on a 2-core VM; keep the machine otherwise idle.
set -euo pipefail
out=${1:?usage: eval.sh OUTDIR}
mkdir -p "$out"
out=$(cd "$out" && pwd)
repo=$(cd "$(dirname "$0")/../.." && pwd)
(cd "$repo" && go build -o "$out/mbench" ./cmd/mbench)
(cd "$repo/eval" && go build -o "$out/tabulate" ./scaleout/tabulate)
scratch=${SCRATCH:-$(mktemp -d)}
toml=$("$repo/eval/fetch-module.sh" "$scratch" github.com/pelletier/go-toml/v2 v2.2.4)

times="$out/times.tsv"
: >"$times"
# timed WHAT LABEL SHARD COMMAND...: run COMMAND, log its wall time.
timed() {
  local what=$1 label=$2 shard=$3 t0 t1
  shift 3
  t0=$(date +%s.%N)
  "$@"
  t1=$(date +%s.%N)
  awk -v w="$what" -v l="$label" -v s="$shard" -v a="$t0" -v b="$t1" 'BEGIN { printf "%s\t%s\t%s\t%.3f\n", w, l, s, b - a }' >>"$times"
}

# What a fresh CI job pays before measuring: the module's source (from the
# module proxy into an empty module cache, standing in for the checkout;
# go-toml v2 has no dependencies), then mbench and the module's test
# binaries built with one empty build cache, as in a new runner without
# a restored cache.
fresh="$scratch/fresh"
rm -rf "$fresh"
mkdir -p "$fresh"
(cd "$scratch" && timed fetch "" "" env GOMODCACHE="$fresh/mod" GOFLAGS=-modcacherw go mod download github.com/pelletier/go-toml/v2@v2.2.4)
(cd "$repo" && timed install "" "" env GOCACHE="$fresh/cache" go build -o "$fresh/mbench" ./cmd/mbench)
(cd "$toml" && timed build "" "" env GOCACHE="$fresh/cache" go test -c -o "$fresh/bin/" ./...)
rm -rf "$fresh"

# Ten forks of five iterations each, as in the scaling experiment, with
# shorter iterations: every benchmark gets the same static configuration
# in every run, so that only the split differs.
flags=(-criterion static -f-min 10 -f-max 10 -wi-min 1 -wi-max 1 -mi 5 -iter 20ms)
cd "$toml"
# measure LABEL SHARD DB: one mbench run, its summary and log kept.
measure() {
  local name=$1${2:+-${2%/*}}
  if [ -n "$2" ]; then
    timed run "$1" "$2" "$out/mbench" run "${flags[@]}" -db "$3" -label "$1" -shard "$2" ./... >"$out/$name.summary" 2>"$out/$name.log"
  else
    timed run "$1" "" "$out/mbench" run "${flags[@]}" -db "$3" -label "$1" ./... >"$out/$name.summary" 2>"$out/$name.log"
  fi
}
rm -f "$out"/*.db
measure single "" "$out/mbench.db"
for n in 2 4; do
  for i in $(seq 1 $n); do
    measure "shards-$n" "$i/$n" "$out/mbench.db"
  done
done
for i in $(seq 1 8); do
  measure shards-8 "$i/8" "$out/shard-8-$i.db"
done
measure again "" "$out/mbench.db"

# The report job of the CI recipe: copy the shards' files into one store
# and compare there.
"$out/mbench" store copy "$out/mbench.db" "$out/gathered.db" >"$out/gather.log"
gather() {
  for i in $(seq 1 8); do
    "$out/mbench" store copy "$out/shard-8-$i.db" "$out/gathered.db" >>"$out/gather.log"
  done
  "$out/mbench" compare -db "$out/gathered.db" -format markdown single shards-8 >"$out/compare-shards-8.md"
}
timed gather "" "" gather

args=()
for label in shards-2 shards-4 shards-8 again; do
  "$out/mbench" compare -db "$out/gathered.db" single "$label" >"$out/compare-$label.txt" 2>&1 || true
  "$out/mbench" compare -db "$out/gathered.db" -format json single "$label" >"$out/compare-$label.json"
  args+=("$label=$out/compare-$label.json")
done
"$out/tabulate" -db "$out/gathered.db" -times "$times" "${args[@]}" | tee "$out/scaleout.txt"
