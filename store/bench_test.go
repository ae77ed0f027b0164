package store

import (
	"testing"
	"time"

	"github.com/mbench/mbench/bench"
)

// BenchmarkAppend measures a durable append of one measurement per call, as
// the runner does after each iteration, in each backend.
func BenchmarkAppend(b *testing.B) { eachBackendB(b, benchmarkAppend) }

// eachBackendB runs benchmark f against each backend.
func eachBackendB(b *testing.B, f func(b *testing.B, open opener)) {
	for _, be := range backends {
		b.Run(be.name, func(b *testing.B) { f(b, be.open) })
	}
}

func benchmarkAppend(b *testing.B, open opener) {
	s, _ := open(b)
	id, err := s.CreateRun(&bench.Run{})
	if err != nil {
		b.Fatal(err)
	}
	cfg := config("goos", "linux", "goarch", "amd64", "cpu", "Xeon")
	m := bench.Measurement{
		Key:    bench.Key{Package: "example.com/m", Name: "Decode/size=small", Procs: 8},
		Coord:  bench.Coord{Instance: "local", SuiteRun: 1, Fork: 1, Phase: bench.Measure},
		N:      100000,
		Start:  time.Now(),
		End:    time.Now(),
		Config: cfg,
		Values: []bench.Value{
			{Value: 1.2e-6, Unit: "sec/op", OrigValue: 1200, OrigUnit: "ns/op"},
			{Value: 4096, Unit: "B/op"},
			{Value: 3, Unit: "allocs/op"},
		},
	}
	i := 0
	for b.Loop() {
		m.Coord.Iteration = i
		if err := s.Append(id, m); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkLoad measures loading a run of 10,000 measurements.
func BenchmarkLoad(b *testing.B) { eachBackendB(b, benchmarkLoad) }

func benchmarkLoad(b *testing.B, open opener) {
	s, _ := open(b)
	id, err := s.CreateRun(&bench.Run{})
	if err != nil {
		b.Fatal(err)
	}
	ms := make([]bench.Measurement, 10000)
	for i := range ms {
		ms[i] = killMeasurement(i)
	}
	if err := s.Append(id, ms...); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := s.Load(id); err != nil {
			b.Fatal(err)
		}
	}
}
