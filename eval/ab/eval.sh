#!/usr/bin/env bash
# eval.sh measures how well four ways of answering "did my change make it
# slower?" work on this machine, side by side in one session
# (docs/eval/ab.md):
#
#   gotest    go test -bench . -count 10 for old, then for new, then benchstat
#   seq       mbench run for old, then mbench run for new, then mbench compare
#   ab        mbench ab (interleaved rounds in turns, sequential decision),
#             defaults: up to 200 rounds, 10s per benchmark
#   ab-t1     ab with -threshold 0.01: a change of 2% can only be called
#             slower when the threshold is below it
#   ab-20x6, ab-10x12
#             ab with 6 measured iterations of 20ms per round, or 12 of
#             10ms, instead of 24 of 5ms (the choice of the default)
#   ab-proc   the same with -pairing processes: one process of each version
#             per round, back to back (the design before turns)
#   ab-80     the same with -max-rounds 80 and no time budget
#   ab-long   the same with -max-rounds 200 and no time budget
#   parallel  mbench ab -parallel (duet: pinned, barrier and filler)
#
# Subjects are real modules from the module proxy, fetched into a scratch
# directory. Each is built as test binaries with an overlay of the testing
# package (eval/ab/pad -probe, stacked on mbench's probe, so the binaries
# can run in turns and as a duet) that adds a known fraction of every
# iteration's time:
# old has 0, new X% for the conditions 2, 5 and 10; aa compares old with an
# identical build of itself.
#
# usage: eval/ab/eval.sh OUTDIR
#   MODULES     subjects (default "gotoml uuid xxhash")
#   CONDITIONS  (default "aa 2 5 10")
#   METHODS     (default "gotest seq ab parallel")
#   TRIALS      trials of each (default 5)
#   LOAD        none, or cpu: stress-ng --cpu 1 runs throughout (default none)
#   BENCH       -bench pattern of every method (default: each module's own
#               selection below; . for all)
#   AB_FLAGS    extra flags of mbench ab
#   MBENCH      a prebuilt mbench to evaluate (default: built from this
#               checkout)
# Finished measurements are skipped on a rerun. Keep the machine otherwise
# idle. eval/ab/tabulate OUTDIR prints the tables.
set -euo pipefail
out=${1:?usage: eval.sh OUTDIR}
repo=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)
scratch=${SCRATCH:-$(mktemp -d)}
mkdir -p "$scratch"
scratch=$(cd "$scratch" && pwd)
modules=${MODULES:-gotoml uuid xxhash}
conditions=${CONDITIONS:-aa 2 5 10}
methods=${METHODS:-gotest seq ab parallel}
trials=${TRIALS:-5}
load=${LOAD:-none}

# module NAME prints "MODULE VERSION PACKAGE BENCH" of a subject: five to
# eight benchmarks of each, so that go test's ten counts of every benchmark
# fit the session.
module() {
  case $1 in
  gotoml) echo 'github.com/pelletier/go-toml/v2 v2.4.3 ./benchmark Unmarshal/(SimpleDocument|ReferenceFile)/struct$|Marshal/ReferenceFile/struct$|UnmarshalDataset/(code|config)$' ;;
  uuid) echo 'github.com/google/uuid v1.6.0 . Parse$|UUID_String$|UUID_MarshalJSON$|UUID_UnmarshalJSON$|New$' ;;
  xxhash) echo 'github.com/cespare/xxhash/v2 v2.3.0 . Sum64/(16B|100B|4KB)$|DigestBytes/(100B|4KB)$' ;;
  *) echo "unknown module $1" >&2; exit 2 ;;
  esac
}

command -v benchstat >/dev/null || GOFLAGS= go install golang.org/x/perf/cmd/benchstat@latest
benchstat=$(command -v benchstat || echo "$(go env GOPATH)/bin/benchstat")
mbench=${MBENCH:-}
if [ -z "$mbench" ]; then
  (cd "$repo" && go build -o "$scratch/mbench" ./cmd/mbench)
  mbench=$scratch/mbench
fi
for c in $conditions; do
  f=0
  [ "$c" != aa ] && f=$(awk "BEGIN{print $c/100}")
  [ -f "$scratch/padp-$c/overlay.json" ] || (cd "$repo/eval" && go run ./ab/pad -probe -fraction "$f" -o "$scratch/padp-$c" >/dev/null)
