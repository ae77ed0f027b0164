package c_test

import (
	"testing"

	"c"
)

var sink int

func BenchmarkExternal(b *testing.B) {
	for b.Loop() {
		sink = c.Add(1, 2) // want `all arguments of c.Add are constants`
		sink = c.SumTo(3)
	}
}
