// Package clean has benchmarks without mistakes.
package clean

// Double returns 2x.
func Double(x int) int { return 2 * x }
