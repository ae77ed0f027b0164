#!/usr/bin/env bash
# eval-vet-heldout.sh reproduces the `mbench vet` figures of
# docs/vet-heldout.md: the held-out check of the rules tuned on the modules
# of scripts/eval-vet.sh. None of the modules below is in that list. It
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
#
# usage: scripts/eval-vet-heldout.sh OUTDIR
# SCRATCH (default: a fresh temporary directory) holds the module trees; it
# must lie outside this repository. Needs go, jq and network access to the
# module proxy. On a 2-core VM it takes a few minutes.
set -euo pipefail
out=${1:?usage: eval-vet-heldout.sh OUTDIR}
repo=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)
scratch=${SCRATCH:-$(mktemp -d)}
mkdir -p "$scratch"
scratch=$(cd "$scratch" && pwd)
case "$scratch/" in "$repo"/*) echo "SCRATCH must lie outside $repo" >&2; exit 2 ;; esac

# The held-out modules and versions (latest releases on the proxy when it
# was run). None is in scripts/eval-vet.sh. Refused by the proxy (403) and
# so left out: kelindar/bitmap, cornelk/hashmap, yourbasic/bit,
# maypok86/otter, plar/go-adaptive-radix-tree. Left out for having no
# benchmarks: golang/protobuf v1.5.4, hashicorp/go-immutable-radix/v2 v2.1.0. Keep this list exactly as evaluated.
modules=(
  google.golang.org/protobuf@v1.36.12
  github.com/gorilla/mux@v1.8.1
  github.com/go-playground/validator/v10@v10.30.6
  github.com/mailru/easyjson@v0.9.2
  github.com/tinylib/msgp@v1.6.5
  github.com/andybalholm/brotli@v1.2.8
  github.com/minio/sha256-simd@v1.0.1
  github.com/spf13/cast@v1.10.0
  github.com/golang/groupcache@v0.0.0-20241129210726-2c02b8208cf8
  github.com/ericlagergren/decimal@v0.0.0-20190204014639-71cf34b7c2b5
  github.com/dgryski/go-farm@v0.0.0-20240924180020-3414d57e47da
  github.com/segmentio/fasthash@v1.0.3
  github.com/valyala/fastjson@v1.6.10
  github.com/axiomhq/hyperloglog@v0.3.0
  github.com/klauspost/reedsolomon@v1.14.2
  github.com/ulikunitz/xz@v0.5.17
  github.com/holiman/uint256@v1.3.2
  github.com/fxamacker/cbor/v2@v2.9.6
  github.com/golang/geo@v0.0.0-20260818125358-b200a1149890
  golang.org/x/crypto@v0.58.0
  github.com/BurntSushi/toml@v1.6.0
  gopkg.in/yaml.v3@v3.0.1
  github.com/patrickmn/go-cache@v2.1.0+incompatible
  github.com/alphadose/haxmap@v1.4.0
  github.com/orcaman/concurrent-map/v2@v2.0.1
  github.com/twmb/murmur3@v1.2.2
  github.com/OneOfOne/xxhash@v1.2.8
  lukechampine.com/uint128@v1.3.0
  github.com/dgryski/go-metro@v0.0.0-20250106013310-edb8663e5e33
  github.com/armon/go-radix@v1.0.0
  github.com/kamstrup/intmap@v0.5.2
  github.com/ugorji/go/codec@v1.3.2
  github.com/francoispqt/gojay@v1.2.13
  github.com/cloudflare/circl@v1.6.5
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
