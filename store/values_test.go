package store

import (
	"strings"
	"testing"

	"github.com/mbench/mbench/bench"
)

func TestLoadRefSkipsImpossible(t *testing.T) { eachBackend(t, testLoadRefSkipsImpossible) }

// testLoadRefSkipsImpossible stores measurements with values that cannot
// be, as an older mbench or another writer may have: Load returns them as
// stored, while LoadRef and Gather, which analyses read, leave them out
// with one warning naming the store, the run and the first of them, as the
// readers of result files do. Before, a stored -500 ns/op compared as
// "-200.00% faster".
func testLoadRefSkipsImpossible(t *testing.T, open opener) {
	s, _ := open(t)
	id, err := s.CreateRun(&bench.Run{Label: "L"})
	if err != nil {
		t.Fatal(err)
	}
	k := bench.Key{Package: "p", Name: "A", Procs: 2}
	var ms []bench.Measurement
	for i, v := range []float64{5e-7, -5e-7, 5e-7, 0, 5e-7, 2e6} {
		ms = append(ms, bench.Measurement{Key: k, Coord: bench.Coord{Fork: 1, Iteration: i}, N: 10,
			Values: []bench.Value{{Value: v, Unit: "sec/op"}, {Value: 16, Unit: "B/op"}}})
	}
	if err := s.Append(id, ms...); err != nil {
		t.Fatal(err)
	}
	if err := s.Finish(id, ms[0].End, StatusComplete); err != nil {
		t.Fatal(err)
	}
	stored, err := s.Load(id)
	if err != nil || len(stored.Measurements) != len(ms) {
		t.Fatalf("Load: %v, %v; want all %d measurements as stored", stored, err, len(ms))
	}
	for _, ref := range []string{id, "L"} {
		r, ws, err := s.LoadRef(ref)
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Measurements) != 3 {
			t.Errorf("LoadRef(%s): %d measurements, want the 3 that can be", ref, len(r.Measurements))
		}
		want := "run " + id + ": 3 measurements skipped, with values that cannot be; the first: p.A-2, fork 1, iteration 1: -5e-07 sec/op: negative"
		if len(ws) != 1 || !strings.Contains(ws[0].Error(), want) {
			t.Errorf("LoadRef(%s): warnings %v, want one containing %q", ref, ws, want)
		}
	}
}
