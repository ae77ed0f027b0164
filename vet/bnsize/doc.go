// Package bnsize defines an Analyzer that reports b.N used as the size of
// the problem a benchmark solves instead of as its iteration count.
//
// # Analyzer bnsize
//
// The testing package grows b.N until a run lasts long enough and reports
// the time divided by b.N as ns/op. That is the cost of one operation only
// if every iteration does the same work. When b.N sizes the input
// (Fib(b.N), sorting a slice of b.N elements once) the work per operation
// changes with b.N, which the framework picks, so ns/op describes no fixed
// operation and two runs cannot be compared; the working set also moves
// from cache to memory as b.N grows. Sestoft, "Microbenchmarks in Java and
// C#" (2015), keeps the problem size a parameter of its own, apart from
// the iteration count.
//
// Reported, outside loops (where b.N counts or indexes): an argument
// computed from b.N (b.N itself, +, -, *, /, shifts and conversions of it,
// or a local variable defined that way) passed to a function of the package
// under test whose parameter is not a loop count; and a slice or string
// made with b.N elements (make, strings.Repeat, bytes.Repeat) passed whole
// to the package under test or to an in-place sort. A parameter is a loop
// count when the function uses it in a loop condition or a range, itself
// or through the functions it passes it to; this is recorded as a fact, so
// an external test package is judged the same way. The function passed to
// b.RunParallel is checked like a benchmark, outside its pb.Next loop.
//
// Not reported: b.N passed to a parameter that is not a number
// (fmt-style ...any), to functions outside the package under test or to
// calls that also receive b; comparisons; b.N under % or &; results,
// receivers and b.N-sized slices that a loop later uses (inputs generated
// for the iterations, a container sized for them, a writer over a buffer of
// b.N bytes); and slices made with b.N elements that are indexed or ranged
// over afterwards.
package bnsize
