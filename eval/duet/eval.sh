#!/usr/bin/env bash
# eval.sh reproduces the `mbench duet` figures of docs/eval/ab.md (section
# "`mbench duet`: both versions at once").
#
# Subjects: two go-toml v2 benchmarks (Unmarshal/{SimpleDocument,ReferenceFile}/struct)
# and two zap benchmarks (BoolsArrayMarshaler, BoolsReflect), from the module proxy.
# Each module becomes a scratch git repository with four revisions:
#   base   the benchmarks' loops call mbenchSlow(id), which spins K[id] steps; K = 0
#   slowX  the same with K calibrated so that each benchmark is X% slower (X = 1, 2, 5):
#          K = X% × the benchmark's time per op / the spin's time per step, both
#          measured here with go test -bench before the trials.
# For each load (none; "noisy": dueteval load, bursts of memory-streaming work on
# every CPU) and each trial, every variant (A/A, slow1, slow2, slow5) is measured
#   duet: mbench duet -old base -new VARIANT (or -aa), 10 runs × (1 + 10) iterations
#   duetcpu: the same, compared on the processes' CPU time (-metric cpu-sec/op)
#   seq:  the sequential baseline at equal measurement time: 5 suite runs, each with
#         one fork per version of 1 + 10 iterations, in random order (dueteval seq)
# both with 50ms iterations, and compared by the same rules (99% CI, threshold 3%).
#
# usage: eval/duet/eval.sh OUTDIR      (TRIALS=3 by default; about 12 minutes per trial)
# Keep the machine otherwise idle. Finished measurements are skipped on a rerun.
set -euo pipefail
out=${1:?usage: eval.sh OUTDIR}
repo=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)
scratch=${SCRATCH:-$(mktemp -d)}
mkdir -p "$scratch"
scratch=$(cd "$scratch" && pwd)
trials=${TRIALS:-3}
runs=10 iters=10 suites=5 iter=50ms

(cd "$repo" && go build -o "$out/mbench" ./cmd/mbench)
(cd "$repo/eval" && go build -o "$out/dueteval" ./duet/dueteval)
mb="$out/mbench"
de="$out/dueteval"

# prepare NAME MODULE VERSION PKGDIR FILE LINE:ID...  → $scratch/duet-NAME, a git repo
prepare() {
  local name=$1 module=$2 version=$3 pkgdir=$4 file=$5; shift 5
  local dst="$scratch/duet-$name"
  [ -d "$dst/.git" ] && return
  local src
  src=$("$repo/eval/fetch-module.sh" "$scratch" "$module" "$version")
  rm -rf "$dst"; cp -r "$src" "$dst"
  python3 - "$dst/$pkgdir/$file" "$@" <<'EOF'
import re, sys
path, marks = sys.argv[1], [m.split(":") for m in sys.argv[2:]]
lines = open(path).read().split("\n")
for line, ident in sorted(marks, key=lambda m: -int(m[0])):
    i = int(line) - 1
    if lines[i].strip() != "for i := 0; i < b.N; i++ {":
        sys.exit(f"{path}:{line}: not a b.N loop: {lines[i]!r}")
    indent = re.match(r"\s*", lines[i]).group(0)
    lines.insert(i + 1, indent + "\tmbenchSlow(" + ident + ")")
open(path, "w").write("\n".join(lines))
EOF
  local pkg
  pkg=$(sed -n 's/^package \([a-z_0-9]*\).*/\1/p' "$dst/$pkgdir/$file" | head -1)
  cat > "$dst/$pkgdir/mbench_slow_test.go" <<EOF
package $pkg

import "testing"

// mbenchK is each instrumented benchmark's extra work; mbench_k_test.go sets it.
var mbenchK = map[int]int{}

var mbenchSpinSink int

// mbenchSlow adds mbenchK[id] steps of dependent arithmetic to an operation.
//
//go:noinline
func mbenchSlow(id int) { mbenchSpin(mbenchK[id]) }

//go:noinline
func mbenchSpin(k int) {
	x := mbenchSpinSink
	for i := 0; i < k; i++ {
		x = x*31 + i
	}
	mbenchSpinSink = x
}

func BenchmarkMbenchSpinUnit(b *testing.B) {
	for b.Loop() {
		mbenchSpin(1000)
	}
}
EOF
  printf 'package %s\n\nfunc init() { mbenchK = map[int]int{} }\n' "$pkg" > "$dst/$pkgdir/mbench_k_test.go"
  (cd "$dst" && git init -q && git add -A && git -c user.name=eval -c user.email=eval@localhost commit -qm base && git tag base)
}

