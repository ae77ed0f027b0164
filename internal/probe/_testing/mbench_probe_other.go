// This file is not part of the Go distribution. mbench
// (github.com/mbench/mbench/internal/probe) adds it to package testing for
// one build through `go test -overlay`, so that the hooks in benchmark.go
// compile where the probe is not implemented (it is on Linux only).

//go:build !linux

package testing

// mbenchProbe is always nil here: the hooks in benchmark.go do nothing.
var mbenchProbe *mbenchProbeState

type mbenchProbeState struct{}

func (*mbenchProbeState) enter(*B, int)              {}
func (*mbenchProbeState) started(*B)                 {}
func (*mbenchProbeState) loopStarted(*B)             {}
func (*mbenchProbeState) stopped(*B)                 {}
func (*mbenchProbeState) leave(*B)                   {}
func (*mbenchProbeState) abort(*B)                   {}
func (*mbenchProbeState) result(*B, BenchmarkResult) {}
