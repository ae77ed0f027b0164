package a_test

import (
	"testing"

	"a"
)

var sink int

// Summaries of package a reach its external test package as facts.
func BenchmarkExternal(b *testing.B) {
	for i := 0; i < b.N; i++ {
		a.Add(i, 1) // want `result of a.Add is never used`
		a.Record(i)
		sink = a.Add(i, 2)
	}
}
