package store

import (
	"fmt"
	"sync"
	"testing"

	"github.com/mbench/mbench/bench"
)

// TestTwoStores opens one file twice, as two mbench processes would, and
// writes through both while reading through one. Neither may fail with a
// locked database.
func TestTwoStores(t *testing.T) { eachBackend(t, testTwoStores) }

func testTwoStores(t *testing.T, open opener) {
	a, path := open(t)
	b, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()

	const n = 150
	ida, err := a.CreateRun(&bench.Run{Label: "a"})
	if err != nil {
		t.Fatal(err)
	}
	idb, err := b.CreateRun(&bench.Run{Label: "b"})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 100)
	done := make(chan struct{})
	writer := func(s *Store, id string) {
		defer wg.Done()
		for i := range n {
			// Shared keys and configurations make both writers insert and
			// look up the same rows.
			m := bench.Measurement{
				Key:    bench.Key{Name: fmt.Sprintf("B%d", i%7)},
				Coord:  bench.Coord{Iteration: i},
				Values: []bench.Value{{Value: float64(i), Unit: "sec/op"}},
				Config: config("k", fmt.Sprint(i%5)),
			}
			if err := s.Append(id, m); err != nil {
				errs <- fmt.Errorf("append %d to %s: %w", i, id, err)
				return
			}
			if i%50 == 0 {
				if err := s.SetSettings(id, map[string]string{"progress": fmt.Sprint(i)}); err != nil {
					errs <- err
					return
				}
			}
		}
	}
	wg.Add(2)
	go writer(a, ida)
	go writer(b, idb)
	reads := 0
	var rwg sync.WaitGroup
	rwg.Add(1)
	go func() {
		defer rwg.Done()
		for {
			select {
			case <-done:
				return
			default:
			}
			r, err := b.Load(ida)
			if err != nil {
				errs <- fmt.Errorf("load while writing: %w", err)
				return
			}
			for i, m := range r.Measurements {
				if m.Coord.Iteration != i {
					errs <- fmt.Errorf("load while writing: measurement %d has iteration %d", i, m.Coord.Iteration)
					return
				}
			}
			if _, err := b.Runs(); err != nil {
				errs <- fmt.Errorf("runs while writing: %w", err)
				return
			}
			if _, err := b.Resolve("a"); err != nil {
				errs <- fmt.Errorf("resolve while writing: %w", err)
				return
			}
			reads++
		}
	}()
	wg.Wait()
	close(done)
	rwg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	infos, err := a.Runs()
	if err != nil {
		t.Fatal(err)
	}
	for _, ri := range infos {
		if ri.Measurements != n || ri.Benchmarks != 7 {
			t.Errorf("run %s (%s): %d measurements of %d benchmarks, want %d of 7", ri.ID, ri.Label, ri.Measurements, ri.Benchmarks, n)
		}
	}
	// Each writer's key and configuration caches saw the other's rows:
	// every key and configuration exists once.
	var keys, configs int
	if err := a.db.QueryRow("SELECT COUNT(*) FROM bench_keys").Scan(&keys); err != nil {
		t.Fatal(err)
	}
	if err := a.db.QueryRow("SELECT COUNT(*) FROM config_sets").Scan(&configs); err != nil {
		t.Fatal(err)
	}
	if keys != 7 || configs != 5 {
		t.Errorf("%d benchmark keys and %d configurations stored, want 7 and 5", keys, configs)
	}
	t.Logf("%d consistent reads during the writes", reads)
}
