package c_test

import (
	"testing"

	"c"
)

var sink int

func BenchmarkExternal(b *testing.B) {
	for b.Loop() {
		sink = c.Mix(1, 2) // want `all arguments of c.Mix are constants`
		sink = c.SumTo(3)
	}
}
