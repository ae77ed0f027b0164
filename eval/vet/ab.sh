#!/usr/bin/env bash
# ab.sh checks one `mbench vet` finding by hand, as for docs/eval/vet.md:
# it builds the test binary of PKGDIR as written (A) and with FILE edited by
# SEDSCRIPT, plus the Go declarations DECLS appended to it (B: the result kept
# in a package-level sink, or b.ResetTimer() inserted before the loop),
# through `go test -overlay` (the module's files are not changed), then runs
# the benchmarks matching BENCHREGEX five times each, A and B alternating,
# with -benchtime 200ms, and prints the five ns/op of each, sorted.
#
# usage: eval/vet/ab.sh PKGDIR FILE BENCHREGEX SEDSCRIPT [DECLS]
# example (bitset v1.29.0, BenchmarkPEXT: 1.7 ns/op as written, 16 ns/op kept):
#   eval/vet/ab.sh . bitset_test.go '^BenchmarkPEXT$' '2930s/_ = r.*/abSink = r/' 'var abSink uint64'
set -euo pipefail
pkg=${1:?usage: ab.sh PKGDIR FILE BENCHREGEX SEDSCRIPT [DECLS]}
file=${2:?} re=${3:?} sedscr=${4:?} decls=${5:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pkg=$(cd "$pkg" && pwd)
sed "$sedscr" "$pkg/$file" > "$tmp/edited.go"
printf '\n%s\n' "$decls" >> "$tmp/edited.go"
diff "$pkg/$file" "$tmp/edited.go" | grep '^[<>]' | grep -v '^> $' >&2 || true
printf '{"Replace":{"%s":"%s"}}' "$pkg/$file" "$tmp/edited.go" > "$tmp/overlay.json"
cd "$pkg"
go test -c -vet=off -o "$tmp/A.test" .
go test -c -vet=off -overlay "$tmp/overlay.json" -o "$tmp/B.test" .
for r in 1 2 3 4 5; do
  for v in A B; do
    "$tmp/$v.test" -test.run '^$' -test.bench "$re" -test.benchtime 200ms 2>&1 |
      awk -v v="$v" '/^Benchmark/{print v, $1, $3}'
  done
done | sort -k2,2 -k1,1 -k3,3g | awk '{k=$1" "$2; a[k]=a[k]" "$3} END{for(k in a) print k":"a[k]}' | sort -k2
