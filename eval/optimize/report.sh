#!/usr/bin/env bash
# report.sh prints the markdown tables of docs/eval/optimize.md from the
# output directory of eval/optimize/eval.sh. Needs jq.
#
# usage: eval/optimize/report.sh OUTDIR
set -euo pipefail
out=${1:?usage: report.sh OUTDIR}
mb="$out/mbench"
db="$out/optimize.db"
pct() { awk -v v="$1" 'BEGIN { printf "%.1f%%", 100*v }'; }

echo "### Plans (threshold 1%)"
echo
echo "| full run | benchmarks | metric | full | plan | saved | stable | plan within 1/3/5% | minimum within 1/3/5% (saved) | random within 1/3/5% (saved) |"
echo "| --- | ---: | --- | ---: | ---: | ---: | ---: | --- | --- | --- |"
for f in "$out"/optimize-*-*.json; do
  case $f in *replay*) continue;; esac
  base=$(basename "$f" .json); base=${base#optimize-}
  jq -r --arg name "$base" '
    def p: if . == null then "-" else (. * 1000 | round / 10 | tostring) + "%" end;
    def w: "\(.within1|p) / \(.within3|p) / \(.within5|p)";
    def secs: (.seconds | round | tostring) + " s";
    [$name, (.benchmarks|length|tostring), .metric, (.full|secs), (.plan|secs), (.plan.saving|p),
     "\(.plan.stable)/\(.benchmarks|length)", (.plan|w), "\(.minimum|w) (\(.minimum.saving|p))", "\(.random|w) (\(.random.saving|p))"]
    | "| " + join(" | ") + " |"' "$f" | sed -E 's/^\| (gotoml-v[0-9.]+|zap-v[0-9.]+)-[a-z-]+ /| \1 /'
done
echo
echo "### Change detection replay (plan from the oldest version; 99% CIs, change ≥ 3%)"
echo
echo "| metric | comparisons | changed (full) | TP | FP | FN | TN | reversed | FPR | FNR |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
for f in "$out"/replay-*.json; do
  m=$(basename "$f" .json); m=${m#replay-}; m=${m//-/ }; m=${m/rciw /rciw-}
  jq -r --arg m "$m" '
    def p: if . == null then "-" else (. * 1000 | round / 10 | tostring) + "%" end;
    .counts as $c | [$m, ([.pairs[].comparisons|length]|add|tostring), (($c.tp+$c.fn)|tostring),
    ($c.tp|tostring), ($c.fp|tostring), ($c.fn|tostring), ($c.tn|tostring), ($c.reversed|tostring), ($c.fpr|p), ($c.fnr|p)]
    | "| " + join(" | ") + " |"' "$f"
done
if [ -f "$out/plan.time" ] && [ -f "$out/bounded.time" ]; then
  echo
  echo "### Running the plan (newest go-toml, rciw-mean plan from its own full run)"
  echo
  echo "| run | wall time | benchmarks within 3% of the full run | within 5% |"
  echo "| --- | ---: | ---: | ---: |"
  newest=$(ls "$out"/gotoml-*.time | sort -V | tail -1); newest=$(basename "$newest" .time)
  printf '| full (-levels 3,5,5) | %.0f s | - | - |\n' "$(cat "$out/$newest.time")"
  for mode in plan bounded; do
    "$mb" compare -db "$db" -format csv "$newest" "$newest-$mode" > "$out/$mode-vs-full.csv" 2>/dev/null || true
    read -r n w3 w5 < <(awk -F, 'NR>1 && $0 !~ /^geomean/ { n++; r=$0; split(r, a, ","); }
      NR==1 { for (i=1;i<=NF;i++) if ($i=="ratio") c=i; next }
      c && $c != "" { d=$c-1; if (d<0) d=-d; if (d<=0.03) w3++; if (d<=0.05) w5++ }
      END { printf "%d %d %d\n", n, w3, w5 }' "$out/$mode-vs-full.csv")
    label=$([ "$mode" = plan ] && echo "plan" || echo "plan bounding -criterion cv")
    printf '| %s | %.0f s | %d/%d | %d/%d |\n' "$label" "$(cat "$out/$mode.time")" "$w3" "$n" "$w5" "$n"
  done
fi
