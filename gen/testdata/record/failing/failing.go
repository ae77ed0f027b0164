// Package failing has a segment whose tests fail after running it.
package failing

// Double doubles n.
func Double(n int) int {
	d := 0
	//mbench:bench Double
	d = 2 * n
	return d
}
