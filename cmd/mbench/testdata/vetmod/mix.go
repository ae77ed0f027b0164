// Package vetmod has benchmarks with the mistakes mbench vet finds.
package vetmod

// Mix scrambles the bits of x (a finaliser of MurmurHash3).
func Mix(x uint64) uint64 {
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	x *= 0xc4ceb9fe1a85ec53
	x ^= x >> 33
	return x
}
