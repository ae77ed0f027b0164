package lib_test

import (
	"testing"

	"lib"
)

var sink int

func BenchmarkRun(b *testing.B) {
	sink = lib.Run(b.N)
}

func BenchmarkBuild(b *testing.B) {
	sink = len(lib.Build(b.N)) // want `b.N used as a problem size`
}
