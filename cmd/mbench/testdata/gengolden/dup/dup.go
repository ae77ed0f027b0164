package dup

// Twice sums xs twice over.
func Twice(xs []int) (int, int) {
	a, b := 0, 0
	//mbench:bench Sum
	for _, x := range xs {
		a += x
	}
	//mbench:bench Sum
	for _, x := range xs {
		b += x
	}
	return a, b
}
