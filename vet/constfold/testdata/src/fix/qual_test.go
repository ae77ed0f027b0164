package fix

import (
	"math"
	"os"
	"testing"
)

// A constant of another package, named through its import.
func BenchmarkQualified(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sink = Mix(math.MaxInt8, width) // want `all arguments of fix.Mix are constants`
	}
}

// A constant of type io/fs.FileMode, a package the file does not import,
// passed as an os.FileMode: the variable has the parameter's type.
func BenchmarkAlias(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sink = Perm(os.ModeDir) // want `all arguments of fix.Perm are constants`
	}
}
