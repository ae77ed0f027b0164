#!/usr/bin/env bash
# size-load.sh measures how `mbench vet -run` judges a bnsize finding
# on a benchmark whose cost per op does NOT depend on b.N (about 250 ns of
# arithmetic; b.N only sizes an unused allocation) while two CPU-bound
# shell loops load the machine. A right verdict is "refuted" or
# "undetermined"; "confirmed" is a false confirmation.
#
# usage: eval/vet/size-load.sh [REV]
# Builds mbench from the working tree and, given REV, also from that git
# revision, and runs them interleaved, ROUNDS (default 3) times each.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
rev=${1:-}
rounds=${ROUNDS:-3}
tmp=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; git -C "$repo" worktree remove --force "$tmp/old" 2>/dev/null || true; rm -rf "$tmp"' EXIT

(cd "$repo" && go build -o "$tmp/mbench-new" ./cmd/mbench)
bins=(new)
if [ -n "$rev" ]; then
  git -C "$repo" worktree add --detach "$tmp/old" "$rev" >/dev/null 2>&1
  (cd "$tmp/old" && go build -o "$tmp/mbench-old" ./cmd/mbench)
  bins=(old new)
fi

mod="$tmp/fx"
mkdir -p "$mod"
cat > "$mod/go.mod" <<'GO'
module example.com/fx

go 1.26
GO
cat > "$mod/fx.go" <<'GO'
package fx

// Prepare allocates room for n values; n is not a loop count.
func Prepare(n int) []int { return make([]int, 0, n) }

// Work does a fixed amount of arithmetic.
func Work(x int) int {
	s := 0
	for j := 0; j < 1000; j++ {
		s += j ^ x
	}
	return s
}
GO
cat > "$mod/fx_test.go" <<'GO'
package fx

import "testing"

var sink int

func BenchmarkFixed(b *testing.B) {
	Prepare(b.N)
	for i := 0; i < b.N; i++ {
		sink += Work(i)
	}
}
GO

sh -c 'while :; do :; done' &
sh -c 'while :; do :; done' &
cd "$mod"
for i in $(seq "$rounds"); do
  for v in "${bins[@]}"; do
    printf '%s %d: ' "$v" "$i"
    "$tmp/mbench-$v" vet -run -only bnsize . 2>&1 | sed -n 's/^[[:space:]]*\(.* by running it: .*\)/\1/p' || true
  done
done
