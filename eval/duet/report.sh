#!/usr/bin/env bash
# report.sh prints the markdown tables of docs/eval/ab.md's duet section from
# the output directory of eval/duet/eval.sh. Needs jq.
#
# usage: eval/duet/report.sh OUTDIR
set -euo pipefail
out=${1:?usage: report.sh OUTDIR}
# One line per compared benchmark: method load trial module variant name ratio lo hi verdict
rows() {
  for f in "$out"/duet-*.json "$out"/duetcpu-*.json "$out"/seq-*.json; do
    [ -s "$f" ] || continue
    base=$(basename "$f" .json)
    IFS=- read -r method load trial name variant <<< "$base"
    jq -r --arg pre "$method $load $trial $name $variant" \
      '.rows[] | "\($pre) \(.name|gsub(" ";"_")) \(.ratio) \(.lo // "nan") \(.hi // "nan") \(.verdict|gsub(" ";"_"))"' "$f"
  done
}
rows > "$out/rows.txt"

echo "### Relative width of the 99% CI of the change (median over benchmarks × trials × variants)"
echo
echo "| load | duet (wall time) | duet (CPU time) | sequential | sequential / duet wall (median of paired ratios) | sequential / duet CPU | cases |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"
for load in none noisy; do
  awk -v load="$load" '
    $2 == load && $8 != "nan" { w = ($9 - $8) / $7; key = $3 " " $4 " " $5 " " $6; if ($1 == "duet") d[key] = w; else if ($1 == "duetcpu") c[key] = w; else s[key] = w }
    function median(a, n,   i, j, t) { for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
      return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
    END { n = 0; m = 0; for (k in d) if (k in s) { n++; dd[n] = d[k]; ss[n] = s[k]; rr[n] = s[k] / d[k] }
      for (k in c) if (k in s) { m++; cc[m] = c[k]; rc[m] = s[k] / c[k] }
      if (n == 0) exit
      printf "| %s | %.2f%% | %s | %.2f%% | %.1f× | %s | %d |\n", load, 100 * median(dd, n), (m ? sprintf("%.2f%%", 100 * median(cc, m)) : "-"),
        100 * median(ss, n), median(rr, n), (m ? sprintf("%.1f×", median(rc, m)) : "-"), n }' "$out/rows.txt"
done
echo
echo "### A/A: benchmarks reported changed (verdict, threshold 3%) and intervals excluding 1"
echo
echo "| load | method | changed | CI excludes 1 | comparisons |"
echo "| --- | --- | ---: | ---: | ---: |"
for load in none noisy; do for m in duet duetcpu seq; do
  awk -v load="$load" -v m="$m" '$1 == m && $2 == load && $5 == "aa" { n++; if ($10 != "no_change") c++; if ($8 != "nan" && ($8 > 1 || $9 < 1)) x++ }
    END { if (n) printf "| %s | %s | %d | %d | %d |\n", load, (m == "seq" ? "sequential" : m == "duetcpu" ? "duet, CPU time" : "duet"), c, x, n }' "$out/rows.txt"
done; done
echo
echo "### Injected slowdowns: detected (99% CI above 1) / reported slower (threshold 3%)"
echo
echo "| load | method | +1% | +2% | +5% | median estimate at +5% |"
echo "| --- | --- | ---: | ---: | ---: | ---: |"
for load in none noisy; do for m in duet duetcpu seq; do
  awk -v load="$load" -v m="$m" '
    $1 == m && $2 == load && $5 ~ /^slow/ { v = $5; n[v]++; if ($8 != "nan" && $8 > 1) d[v]++; if (($10 == "slower" || $10 == "worse")) s[v]++; if (v == "slow5") e[++k] = $7 }
    END { if (!n["slow1"]) exit
      for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (e[j] < e[i]) { t = e[i]; e[i] = e[j]; e[j] = t }
      med = k % 2 ? e[(k + 1) / 2] : (e[k / 2] + e[k / 2 + 1]) / 2
      printf "| %s | %s | %d/%d, %d | %d/%d, %d | %d/%d, %d | %+.2f%% |\n", load, (m == "seq" ? "sequential" : m == "duetcpu" ? "duet, CPU time" : "duet"),
        d["slow1"], n["slow1"], s["slow1"], d["slow2"], n["slow2"], s["slow2"], d["slow5"], n["slow5"], s["slow5"], 100 * (med - 1) }' "$out/rows.txt"
done; done
echo
echo "### Wall time per comparison (median), start skew and pairing gain"
echo
for m in duet seq; do
  printf '%s: ' "$m"; cat "$out"/$m-*.time 2>/dev/null | sort -n | awk '{ a[NR] = $1 } END { if (NR) printf "median %.0f s over %d comparisons\n", a[int((NR + 1) / 2)], NR }'
done
grep -h "start skew" "$out"/duet-*.log 2>/dev/null | sed -E 's/.*median ([0-9.]+)%, max ([0-9.]+)%.*/\1 \2/' | sort -n |
  awk '{ m[NR] = $1; x = ($2 > x ? $2 : x) } END { if (NR) printf "start skew: median of the per-comparison medians %.4f%% of the iteration; largest max %.3f%%\n", m[int((NR + 1) / 2)], x }'
for load in none noisy; do
  grep -h "^pairing:" "$out"/duet-$load-*.log 2>/dev/null | sed -E 's/.*(intervals|are) ([0-9.]+)×.*/\2/' | sort -n |
    awk -v load="$load" '{ a[NR] = $1 } END { if (NR) printf "pairing, load %s: shuffled intervals %.1f× the paired width (median over %d comparisons)\n", load, a[int((NR + 1) / 2)], NR }'
done
