#!/usr/bin/env bash
# run.sh checks by running them the findings that eval/vet/eval.sh
# wrote to VETOUT: for each package that has findings of the analyzers
# `mbench vet -run` can check (deadresult, constfold, bnsize, driftstate),
# it runs `mbench vet -run -json -only <those analyzers> .` in the
# package's directory, one package at a time, and writes
#
#   RUNOUT/NNN.json   the package's findings with their verdicts
#   RUNOUT/NNN.err    stderr of mbench vet -run
#   RUNOUT/verdicts.tsv
#                     one line per finding of VETOUT: analyzer, position,
#                     verdict (confirmed, refuted, undetermined, or
#                     "missing" when -run did not make the finding again,
#                     "unchecked" for an analyzer -run cannot check), reason
#
# The module trees must still be where eval/vet/eval.sh put them (its SCRATCH):
# the positions in VETOUT name them. Run it on an otherwise idle machine:
# the size check raises its bar by the CPU other processes use.
#
# usage: eval/vet/run.sh VETOUT RUNOUT
# Needs go and jq.
set -euo pipefail
vetout=${1:?usage: run.sh VETOUT RUNOUT}
out=${2:?usage: run.sh VETOUT RUNOUT}
repo=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)
export GOWORK=off

mb="$out/mbench"
(cd "$repo" && go build -o "$mb" ./cmd/mbench)

checkable='["deadresult","constfold","bnsize","driftstate"]'
all=$(jq -s '[.[][]]' "$vetout"/*@*.json)

# The package directories with checkable findings, each with the
# analyzers to run there.
mapfile -t pkgs < <(jq -r --argjson c "$checkable" '
  [.[] | select(.analyzer as $a | $c | index($a))
       | {dir: (.posn | sub(":[0-9]+:[0-9]+$"; "") | sub("/[^/]*$"; "")), analyzer}]
  | group_by(.dir)[]
  | "\(.[0].dir)\t\([.[].analyzer] | unique | join(","))"' <<<"$all")

i=0
for line in "${pkgs[@]}"; do
  dir=${line%%$'\t'*} only=${line##*$'\t'}
  i=$((i + 1))
  n=$(printf '%03d' "$i")
  echo "== $n $dir ($only)" >&2
  if [ ! -f "$out/$n.json" ]; then
    (cd "$dir" && "$mb" vet -run -json -only "$only" . > "$out/$n.part" 2> "$out/$n.err") || true
    [ -s "$out/$n.part" ] || echo "[]" > "$out/$n.part"
    mv "$out/$n.part" "$out/$n.json"
  fi
done

# Join: every finding of VETOUT with the verdict -run gave it.
ran=$(jq -s '[.[][]]' "$out"/[0-9]*.json)
jq -r --argjson ran "$ran" --argjson c "$checkable" '
  .[] | . as $f
  | ($ran | map(select(.posn == $f.posn and .analyzer == $f.analyzer)) | first) as $r
  | [ $f.analyzer, $f.posn,
      (if ($c | index($f.analyzer)) == null then "unchecked"
       elif $r == null then "missing"
       else ($r.check // "missing") end),
      ($r.check_reason // "") ] | @tsv' <<<"$all" > "$out/verdicts.tsv"
cut -f1,3 "$out/verdicts.tsv" | sort | uniq -c