# variants NAME PKGDIR BENCH ID=NAME...: calibrate K and commit slow1, slow2, slow5
variants() {
  local name=$1 pkgdir=$2 bench=$3; shift 3
  local dst="$scratch/duet-$name"
  (cd "$dst" && git rev-parse -q --verify slow5 >/dev/null) && return
  (cd "$dst" && go test -run '^$' -bench "$bench|MbenchSpinUnit" -benchtime 300ms -count 5 "./$pkgdir" > "$out/calibrate-$name.txt")
  local pkg
  pkg=$(sed -n 's/^package \([a-z_0-9]*\).*/\1/p' "$dst/$pkgdir/mbench_k_test.go")
  for x in 1 2 5; do
    python3 - "$out/calibrate-$name.txt" "$x" "$pkg" "$@" > "$dst/$pkgdir/mbench_k_test.go" <<'EOF'
import re, statistics, sys
path, x, pkg, pairs = sys.argv[1], float(sys.argv[2]), sys.argv[3], [p.split("=", 1) for p in sys.argv[4:]]
times = {}
for line in open(path):
    m = re.match(r"(Benchmark\S+?)(-\d+)?\s+\d+\s+([\d.]+) ns/op", line)
    if m:
        times.setdefault(m.group(1), []).append(float(m.group(3)))
step = statistics.median(times["BenchmarkMbenchSpinUnit"]) / 1000
ks = {ident: round(x / 100 * statistics.median(times[name]) / step) for ident, name in pairs}
body = ", ".join(f"{i}: {k}" for i, k in sorted(ks.items()))
print(f"package {pkg}\n\n// {x:g}% of each benchmark's time per op, in spin steps of {step:.3f} ns.\nfunc init() {{ mbenchK = map[int]int{{{body}}} }}")
EOF
    (cd "$dst" && git checkout -q -B "slow$x" base && git add -A && git -c user.name=eval -c user.email=eval@localhost commit -qm "slow$x" && git checkout -q base)
  done
  for v in base slow1 slow2 slow5; do
    [ -d "$scratch/wt-$name-$v" ] || (cd "$dst" && git worktree add -q --detach "$scratch/wt-$name-$v" "$v")
  done
}

prepare gotoml github.com/pelletier/go-toml/v2 v2.4.3 benchmark benchmark_test.go 34:1 71:2
variants gotoml benchmark '^BenchmarkUnmarshal$/^(SimpleDocument|ReferenceFile)$/^struct$' \
  1=BenchmarkUnmarshal/SimpleDocument/struct 2=BenchmarkUnmarshal/ReferenceFile/struct
prepare zap go.uber.org/zap v1.27.0 . array_test.go 41:1 50:2
variants zap . '^BenchmarkBools(ArrayMarshaler|Reflect)$' 1=BenchmarkBoolsArrayMarshaler 2=BenchmarkBoolsReflect

declare -A pkgs=([gotoml]=./benchmark [zap]=.)
declare -A benches=([gotoml]='^BenchmarkUnmarshal$/^(SimpleDocument|ReferenceFile)$/^struct$' [zap]='^BenchmarkBools(ArrayMarshaler|Reflect)$')

loadpid=
trap '[ -n "$loadpid" ] && kill $loadpid 2>/dev/null || true' EXIT
for load in none noisy; do
  if [ "$load" = noisy ]; then "$de" load & loadpid=$!; sleep 1; fi
  for trial in $(seq 1 "$trials"); do
    for name in gotoml zap; do
      for v in aa slow1 slow2 slow5; do
        tag="$load-$trial-$name-$v"
        if [ ! -f "$out/duet-$tag.json" ]; then
          echo "duet $tag" >&2
          new=(-new "$v"); [ "$v" = aa ] && new=(-aa)
          t0=$(date +%s.%N)
          (cd "$scratch/duet-$name" && "$mb" duet -db "$out/duet.db" -old base "${new[@]}" -bench "${benches[$name]}" \
            -runs $runs -iters $iters -iter $iter -seed "$trial" -format json "${pkgs[$name]}" > "$out/duet-$tag.json.tmp" 2> "$out/duet-$tag.log") || true
          echo "$(date +%s.%N) - $t0" | bc > "$out/duet-$tag.time"
          mv "$out/duet-$tag.json.tmp" "$out/duet-$tag.json"
        fi
        if [ ! -f "$out/duetcpu-$tag.json" ]; then
          echo "duetcpu $tag" >&2
          new=(-new "$v"); [ "$v" = aa ] && new=(-aa)
          t0=$(date +%s.%N)
          (cd "$scratch/duet-$name" && "$mb" duet -db "$out/duet.db" -old base "${new[@]}" -bench "${benches[$name]}" -metric cpu-sec/op \
            -runs $runs -iters $iters -iter $iter -seed "$trial" -format json "${pkgs[$name]}" > "$out/duetcpu-$tag.json.tmp" 2> "$out/duetcpu-$tag.log") || true
          echo "$(date +%s.%N) - $t0" | bc > "$out/duetcpu-$tag.time"
          mv "$out/duetcpu-$tag.json.tmp" "$out/duetcpu-$tag.json"
        fi
        if [ ! -f "$out/seq-$tag.json" ]; then
          echo "seq $tag" >&2
          nv=$v; [ "$v" = aa ] && nv=base
          t0=$(date +%s.%N)
          "$de" seq -old "$scratch/wt-$name-base" -new "$scratch/wt-$name-$nv" -pkg "${pkgs[$name]}" -bench "${benches[$name]}" \
            -suites $suites -iters $iters -iter $iter -seed "$trial" -o "$out/seq-$tag.json" 2> "$out/seq-$tag.log" || true
          echo "$(date +%s.%N) - $t0" | bc > "$out/seq-$tag.time"
        fi
      done
    done
  done
  if [ -n "$loadpid" ]; then kill "$loadpid"; wait "$loadpid" 2>/dev/null || true; loadpid=; fi
done

"$repo/eval/duet/report.sh" "$out"
