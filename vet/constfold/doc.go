// Package constfold defines an Analyzer that reports calls in benchmark
// loops whose arguments are all constants, so that the compiler may
// compute the result at compile time.
//
// # Analyzer constfold
//
// Constant folding is the second mistake of Rodriguez-Cancio, Combemale
// and Baudry, "Automatic Microbenchmark Generation to Prevent Dead Code
// Elimination and Constant Folding" (2016): a small pure function called
// with constants is inlined and computed by the compiler, and the
// benchmark measures a constant. b.Loop does not prevent it: the compiler
// keeps the results of calls in a b.Loop body alive, but it does so before
// inlining, so the constant still flows into the inlined body and the
// folded result is what stays alive. b.N, b.Loop and pb.Next loops are all
// checked.
//
// An argument is constant when its SSA value is a constant: a literal, a
// named constant, or a local assigned a constant once. The receiver of a
// method counts as an argument; a call without arguments is not reported.
// The callee must fold (package purity): a pure function of the module
// within the inlining budget, without loops, reading no package-level
// variable, allocating nothing that escapes and returning no pointer,
// slice, map, channel, function or interface; or a standard function the
// compiler folds, such as math.Sqrt.
//
// Not reported, because folding them removes no work the benchmark means
// to measure:
//
//   - a trivial constructor (one composite literal of its parameters) or a
//     callee that only selects or converts its inputs;
//   - in a b.Loop loop, a callee whose work is one single-cycle integer
//     instruction: timed with and without folding, it made no difference
//     beside the cost of b.Loop itself. In b.N and pb.Next loops the same
//     instruction showed, so there it is reported;
//   - a call whose result only feeds calls that do not fold (impure,
//     dynamic or looping callees, builtins): it prepares the input of the
//     measured work.
//
// Inputs read from package-level variables, parameters, tables or loop
// variables are not constant; calls inside function literals are not
// checked.
//
// The suggested fix passes each constant input through a new package-level
// variable assigned just before the outermost loop, or before
// b.RunParallel for a pb.Next loop, so that the compiler cannot know its
// value. There is no fix for a generic or variadic callee, a type the file
// cannot name, or an input that names a variable declared inside the loop.
package constfold
