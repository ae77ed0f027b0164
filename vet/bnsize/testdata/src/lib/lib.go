// Package lib is a package under test for an external test package.
package lib

// Run does n operations: n is a loop count, recorded as a fact.
func Run(n int) int { // want Run:`loopCount\[0\]`
	s := 0
	for range n {
		s++
	}
	return s
}

// Build returns a slice of n elements: n is a size.
func Build(n int) []int { return make([]int, n) }
