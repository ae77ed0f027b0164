#!/usr/bin/env bash
# eval-vet.sh reproduces the `mbench vet` figures of docs/vet-evaluation.md:
# it fetches popular Go modules at pinned versions from the module proxy into
# a scratch directory, builds mbench, runs `mbench vet -json ./...` in each
# module's root, one module at a time, and writes
#
#   OUTDIR/MODULE@VERSION.json   the findings (module path with / as _)
#   OUTDIR/MODULE@VERSION.err    stderr of mbench vet (load errors)
#   OUTDIR/summary.md            findings per analyzer per module, exit
#                                status and wall time of each module
#
# A module whose packages do not all load (exit status 1) is vetted again
# package by package; the packages that still fail are listed in its .err
# file and in the summary.
#
# usage: scripts/eval-vet.sh OUTDIR
# SCRATCH (default: a fresh temporary directory) holds the module trees; it
# must lie outside this repository. Needs go, jq and network access to the
# module proxy. On a 2-core VM it takes a few minutes plus gonum's share.
set -euo pipefail
out=${1:?usage: eval-vet.sh OUTDIR}
repo=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)
scratch=${SCRATCH:-$(mktemp -d)}
mkdir -p "$scratch"
scratch=$(cd "$scratch" && pwd)
case "$scratch/" in "$repo"/*) echo "SCRATCH must lie outside $repo" >&2; exit 2 ;; esac

# The modules and versions of the evaluation (latest releases on the proxy
# when it was run). Keep this list exactly as evaluated.
modules=(
  github.com/pelletier/go-toml/v2@v2.4.3
  go.uber.org/zap@v1.28.0
  github.com/prometheus/common@v0.72.1    # v0.73.x needs pandatix/go-abnf, refused by our proxy (403)
  github.com/google/uuid@v1.6.0
  github.com/json-iterator/go@v1.1.12
  github.com/valyala/fasthttp@v1.73.0     # v1.74+ needs molecule-man/go-brrr, refused by our proxy (403)
  github.com/klauspost/compress@v1.20.3
  github.com/cespare/xxhash/v2@v2.3.0
  github.com/golang/snappy@v1.0.0
  github.com/dustin/go-humanize@v1.1.0
  github.com/sirupsen/logrus@v1.10.2
  github.com/RoaringBitmap/roaring/v2@v2.30.0
  github.com/bits-and-blooms/bitset@v1.29.0
  github.com/bits-and-blooms/bloom/v3@v3.7.1
  github.com/tidwall/gjson@v1.20.0
  github.com/tidwall/btree@v1.8.2
  github.com/shopspring/decimal@v1.6.0
  github.com/cockroachdb/apd/v3@v3.2.3
  github.com/google/btree@v1.1.3
  github.com/emirpasic/gods@v1.18.1
  github.com/hashicorp/golang-lru/v2@v2.0.7
  github.com/dgraph-io/ristretto/v2@v2.4.2
  github.com/buger/jsonparser@v1.6.1
  github.com/goccy/go-json@v0.12.0
  github.com/segmentio/encoding@v0.5.4
  github.com/vmihailenco/msgpack/v5@v5.4.1
  github.com/zeebo/xxh3@v1.1.0
  github.com/pierrec/lz4/v4@v4.1.33
  golang.org/x/text@v0.43.0
  github.com/Workiva/go-datastructures@v1.1.7
  github.com/rs/zerolog@v1.35.1
  github.com/rs/xid@v1.6.0
  github.com/oklog/ulid/v2@v2.1.2
  github.com/allegro/bigcache/v3@v3.1.0
  github.com/coocood/freecache@v1.2.7
  github.com/VictoriaMetrics/fastcache@v1.13.0
  github.com/montanaflynn/stats@v0.14.0
  github.com/spaolacci/murmur3@v1.1.0
  github.com/julienschmidt/httprouter@v1.3.0
  github.com/go-chi/chi/v5@v5.5.0
  github.com/gin-gonic/gin@v1.12.0
  github.com/Masterminds/semver/v3@v3.5.0
  github.com/puzpuzpuz/xsync/v3@v3.5.1
  github.com/dolthub/swiss@v0.2.1
  github.com/huandu/skiplist@v1.2.1
  github.com/gammazero/deque@v1.2.3
  github.com/google/go-cmp@v0.7.0
  github.com/tidwall/buntdb@v1.3.0
  go.etcd.io/bbolt@v1.5.0
  github.com/influxdata/tdigest@v0.0.1
  gonum.org/v1/gonum@v0.17.0
)
analyzers=(deadresult constfold timedsetup stoptimer bnsize driftstate)

mb="$out/mbench"
(cd "$repo" && go build -o "$mb" ./cmd/mbench)

# fetch MODULE VERSION: a writable copy of the module in $scratch, with a
# complete go.sum; prints its path.
fetch() {
  local module=$1 version=$2 dir dst
  [ -f "$scratch/go.mod" ] || (cd "$scratch" && go mod init veteval >/dev/null 2>&1)
  dir=$(cd "$scratch" && GOFLAGS=-mod=mod go mod download -json "$module@$version" | jq -r .Dir)
  dst="$scratch/src/${module//\//_}@$version"
  if [ ! -d "$dst" ]; then
    mkdir -p "$scratch/src"
    cp -r "$dir" "$dst"
    chmod -R u+w "$dst"
    # A module from before go.mod (spaolacci/murmur3) gets one.
    [ -f "$dst/go.mod" ] || (cd "$dst" && go mod init "$module" >/dev/null 2>&1)
    (cd "$dst" && go mod download >/dev/null 2>&1 && go mod tidy >/dev/null 2>&1) || true
  fi
  echo "$dst"
}

now() { date +%s.%N; }

summary="$out/summary.md"
{
  printf '| module | version | benchmarks |'
  printf ' %s |' "${analyzers[@]}"
  printf ' total | exit | seconds | failed packages |\n'
  printf '| --- | --- | ---: |'
  printf ' ---: |%.0s' "${analyzers[@]}"
  printf ' ---: | ---: | ---: | --- |\n'
} > "$summary"

for mv in "${modules[@]}"; do
  module=${mv%@*} version=${mv##*@}
  name="${module//\//_}@$version"
  echo "== $module $version" >&2
  src=$(fetch "$module" "$version")
  nbench=$( (grep -rhE '^func Benchmark' --include='*_test.go' "$src" || true) | wc -l)
  t0=$(now)
  rc=0
  (cd "$src" && "$mb" vet -json ./... > "$out/$name.json" 2> "$out/$name.err") || rc=$?
  failed=""
  if [ "$rc" = 1 ]; then
    # Vet package by package and merge what loads.
    echo "[]" > "$out/$name.json"
    for pkg in $(cd "$src" && go list ./... 2>/dev/null); do
      prc=0
      (cd "$src" && "$mb" vet -json "$pkg" > "$out/$name.pkg.json" 2>> "$out/$name.err") || prc=$?
      if [ "$prc" = 1 ]; then
        failed="$failed ${pkg#"$module"}"
        continue
      fi
      jq -s '.[0] + .[1]' "$out/$name.json" "$out/$name.pkg.json" > "$out/$name.tmp" && mv "$out/$name.tmp" "$out/$name.json"
    done
    rm -f "$out/$name.pkg.json"
  fi
  secs=$(echo "$(now) - $t0" | bc)
  if [ ! -s "$out/$name.json" ]; then
    echo "mbench vet: exit status $rc and no output" >> "$out/$name.err"
    echo "[]" > "$out/$name.json"
  fi
  {
    printf '| %s | %s | %s |' "$module" "$version" "$nbench"
    for a in "${analyzers[@]}"; do
      printf ' %s |' "$(jq --arg a "$a" '[.[] | select(.analyzer == $a)] | length' "$out/$name.json")"
    done
    printf ' %s | %s | %.1f | %s |\n' "$(jq length "$out/$name.json")" "$rc" "$secs" "${failed:-}"
  } >> "$summary"
done

# Totals per analyzer.
{
  printf '| **total** | | |'
  for a in "${analyzers[@]}"; do
    printf ' %s |' "$(jq -s --arg a "$a" '[.[][] | select(.analyzer == $a)] | length' "$out"/*@*.json)"
  done
  printf ' %s | | | |\n' "$(jq -s '[.[][]] | length' "$out"/*@*.json)"
} >> "$summary"
cat "$summary"
