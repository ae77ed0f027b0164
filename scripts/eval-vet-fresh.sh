#!/usr/bin/env bash
# eval-vet-fresh.sh reproduces the `mbench vet` figures of
# docs/vet-fresh.md: a second fresh check on modules that are in neither
# scripts/eval-vet.sh nor scripts/eval-vet-heldout.sh. It
# fetches popular Go modules at pinned versions from the module proxy into
# a scratch directory, builds mbench, runs `mbench vet -json ./...` in each
# module's root, one module at a time, and writes
#
#   OUTDIR/MODULE@VERSION.json   the findings (module path with / as _)
#   OUTDIR/MODULE@VERSION.err    stderr of mbench vet (load errors)
#   OUTDIR/summary.md            findings per analyzer per module, exit
#                                status and wall time of each module
#
# A module whose packages do not all load (exit status 1), or on which
# mbench vet crashes (exit status 2), is vetted again
# package by package; the packages that still fail are listed in its .err
# file and in the summary.
# usage: scripts/eval-vet-fresh.sh OUTDIR
# SCRATCH (default: a fresh temporary directory) holds the module trees; it
# must lie outside this repository. Needs go, jq and network access to the
# module proxy. On a 2-core VM it takes a few minutes.
set -euo pipefail
out=${1:?usage: eval-vet-fresh.sh OUTDIR}
repo=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)
scratch=${SCRATCH:-$(mktemp -d)}
mkdir -p "$scratch"
scratch=$(cd "$scratch" && pwd)
case "$scratch/" in "$repo"/*) echo "SCRATCH must lie outside $repo" >&2; exit 2 ;; esac

# The fresh modules and versions (latest on the proxy when it was run,
# 2026-11-22). None is in scripts/eval-vet.sh or scripts/eval-vet-heldout.sh.
# Modules without a single Benchmark function in the files ./... vets
# (goccy/go-yaml, samber/lo, goldmark: benchmarks in a separate module
# or in _benchmark/; hashstructure/v2, tidwall/rtree, tidwall/sjson: none)
# stay in the list as evaluated. Keep this list exactly as evaluated.
modules=(
  github.com/alecthomas/chroma/v2@v2.27.0
  github.com/expr-lang/expr@v1.17.8
  github.com/go-logr/logr@v1.4.4
  github.com/gobwas/glob@v1.1.0
  github.com/goccy/go-yaml@v1.19.2
  github.com/golang-jwt/jwt/v5@v5.3.1
  github.com/google/cel-go@v0.32.0
  github.com/hashicorp/go-version@v1.9.0
  github.com/klauspost/cpuid/v2@v2.4.2
  github.com/mitchellh/hashstructure/v2@v2.0.2
  github.com/mitchellh/mapstructure@v1.5.0
  github.com/panjf2000/ants/v2@v2.12.1
  github.com/petar/GoLLRB@v0.0.0-20210522233825-ae3b015fd3e9
  github.com/samber/lo@v1.53.0
  github.com/sourcegraph/conc@v0.3.0
  github.com/tidwall/match@v1.2.0
  github.com/tidwall/rtree@v1.10.0
  github.com/tidwall/sjson@v1.2.5
  github.com/yuin/goldmark@v1.8.7
  golang.org/x/exp@v0.0.0-20261014143641-f0251eb4aa3e
  golang.org/x/image@v0.47.0
  golang.org/x/net@v0.62.0
  golang.org/x/sync@v0.24.0
  golang.org/x/time@v0.16.0
  github.com/minio/highwayhash@v1.0.4
  github.com/zeebo/blake3@v0.2.4
  github.com/mattn/go-runewidth@v0.0.31
  github.com/rivo/uniseg@v0.4.7
  github.com/gofrs/uuid/v5@v5.5.1
  github.com/segmentio/ksuid@v1.0.4
  github.com/dchest/siphash@v1.2.3
  github.com/mr-tron/base58@v1.3.0
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
    # A module zip keeps vendor/modules.txt but not the vendored code
    # (cel-go v0.32.0): with it, go selects -mod=vendor and no package
    # loads. Drop the stub so the build uses the module cache.
    if [ -d "$dst/vendor" ] && [ -z "$(find "$dst/vendor" -name '*.go' -print -quit)" ]; then
      rm -rf "$dst/vendor"
    fi
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
  if [ "$rc" = 1 ] || [ "$rc" = 2 ]; then
    # Vet package by package and merge what loads (exit 2: mbench crashed,
    # as on circl's sign/bls; the other packages are still vetted).
    echo "[]" > "$out/$name.json"
    for pkg in $(cd "$src" && go list ./... 2>/dev/null); do
      prc=0
      (cd "$src" && "$mb" vet -json "$pkg" > "$out/$name.pkg.json" 2>> "$out/$name.err") || prc=$?
      if [ "$prc" = 1 ] || [ "$prc" = 2 ]; then
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