done
[ -f "$scratch/padp-0/overlay.json" ] || (cd "$repo/eval" && go run ./ab/pad -probe -fraction 0 -o "$scratch/padp-0" >/dev/null)

stressor=
if [ "$load" = cpu ]; then
  command -v stress-ng >/dev/null || (apt-get install -y stress-ng >/dev/null 2>&1 || sudo apt-get install -y stress-ng >/dev/null)
  stress-ng --cpu 1 --quiet &
  stressor=$!
fi
trap '[ -n "$stressor" ] && kill "$stressor" 2>/dev/null; true' EXIT

# timed DEST CMD... runs CMD, writing its wall time in seconds to DEST.
timed() {
  local dest=$1
  shift
  local start end
  start=$(date +%s.%N)
  "$@"
  end=$(date +%s.%N)
  awk "BEGIN{print $end - $start}" >"$dest"
}

for m in $modules; do
  read -r path version pkg modbench <<<"$(module "$m")"
  bench=${BENCH:-$modbench}
  src=$("$repo/eval/fetch-module.sh" "$scratch" "$path" "$version")
  pkgdir=$(cd "$src/$pkg" && pwd)
  # The binaries live in the package directory, where benchmarks find
  # their testdata.
  for c in 0 $conditions; do
    [ "$c" = aa ] && continue
    [ -f "$pkgdir/pad$c.test" ] || (cd "$src" && go test -c -overlay "$scratch/padp-$c/overlay.json" -o "$pkgdir/pad$c.test" "$pkg")
  done
  cp "$pkgdir/pad0.test" "$pkgdir/same.test"
  for t in $(seq 1 "$trials"); do
    for c in $conditions; do
      new=pad$c.test
      [ "$c" = aa ] && new=same.test
      for meth in $methods; do
        d=$out/$m/$load/$c/$meth
        mkdir -p "$d"
        [ -f "$d/$t.time" ] && continue
        echo "$m $load $c $meth trial $t" >&2
        db=$d/$t.db
        rm -f "$db"*
        cd "$pkgdir"
        case $meth in
        gotest)
          timed "$d/$t.time" sh -c "./pad0.test -test.run='^\$' -test.bench='$bench' -test.count=10 -test.benchmem >'$d/$t.old.txt' &&
            ./$new -test.run='^\$' -test.bench='$bench' -test.count=10 -test.benchmem >'$d/$t.new.txt'"
          "$benchstat" -format csv "old=$d/$t.old.txt" "new=$d/$t.new.txt" >"$d/$t.csv" 2>/dev/null
          ;;
        seq)
          timed "$d/$t.time" sh -c "'$mbench' run -db '$db' -bench '$bench' -benchmem -label old old=./pad0.test >/dev/null 2>'$d/$t.log' &&
            '$mbench' run -db '$db' -bench '$bench' -benchmem -label new new=./$new >/dev/null 2>>'$d/$t.log'"
          "$mbench" compare -db "$db" -format json old new >"$d/$t.json" 2>>"$d/$t.log" || true
          ;;
        ab | ab-t1 | ab-20x6 | ab-10x12 | ab-proc | ab-80 | ab-long)
          flags=${AB_FLAGS:-}
          [ "$meth" = ab-20x6 ] && flags="$flags -iter 20ms -mi 6"
          [ "$meth" = ab-10x12 ] && flags="$flags -iter 10ms -mi 12"
          [ "$meth" = ab-t1 ] && flags="$flags -threshold 0.01"
          [ "$meth" = ab-proc ] && flags="$flags -pairing processes -mi 2 -wi 1 -min-ops 1"
          [ "$meth" = ab-80 ] && flags="$flags -max-rounds 80 -budget-per-benchmark 0"
          [ "$meth" = ab-long ] && flags="$flags -max-rounds 200 -budget-per-benchmark 0"
          timed "$d/$t.time" sh -c "'$mbench' ab -db '$db' -bench '$bench' $flags -seed $t -old-bin ./pad0.test -new-bin ./$new -format json >'$d/$t.json' 2>'$d/$t.log' || true"
          ;;
        parallel)
          timed "$d/$t.time" sh -c "'$mbench' ab -parallel -db '$db' -bench '$bench' -seed $t -old-bin ./pad0.test -new-bin ./$new -format json >'$d/$t.json' 2>'$d/$t.log' || true"
          ;;
        esac
      done
    done
  done
done
