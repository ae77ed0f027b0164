package handwritten

// Triple triples x.
//
//mbench:bench Triple
func Triple(x int) int { return 3 * x }
