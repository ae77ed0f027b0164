// Package vetgolden has one benchmark with each mistake mbench vet finds by
// default, and one without.
package vetgolden

// Mix scrambles the bits of x (a finaliser of MurmurHash3).
func Mix(x uint64) uint64 {
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	return x
}

// Fib returns the n-th Fibonacci number, the slow way.
func Fib(n int) int {
	if n < 2 {
		return n
	}
	return Fib(n-1) + Fib(n-2)
}

// Queue is a short-operation type: Push and Pop take a few nanoseconds.
type Queue struct{ items []int }

func (q *Queue) Push(x int)   { q.items = append(q.items, x) }
func (q *Queue) Pop() (x int) { x, q.items = q.items[0], q.items[1:]; return x }
