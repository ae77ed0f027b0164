#!/usr/bin/env bash
# switch-asm.sh measures which dead calls of constant-returning
# branchy functions the gc compiler of this machine deletes, the evidence
# behind purity's Switch summary (a dead call of a function that chooses
# constants with a binary-search switch keeps its comparisons).
#
# It writes a throwaway module with one benchmark per shape, each calling
# the function in a b.N loop with its result unused, builds the test
# binary, and counts the compare instructions (CMP, TEST) in each
# benchmark's disassembly. The empty benchmark gives the loop's own
# comparisons; a shape with more kept its branches.
#
# usage: eval/vet/switch-asm.sh
# amd64 and arm64 are supported (the compare mnemonics differ).
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
cat > go.mod <<'EOF'
module switchasm

go 1.24
EOF
cat > shapes.go <<'EOF'
package switchasm

func StrSwitch2(s string) int {
	switch s {
	case "env":
		return 1
	case "version":
		return 2
	}
	return 0
}

func StrSwitch3(s string) (int, bool) {
	switch s {
	case "env":
		return 1, true
	case "version":
		return 2, true
	case "service":
		return 3, true
	}
	return 0, false
}

func IntSwitch3(x int) int {
	switch x {
	case 1:
		return 10
	case 7:
		return 20
	case 9:
		return 30
	}
	return 0
}

func IntSwitch4(x int) int {
	switch x {
	case 1:
		return 10
	case 7:
		return 20
	case 9:
		return 30
	case 15:
		return 40
	}
	return 0
}

func IntChain8(x int) int {
	if x == 1 {
		return 10
	}
	if x == 7 {
		return 20
	}
	if x == 9 {
		return 30
	}
	if x == 15 {
		return 40
	}
	if x == 22 {
		return 50
	}
	if x == 23 {
		return 60
	}
	if x == 29 {
		return 70
	}
	if x == 31 {
		return 80
	}
	return 0
}

func StrEq1(s string) bool {
	if s == "version" {
		return true
	}
	return false
}

func IsDigit(c byte) bool {
	if c >= '0' && c <= '9' {
		return true
	}
	return false
}
EOF
# Each shape and the input its benchmark passes.
shapes=(
	"StrSwitch2 strs" "StrSwitch3 strs" "IntSwitch3 ints" "IntSwitch4 ints"
	"IntChain8 ints" "StrEq1 strs" "IsDigit bytes"
)
{
	cat <<'EOF'
package switchasm

import "testing"

var (
	strs  = []string{"env", "version", "service", "other"}
	ints  = []int{1, 4, 9, 22}
	bytes = []byte("a1b2")
)

func BenchmarkEmpty(b *testing.B) {
	for i := 0; i < b.N; i++ {
		_ = ints[i&3]
	}
}
EOF
	for s in "${shapes[@]}"; do
		read -r name input <<<"$s"
		printf '\nfunc Benchmark%s(b *testing.B) {\n\tfor i := 0; i < b.N; i++ {\n\t\t%s(%s[i&3])\n\t}\n}\n' "$name" "$name" "$input"
	done
} > shapes_test.go
go test -c -vet=off -o s.test . >/dev/null
count() {
	go tool objdump -s "^switchasm\.Benchmark$1\$" s.test | grep -cE '\s(CMP[A-Z]*|TEST[A-Z]*|CMN|TST|CB[N]?Z|TB[N]?Z)\s' || true
}
base=$(count Empty)
echo "$(go version)"
printf '%-12s %s\n' shape "compares beyond the empty loop's ($base)"
for s in "${shapes[@]}"; do
	s=${s%% *}
	n=$(count "$s")
	verdict=deleted
	if [ "$n" -gt "$base" ]; then verdict=kept; fi
	printf '%-12s %d (%s)\n' "$s" $((n - base)) "$verdict"
done
