// Package lib is a package under test for an external test package.
package lib

import "testing"

// Build returns n keys.
func Build(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = n - i
	}
	return s
}

// Warm is a benchmark helper of the package under test; lib_test cannot
// see whether it resets the timer.
func Warm(b *testing.B) { b.ResetTimer() }
