#!/usr/bin/env bash
# removed.sh measures what `mbench vet -run -confirmed` makes of the
# false positives that the static rules once made and later rules removed:
# the findings listed in eval/vet/corpora/removed.tsv, made by the first
# runs of the fourth to fourteenth corpora. Had the rules not been
# changed, would running the benchmarks have confirmed them?
#
# The current analyzers no longer make these findings, so the script
# builds mbench with the rules that removed them switched off: a
# temporary worktree of revision RULES_OFF_REV (default 60299cd31255, the
# last revision that carries the patch) with its
# scripts/vet-rules-off.patch applied. It vets each package that holds one
# of the findings with that build, and checks the listed findings by
# running them with the checks of `mbench vet -run` of this tree and the
# fixes the old analyzers generate (eval/vet/vetreplay). bnsize and
# driftstate findings need no fix and are checked as listed.
#
# The module trees are those eval/vet/eval.sh fetched: give each corpus's
# SCRATCH directory as CORPUS=DIR. Writes
#
#   OUT/static-N.json  the rule-less vet output of each package
#   OUT/size.json      the size findings, as vet -json would print them
#   OUT/verdicts.tsv   one line per listed finding: corpus, analyzer,
#                      position, verdict, ns/op as written and protected
#                      (or at the largest b.N), reason
#
# and prints the verdicts counted by analyzer. Run it on an otherwise idle
# machine (about 10 minutes here).
#
# usage: eval/vet/removed.sh OUT CORPUS=SCRATCH...
# Needs go, git and jq.
set -euo pipefail
out=${1:?usage: removed.sh OUT CORPUS=SCRATCH...}
shift
repo=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)
export GOWORK=off
rev=${RULES_OFF_REV:-60299cd3125535cc39d2be30e74d7cf7c7897189}

declare -A scratch
for arg in "$@"; do
  case "$arg" in
    *=*) scratch[${arg%%=*}]=${arg#*=} ;;
    *) echo "removed.sh: $arg: want CORPUS=SCRATCH" >&2; exit 2 ;;
  esac
done

wt=$(mktemp -d)
trap 'git -C "$repo" worktree remove --force "$wt" >/dev/null 2>&1 || true' EXIT
git -C "$repo" worktree add -q --detach "$wt" "$rev"
git -C "$wt" apply "$wt/scripts/vet-rules-off.patch"
(cd "$wt" && go build -o "$out/mbench-rules-off" ./cmd/mbench)
(cd "$repo/eval" && go build -o "$out/vetreplay" ./vet/vetreplay)

# The list with full positions, the packages to vet, the size findings.
: > "$out/list.tsv"
: > "$out/corpus.tsv"
echo "[]" > "$out/size.json"
dirs=()
while IFS=$'\t' read -r corpus analyzer pos; do
  case "$corpus" in ''|'#'*) continue ;; esac
  dir=${scratch[$corpus]:-}
  [ -n "$dir" ] || { echo "removed.sh: no SCRATCH for corpus $corpus (give $corpus=DIR)" >&2; exit 2; }
  full="$dir/src/$pos"
  [ -f "${full%:*:*}" ] || { echo "removed.sh: $corpus: ${full%:*:*} does not exist" >&2; exit 2; }
  printf '%s\t%s\n' "$analyzer" "$full" >> "$out/list.tsv"
  printf '%s\t%s\n' "$full" "$corpus" >> "$out/corpus.tsv"
  case "$analyzer" in
    deadresult|constfold) dirs+=("$(dirname "${full%:*:*}")") ;;
    *) jq --arg a "$analyzer" --arg p "$full" '. + [{analyzer: $a, posn: $p}]' "$out/size.json" > "$out/size.tmp" &&
         mv "$out/size.tmp" "$out/size.json" ;;
  esac
done < "$repo/eval/vet/corpora/removed.tsv"

n=0
for dir in $(printf '%s\n' "${dirs[@]}" | sort -u); do
  n=$((n + 1))
  rc=0
  (cd "$dir" && "$out/mbench-rules-off" vet -json -only deadresult,constfold . > "$out/static-$n.json" 2> "$out/static-$n.err") || rc=$?
  if [ "$rc" != 0 ] && [ "$rc" != 3 ]; then
    echo "removed.sh: vetting $dir failed (exit $rc), see $out/static-$n.err" >&2
  fi
done

"$out/vetreplay" -only "$out/list.tsv" "$out"/static-*.json "$out/size.json" > "$out/replay.tsv" 2> "$out/replay.err"
awk -F'\t' 'NR == FNR { corpus[$1] = $2; next } { print corpus[$2] "\t" $0 }' "$out/corpus.tsv" "$out/replay.tsv" > "$out/verdicts.tsv"
missing=$(( $(grep -c . "$out/list.tsv") - $(grep -c . "$out/verdicts.tsv" || true) ))
[ "$missing" = 0 ] || echo "removed.sh: $missing listed findings were not made again (see $out/static-*.json)" >&2
cut -f2,4 "$out/verdicts.tsv" | sort | uniq -c
