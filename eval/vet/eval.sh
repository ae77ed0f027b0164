#!/usr/bin/env bash
# eval.sh reproduces the `mbench vet` figures of one corpus of real Go
# modules (docs/eval/vet.md), pinned in eval/vet/corpora/CORPUS.txt (one
# MODULE@VERSION a line, # comments). The corpora, in the order they were
# run: tuning (51 modules the rules were tuned on), heldout, fresh, fourth,
# fifth, sixth, seventh, eighth, ninth, tenth, eleventh, twelfth,
# thirteenth, fourteenth, fifteenth, sixteenth and seventeenth, each of
# modules in none of the lists before it.
#
# It fetches each module from the module proxy into a scratch directory,
# builds mbench, runs `mbench vet -json ./...` in the module's root, one
# module at a time, and writes
#
#   OUTDIR/MODULE@VERSION.json   the findings (module path with / as _)
#   OUTDIR/MODULE@VERSION.err    stderr of mbench vet (load errors)
#   OUTDIR/summary.md            findings per analyzer per module, exit
#                                status and wall time of each module
#
# A module whose packages do not all load (exit status 1), or on which
# mbench vet crashes (exit status 2), is vetted again package by package;
# the packages that still fail are listed in its .err file and the summary.
#
# usage: eval/vet/eval.sh CORPUS OUTDIR
# SCRATCH (default: a fresh temporary directory) holds the module trees; it
# must lie outside this repository. VET_FLAGS (default empty) is passed to
# mbench vet before -json, e.g. VET_FLAGS="-only deadresult". Needs go, jq,
# bc and the module proxy.
# On a 2-core VM each corpus takes one to two minutes with a warm cache.
set -euo pipefail
corpus=${1:?usage: eval.sh CORPUS OUTDIR}
out=${2:?usage: eval.sh CORPUS OUTDIR}
repo=$(cd "$(dirname "$0")/../.." && pwd)
list="$repo/eval/vet/corpora/$corpus.txt"
[ -f "$list" ] || { echo "eval.sh: no corpus $corpus (see eval/vet/corpora)" >&2; exit 2; }
mkdir -p "$out"
out=$(cd "$out" && pwd)
scratch=${SCRATCH:-$(mktemp -d)}
mkdir -p "$scratch"
scratch=$(cd "$scratch" && pwd)
case "$scratch/" in "$repo"/*) echo "SCRATCH must lie outside $repo" >&2; exit 2 ;; esac

# A module zip may ship a go.work whose other modules it lacks
# (dd-trace-go, mongo-driver): vet each module on its own.
export GOWORK=off

mapfile -t modules < <(sed -e 's/#.*//' -e 's/[[:space:]]*$//' "$list" | grep -v '^$')
vet_flags=${VET_FLAGS:-}
analyzers=(deadresult constfold stoptimer bnsize driftstate)

mb="$out/mbench"
(cd "$repo" && go build -o "$mb" ./cmd/mbench)

# fetch MODULE VERSION: a writable copy of the module in $scratch, with a
# complete go.sum; prints its path.
fetch() {
  local module=$1 version=$2 dir dst
  [ -f "$scratch/go.mod" ] || (cd "$scratch" && go mod init veteval >/dev/null 2>&1)
  local info
  info=$(cd "$scratch" && GOFLAGS=-mod=mod go mod download -json "$module@$version" 2> "$scratch/fetch.err") || true
  dir=$(jq -r '.Dir // empty' <<<"$info" 2>/dev/null) || true
  if [ -z "$dir" ] || [ ! -d "$dir" ]; then
    # Not downloadable here (the proxy refuses it, or its go line asks for
    # a newer toolchain): say why, and vet nothing.
    local why
    why=$(jq -r '.Error // empty' <<<"$info" 2>/dev/null || true)
    [ -n "$why" ] || why=$(head -1 "$scratch/fetch.err")
    echo "not fetched: $(head -1 <<<"$why")" >&2
    return 1
  fi
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
  if ! src=$(fetch "$module" "$version" 2> "$out/$name.err"); then
    cat "$out/$name.err" >&2
    echo "[]" > "$out/$name.json"
    printf '| %s | %s | - |' "$module" "$version" >> "$summary"
    printf ' - |%.0s' "${analyzers[@]}" >> "$summary"
    printf ' 0 | - | 0 | %s |\n' "$(sed 's/|/\\|/g' "$out/$name.err")" >> "$summary"
    continue
  fi
  nbench=$( (grep -rhE '^func Benchmark' --include='*_test.go' "$src" || true) | wc -l)
  t0=$(now)
  rc=0
  (cd "$src" && "$mb" vet $vet_flags -json ./... > "$out/$name.json" 2> "$out/$name.err") || rc=$?
  failed=""
  if [ "$rc" = 1 ] || [ "$rc" = 2 ]; then
    # Vet package by package and merge what loads (exit 2: mbench crashed,
    # as on circl's sign/bls; the other packages are still vetted).
    echo "[]" > "$out/$name.json"
    for pkg in $(cd "$src" && go list ./... 2>/dev/null); do
      prc=0
      (cd "$src" && "$mb" vet $vet_flags -json "$pkg" > "$out/$name.pkg.json" 2>> "$out/$name.err") || prc=$?
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
