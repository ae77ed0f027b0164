#!/usr/bin/env bash
# report.sh prints the tables of docs/eval/run.md from the files that
# eval/run/eval.sh leaves in OUTDIR.
#
# usage: eval/run/report.sh OUTDIR
set -euo pipefail
out=${1:?usage: report.sh OUTDIR}
mb="$out/mbench"

# changed A B: how many benchmarks mbench compare calls changed.
changed() { "$mb" compare -format csv "$@" 2>/dev/null | awk -F, 'NR > 1 && $15 != "no change" && $15 != "inconclusive" && $15 != "too few samples" { n++ } END { print n + 0 }'; }
# within REF RUN: fractions of benchmarks whose mean is within 1%, 3%, 5% of the reference.
within() { "$mb" compare -format csv "$1" "$2" 2>/dev/null | awk -F, 'NR > 1 { d = $11 - 1; if (d < 0) d = -d; n++; if (d <= .01) a++; if (d <= .03) b++; if (d <= .05) c++ }
  END { printf "%d/%d (%.0f%%) | %d/%d (%.0f%%) | %d/%d (%.0f%%)", a, n, 100*a/n, b, n, 100*b/n, c, n, 100*c/n }'; }
secs() { printf "%.0f" "$(cat "$out/$1.time")"; }

echo "## go test -bench . -count 10"
echo
echo "| run | wall time (s) |"
echo "| --- | --- |"
for i in 1 2; do echo "| gotest-$i | $(secs gotest-$i) |"; done
echo
# benchstat marks a significant change with its size ("+5.88% (p=0.001 n=10)"), others with "~".
bs=$("$out/benchstat" "$out/gotest-1.txt" "$out/gotest-2.txt" | awk '/sec\/op/ { t = 1 } t && /[-+][0-9.]+% \(p=/ { n++ } /geomean/ { t = 0 } END { print n + 0 }')
echo "A/A, same binary: benchstat flags $bs of 23; mbench compare flags $(changed a="$out/gotest-1.txt" b="$out/gotest-2.txt") of 23."
# An injected 10% slowdown: run 2 with every ns/op multiplied by 1.10.
awk '/^Benchmark/ { for (i = 3; i < NF; i++) if ($(i+1) == "ns/op") $i = sprintf("%.1f", $i * 1.10) } { print }' \
  "$out/gotest-2.txt" > "$out/gotest-2-slow10.txt"
slow=$("$mb" compare -format csv old="$out/gotest-1.txt" new="$out/gotest-2-slow10.txt" 2>/dev/null | awk -F, 'NR > 1 && $15 == "slower" { n++ } END { print n + 0 }')
bsslow=$("$out/benchstat" "$out/gotest-1.txt" "$out/gotest-2-slow10.txt" | awk '/sec\/op/ { t = 1 } t && /\+[0-9.]+% \(p=/ { n++ } /geomean/ { t = 0 } END { print n + 0 }')
echo "Injected 10% slowdown (run 2's ns/op x 1.10): mbench compare reports $slow of 23 slower; benchstat $bsslow of 23."
if "$mb" compare -fail old="$out/gotest-1.txt" new="$out/gotest-2-slow10.txt" >/dev/null 2>&1; then
  echo "mbench compare -fail exited 0"
else
  echo "mbench compare -fail exited $?"
fi
echo
echo "## mbench run: criteria against the reference"
echo
echo "| run | wall time (s) | share of go test | within 1% | within 3% | within 5% |"
echo "| --- | --- | --- | --- | --- | --- |"
gt=$(cat "$out/gotest-1.time" "$out/gotest-2.time" | awk '{ s += $1 } END { print s / NR }')
echo "| reference (static, 10 forks) | $(secs ref) | $(echo "$(cat "$out/ref.time") / $gt * 100" | bc -l | xargs printf "%.0f")% | | | |"
for f in "$out"/crit-*.json; do
  name=$(basename "$f" .json)
  echo "| $name | $(secs "$name") | $(echo "$(cat "$out/$name.time") / $gt * 100" | bc -l | xargs printf "%.0f")% | $(within ref="$out/ref.json" run="$f") |"
done
echo
echo "## A/A: two default runs of the same code"
echo
echo "| trial | flagged (of 23) |"
echo "| --- | --- |"
total=0; n=0
for a in "$out"/aa-*-a.json; do
  b=${a%-a.json}-b.json
  [ -f "$b" ] || continue
  c=$(changed a="$a" b="$b")
  echo "| $(basename "${a%-a.json}") | $c |"
  total=$((total + c)); n=$((n + 1))
done
[ "$n" -gt 0 ] && echo "| mean over $n trials | $(echo "$total / $n" | bc -l | xargs printf "%.2f") |"
