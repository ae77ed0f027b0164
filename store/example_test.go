package store_test

import (
	"fmt"
	"log"
	"os"
	"path/filepath"
	"time"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/store"
)

// Example shows the life of a run: created, appended to one iteration at a
// time, finished, then found again by label and loaded.
func Example() {
	dir, err := os.MkdirTemp("", "mbench-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)

	s, err := store.Open(filepath.Join(dir, ".mbench", "mbench.db"))
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()

	run := &bench.Run{Label: "main", Start: time.Now()}
	id, err := s.CreateRun(run)
	if err != nil {
		log.Fatal(err)
	}
	for i, ns := range []float64{1210, 1185, 1190} {
		m := bench.Measurement{
			Key:    bench.Key{Package: "example.com/m", Name: "Decode", Procs: 8},
			Coord:  bench.Coord{Fork: 1, Iteration: i},
			N:      100000,
			Values: []bench.Value{{Value: ns * 1e-9, Unit: "sec/op", OrigValue: ns, OrigUnit: "ns/op"}},
		}
		// Once Append returns, the measurement survives a crash.
		if err := s.Append(id, m); err != nil {
			log.Fatal(err)
		}
	}
	if err := s.Finish(id, time.Now(), store.StatusComplete); err != nil {
		log.Fatal(err)
	}

	ref, err := s.Resolve("main")
	if err != nil {
		log.Fatal(err)
	}
	r, err := s.Load(ref)
	if err != nil {
		log.Fatal(err)
	}
	for _, m := range r.Measurements {
		fmt.Println(m.Key.FullName(), m.N, m.Values[0].OrigValue, m.Values[0].OrigUnit)
	}
	infos, err := s.Runs()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(infos[0].Label, infos[0].Status, infos[0].Measurements, infos[0].Benchmarks)
	// Output:
	// BenchmarkDecode-8 100000 1210 ns/op
	// BenchmarkDecode-8 100000 1185 ns/op
	// BenchmarkDecode-8 100000 1190 ns/op
	// main complete 3 1
}
