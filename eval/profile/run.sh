#!/usr/bin/env bash
# run.sh measures how well mbench profile names the function at fault
# (docs/eval/profile.md): into one function of a real module, fetched from
# the module proxy into a scratch directory, it injects extra work worth
# about +5%, +10% and +20% of a benchmark's time, commits each as a
# revision of a scratch git repository, and runs mbench profile of the
# untouched revision against each, TRIALS times. tabulate then counts how
# often the function at fault is named first and among the first three,
# and how long profiling took.
#
# The injected work is a loop at the top of the function's body, so its
# time is the function's own (flat) time, also where the compiler inlines
# the function into its callers. Its length is calibrated once: the
# benchmark's time per op with no loop and with a loop of CAL iterations
# (go test -bench, -count 5, medians) give the cost of one iteration.
#
# usage: eval/profile/run.sh OUTDIR
#   TRIALS   trials per level (default 5)
#   LEVELS   injected changes in percent (default "5 10 20")
#   FLAGS    extra flags of mbench profile
#   MBENCH   a prebuilt mbench (default: built from this checkout)
set -euo pipefail
out=$(mkdir -p "${1:?usage: run.sh OUTDIR}" && cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
trials=${TRIALS:-5}
levels=${LEVELS:-"5 10 20"}
module=github.com/pelletier/go-toml/v2
version=v2.4.3
pkg=./benchmark
bench='^BenchmarkUnmarshal$/^ReferenceFile$/^struct$'
file=unstable/parser.go
anchor='func (p *Parser) parseKeyval(b []byte) (int32, []byte, error) {'
fault='github.com/pelletier/go-toml/v2/unstable.(*Parser).parseKeyval'
cal=2000

mbench=${MBENCH:-}
if [ -z "$mbench" ]; then
	mbench=$out/mbench
	(cd "$root" && go build -o "$mbench" ./cmd/mbench)
fi
mkdir -p "$out/scratch"
src=$("$root/eval/fetch-module.sh" "$out/scratch" "$module" "$version")
repo=$out/repo
if [ ! -d "$repo/.git" ]; then
	rm -rf "$repo"
	cp -r "$src" "$repo"
	git -C "$repo" init -q
	git -C "$repo" add -A
	git -C "$repo" -c user.name=eval -c user.email=eval@localhost commit -qm base
	git -C "$repo" tag base
fi

# inject K makes the branch inject-K: base with a loop of K iterations at
# the top of the function.
inject() {
	local k=$1
	git -C "$repo" rev-parse -q --verify "inject-$k" >/dev/null && return
	git -C "$repo" checkout -q -b "inject-$k" base
	grep -qF "$anchor" "$repo/$file"
	awk -v a="$anchor" '{print} index($0, a)==1 {print "\tfor i := 0; i < mbenchK; i++ {\n\t\tmbenchSink = mbenchSink*31 + uint64(i)\n\t}"}' \
		"$repo/$file" >"$repo/$file.new"
	mv "$repo/$file.new" "$repo/$file"
	printf 'package unstable\n\nconst mbenchK = %d\n\nvar mbenchSink uint64\n' "$k" >"$repo/unstable/mbench_inject.go"
	gofmt -l "$repo/unstable" | grep . && exit 1
	git -C "$repo" add -A
	git -C "$repo" -c user.name=eval -c user.email=eval@localhost commit -qm "inject $k"
	git -C "$repo" checkout -q base
}

# nsop REV prints the benchmark's median time per op at REV.
nsop() {
	git -C "$repo" checkout -q "$1"
	(cd "$repo" && go test -run '^$' -bench "$bench" -count 5 "$pkg") |
		awk '/ns\/op/ {for (i = 1; i <= NF; i++) if ($(i+1) == "ns/op") print $i}' | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'
	git -C "$repo" checkout -q base
}

if [ ! -f "$out/calibration" ]; then
	inject $cal
	base=$(nsop base)
	with=$(nsop "inject-$cal")
	echo "$base $with" >"$out/calibration"
fi
read -r base with <"$out/calibration"
echo "calibration: $base ns/op, $with ns/op with $cal iterations" >&2

echo "load before: $(cat /proc/loadavg)" >"$out/load.txt"
for level in $levels; do
	k=$(awk -v b="$base" -v w="$with" -v c=$cal -v l="$level" 'BEGIN {printf "%d", l/100*b/((w-b)/c)}')
	inject "$k"
	for trial in $(seq 1 "$trials"); do
		res=$out/level-$level-trial-$trial.json
		[ -s "$res" ] && continue
		echo "level $level% (K=$k), trial $trial: $(cat /proc/loadavg)" >&2
		echo "level $level trial $trial start: $(cat /proc/loadavg)" >>"$out/load.txt"
		(cd "$repo" && "$mbench" profile -db "$out/m.db" -old base -new "inject-$k" -bench "$bench" -format json ${FLAGS:-} "$pkg") >"$res.tmp"
		mv "$res.tmp" "$res"
	done
done
echo "load after: $(cat /proc/loadavg)" >>"$out/load.txt"
(cd "$root/eval" && go run ./profile/tabulate -fault "$fault" "$out"/level-*-trial-*.json)
