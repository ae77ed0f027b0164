package store

import (
	"testing"

	"github.com/mbench/mbench/bench"
)

// TestAppendBatches: batches of two runs are stored in one transaction,
// so that either both halves of a pair are stored or neither is.
func TestAppendBatches(t *testing.T) { eachBackend(t, testAppendBatches) }

func testAppendBatches(t *testing.T, open opener) {
	s, _ := open(t)
	var ids [2]string
	for i := range ids {
		var err error
		if ids[i], err = s.CreateRun(&bench.Run{Label: []string{"old", "new"}[i]}); err != nil {
			t.Fatal(err)
		}
	}
	m := bench.Measurement{Key: bench.Key{Package: "p", Name: "X", Procs: 1}, N: 10, Values: []bench.Value{{Value: 1e-9, Unit: "sec/op"}}}
	if err := s.AppendBatches(Batch{ids[0], []bench.Measurement{m}}, Batch{ids[1], []bench.Measurement{m, m}}); err != nil {
		t.Fatal(err)
	}
	// A batch of a run that does not exist fails the whole call.
	if err := s.AppendBatches(Batch{ids[0], []bench.Measurement{m}}, Batch{"nosuchrun", []bench.Measurement{m}}); err == nil {
		t.Fatal("appending to a run that does not exist: no error")
	}
	for i, want := range []int{1, 2} {
		r, err := s.Load(ids[i])
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Measurements) != want {
			t.Errorf("run %s holds %d measurements, want %d", r.Label, len(r.Measurements), want)
		}
	}
}
