// Package gen generates benchmarks from marked code, after AutoJMH
// (Rodriguez-Cancio, Combemale & Baudry, "Automatic Microbenchmark
// Generation to Prevent Dead Code Elimination and Constant Folding",
// ASE 2016): a `//mbench:bench NAME` comment before a statement, or in a
// function's doc comment, marks a segment; mbench gen records the
// segment's inputs while the package's tests run and writes a benchmark
// that the compiler can neither delete nor fold, that restores the state
// the segment mutates, and a test that checks the benchmark still does
// what the program does.
//
// # Pipeline
//
// Generate runs the stages of the paper's Figure 1 in this order; each
// stage has its files, and a Segment carries what each stage learns to
// the next:
//
//	stage     what it does                                   files
//	Find      loads the packages with their tests, reads     find.go, findloops.go
//	          the markers (or, with AllLoops, takes every
//	          loop) and makes a Segment of each
//	analyze   the segment's inputs, outputs and dropped      analyze.go: inputs, outputs, discards
//	          values; the inputs it mutates; the outputs     analyze_effects.go: state it changes
//	          to consume (sink maximisation); the Reason     analyze_sink.go: sinks
//	          it gets no benchmark                           analyze_reject.go: reasons, in order
//	Record    runs the tests through go test -overlay with   record.go; the recorder is the codec
//	          a recorder around each segment; keeps the      of internal/codec, pasted (support.go)
//	          distinct input sets in testdata/mbench
//	Emit      writes mbench_gen_test.go: per segment its     emit.go: the file, the copied code;
//	          payload, inputs, setup, reset, benchmark       emit_segment.go decides a segment's
//	          and regression test; then the codec, pasted    code and emit_segment.tmpl spells it;
//	                                                         support.go: the pasted codec
//	check     builds, vets and runs the regression tests     emit_check.go
//	          through an overlay; rejects the segments at
//	          fault and emits again without them
//
// gen.go holds Generate, which runs the stages and settles the files
// (written at once, stale ones removed; under Check, left as they were);
// segment.go the Segment, its variables and the Reasons; summary.go the
// report of what Generate did. Find, Record and Emit are exported for
// callers that run a stage alone.
//
// The generated code depends on the standard library only: the codec
// that reads recorded values back (gen/internal/codec) is pasted into
// it with its names prefixed, as is the recording code into the
// overlay of the tests.
package gen
