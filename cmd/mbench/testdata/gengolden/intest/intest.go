package intest

// Double doubles x.
func Double(x int) int { return 2 * x }
