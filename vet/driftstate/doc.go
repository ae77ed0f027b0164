// Package driftstate defines an Analyzer that reports benchmark loops that
// change the state they measure, so that later iterations measure
// something else than the first.
//
// # Analyzer driftstate
//
// A benchmark loop repeats one operation; if the operation leaves its
// input changed, the iterations after the first measure another one.
// Rodriguez-Cancio, Combemale and Baudry, "Automatic Microbenchmark
// Generation to Prevent Dead Code Elimination and Constant Folding"
// (2016), §2.4, show a list sorted in every iteration: after the first, the
// benchmark sorts sorted data, which they measured to be more than twice
// as fast or as slow as sorting unsorted data. Sestoft, "Microbenchmarks in
// Java and C#" (2015), gives the same example. Growth drifts as well: a
// slice or map that the loop fills and never resets makes later iterations
// copy more and gives the collector more to scan.
//
// Reported in timed loops (b.N, b.Loop and pb.Next):
//
//   - an in-place sort (package sort, slices.Sort and its variants, and
//     functions of the package under test named *sort* that take a slice
//     and return nothing) of a slice declared outside the loop that the
//     loop mentions nowhere else;
//   - xs = append(xs, ...) on a slice declared outside the loop that the
//     loop never assigns otherwise;
//   - m[k] = v on a map declared outside the loop, with a key computed from
//     the loop's iteration variable (not under % or &), that the loop never
//     deletes from, clears or reassigns.
//
// Not reported: sorts of data sorted before the loop (sorted literals,
// ascending fills, results of a function of the package that sorts),
// where sorting sorted data is what the benchmark means; slices and maps
// sized with b.N, whose growth is deliberate; setup loops; appends to a
// slice of pointer-free elements declared in the function that holds the
// loop, which starts empty in every run and whose amortised copies do not
// depend on b.N (a slice captured from an enclosing function or declared at
// package level keeps growing across runs, and is reported); loops that
// contain a loop or read the clock or memory statistics (an operation that
// records its own measurements); keys that cycle; and uses in function
// literals.
//
// Findings about sorting have the category CategorySorted: their ns/op
// falls, rather than rises, as b.N grows.
package driftstate
