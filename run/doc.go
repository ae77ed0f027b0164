// Package run measures Go benchmarks in fresh processes until their results
// are stable, and is the library behind `mbench run`.
//
// A run goes through these steps, each usable on its own:
//
//  1. Build (or take prebuilt) test binaries: Build caches them by the
//     content of everything that goes into them.
//  2. Discover their benchmarks, sub-benchmarks included: each benchmark at
//     each GOMAXPROCS is a Target.
//  3. Measure: Suite runs the targets in suite runs, a fresh random order of
//     one fork (process) per target each time (randomised multiple
//     interleaved trials), until each target's stop controller (package
//     stop) finds its warm-up and forks stable; StaticSuite runs a fixed
//     configuration of suite runs × forks × iterations instead. Every
//     iteration goes to a Sink as soon as the process prints it, so a run
//     that is interrupted or killed keeps everything it measured.
//  4. Report: Summarize gives a target's mean, median and bootstrap
//     confidence interval; StopCode, StopLegend and Notes say why each
//     stopped and what looks wrong (the hygiene checks of
//     PlatformWarnings, BinaryWarnings and ResultWarnings).
//
// A Job puts the steps together as `mbench run` does: Prepare builds,
// discovers and records the run in a Store, and Prepared.Run measures,
// stores each measurement durably as it is taken, and records how the run
// ended. Problems with the machine, the binaries or the results are
// warnings returned with the results; only a run that cannot go on is an
// error.
//
// MeasureNoise describes the machine rather than a benchmark: how other
// work slows each CPU, in phases of what length, and whether the CPUs slow
// down together (mbench doctor -noise). SaveNoise keeps the result beside
// the store, and a Job whose NoiseDir names that place records it with the
// run's platform.
//
// Every process run starts through internal/proc, in a process group of
// its own that dies with mbench; a benchmark's output is read line by line,
// of any length, and a result that cannot be read fails its fork rather
// than go missing.
package run
