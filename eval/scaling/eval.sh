#!/usr/bin/env bash
# eval.sh reproduces the scaling table of docs/eval/scaling.md: it runs
# `mbench run` on standard-library benchmarks whose sub-benchmarks vary a
# problem size, and fits each family's log-log slope with package scaling
# (eval/scaling/tabulate, which prints what `mbench report -format text`
# prints in its scaling section, plus one summary line per family).
#
#   hash/crc32  CRC32/poly=IEEE/size=*/align=*   table-driven CRC: linear
#   math/big    NatMul/*                          Karatsuba above 40 words: n^1.585
#   slices      BinarySearchFloats/Size*          binary search: logarithmic
#   regexp      Match/{Easy1,Hard}/*              RE2-style automaton: linear
#   github.com/pelletier/go-toml/v2@v2.2.4 (from the module proxy):
#     unstable  ScanComments/*Valid, *ValidUtf8   one pass over the comment: linear
#               ParseLiteralStringValid/*Valid, *ValidUtf8   likewise
#
# usage: eval/scaling/eval.sh OUTDIR
# It takes about 12 minutes on a 2-core VM; keep the machine otherwise idle.
set -euo pipefail
out=${1:?usage: eval.sh OUTDIR}
mkdir -p "$out"
out=$(cd "$out" && pwd)
repo=$(cd "$(dirname "$0")/../.." && pwd)
(cd "$repo" && go build -o "$out/mbench" ./cmd/mbench)
(cd "$repo/eval" && go build -o "$out/tabulate" ./scaling/tabulate)

# Ten forks of five iterations each: short, and enough forks that the
# t widening of the intervals (a factor 1.33 at 99% for 10 forks, 2.0 for
# 5) leaves them informative on a noisy machine. A run's benchmarks are interleaved, so a
# burst of load on the machine hits several sizes alike.
flags=(-db "$out/mbench.db" -criterion static -f-min 10 -f-max 10 -wi-min 1 -wi-max 1 -mi 5 -iter 50ms)
cd "$out"
run() { # run NAME BENCH PKG
  if [ ! -s "$out/$1.txt" ]; then
    "$out/mbench" run "${flags[@]}" -label "$1" -bench "$2" -o "$out/$1.txt" "$3" >"$out/$1.summary" 2>"$out/$1.log"
  fi
}
run crc32 'CRC32/poly=IEEE/' hash/crc32
run natmul 'NatMul/' math/big
run bsearch 'BinarySearchFloats/' slices
run regexp 'Match$/^(Easy1|Hard)$/' regexp
scratch=${SCRATCH:-$(mktemp -d)}
toml=$("$repo/eval/fetch-module.sh" "$scratch" github.com/pelletier/go-toml/v2 v2.2.4)
(cd "$toml" && run gotoml 'ScanComments|ParseLiteralStringValid' ./unstable)
files=("$out/crc32.txt" "$out/natmul.txt" "$out/bsearch.txt" "$out/regexp.txt" "$out/gotoml.txt")
"$out/tabulate" "${files[@]}" | tee "$out/scaling.txt"
# The median resists the load spikes of a shared machine better than the
# mean that `mbench report` shows by default.
"$out/tabulate" -stat median "${files[@]}" | tee "$out/scaling-median.txt"
