package shard_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/shard"
	"github.com/mbench/mbench/store"
)

var basisSuite = []bench.Key{
	{Package: "p", Name: "A", Procs: 2}, {Package: "p", Name: "B/n=1", Procs: 2},
	{Package: "p", Name: "B/n=2", Procs: 2}, {Package: "p", Name: "C", Procs: 2},
}

// storeRun stores a run of label measuring keys, each for ms
// milliseconds in one iteration, and ends it with status ("" leaves it
// running). Its measurements have no times on the wall clock, and it ends
// as it starts, so that the basis has no overhead per fork.
func storeRun(t *testing.T, st *store.Store, label, status string, keys []bench.Key, ms float64) string {
	t.Helper()
	start := time.Now()
	id, err := st.CreateRun(&bench.Run{Label: label, Start: start, Benchmarks: keys})
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range keys {
		m := bench.Measurement{Key: k, N: 1000, Values: []bench.Value{{Value: ms / 1e6, Unit: "sec/op"}}}
		if err := st.Append(id, m); err != nil {
			t.Fatal(err)
		}
	}
	if status != "" {
		if err := st.Finish(id, start, status); err != nil {
			t.Fatal(err)
		}
	}
	return id
}

func TestFindBasis(t *testing.T) {
	dir := t.TempDir()
	st, err := store.Open(filepath.Join(dir, "m.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	find := func(ref, label string) *shard.Basis {
		t.Helper()
		b, err := shard.FindBasis(st, ref, basisSuite, label)
		if err != nil {
			t.Fatalf("FindBasis(%q, label %s): %v", ref, label, err)
		}
		return b
	}
	if b := find("", "x"); b.Times != nil || b.ID() != "hash" || b.Why != "no stored run of this suite" {
		t.Errorf("empty store: basis %v (%s), want hash", b, b.Why)
	}
	if b, err := shard.FindBasis(nil, "", basisSuite, "x"); err != nil || b.Times != nil {
		t.Errorf("no store: basis %v, %v; want hash", b, err)
	}

	full := storeRun(t, st, "full", "complete", basisSuite, 2)
	// Newer runs that do not qualify: this run's own label, runs not
	// complete, a run of part of the suite, another suite.
	storeRun(t, st, "self", "complete", basisSuite, 5)
	storeRun(t, st, "failed", "failed", basisSuite, 5)
	storeRun(t, st, "interrupted", "interrupted", basisSuite, 5)
	storeRun(t, st, "running", "", basisSuite, 5)
	storeRun(t, st, "part", "complete", basisSuite[:3], 5)
	storeRun(t, st, "other", "complete", []bench.Key{{Package: "q", Name: "A"}, {Package: "q", Name: "B"}, {Package: "q", Name: "C"}, {Package: "q", Name: "D"}}, 5)
	b := find("", "self")
	if !slices.Equal(b.Runs, []string{full}) || b.ID() != full || b.Label != "full" {
		t.Fatalf("basis %v (id %s), want run %s of label full", b, b.ID(), full)
	}
	for _, k := range basisSuite {
		if b.Times[k] != 2*time.Millisecond {
			t.Errorf("basis time of %v = %v, want 2ms", k, b.Times[k])
		}
	}

	// The shards of a sharded run of another label, newer, cover the
	// suite together: they are the basis, the newest run's time of a
	// benchmark measured twice.
	s1 := storeRun(t, st, "sharded", "complete", basisSuite[:2], 1)
	s2 := storeRun(t, st, "sharded", "complete", basisSuite[1:], 3)
	b = find("", "self")
	if want := []string{s2, s1}; !slices.Equal(b.Runs, want) {
		t.Fatalf("basis runs %v, want the shards %v", b.Runs, want)
	}
	if want := strings.Join(slices.Sorted(slices.Values([]string{s1, s2})), ","); b.ID() != want {
		t.Errorf("basis id %s, want %s", b.ID(), want)
	}
	if b.Times[basisSuite[0]] != time.Millisecond || b.Times[basisSuite[1]] != 3*time.Millisecond {
		t.Errorf("basis times %v", b.Times)
	}
	// A shard of label sharded does not take its own label's runs, but
	// the newest other: self's.
	if b := find("", "sharded"); b.Label != "self" || len(b.Runs) != 1 {
		t.Errorf("basis of label sharded: %v, want the run of label self", b)
	}

	// Named: a run by id or prefix, a label, a file.
	if b := find(full[:6], "self"); !slices.Equal(b.Runs, []string{full}) {
		t.Errorf("-shard-basis %s: %v", full[:6], b)
	}
	if b := find("sharded", "self"); len(b.Runs) != 2 {
		t.Errorf("-shard-basis sharded: %v, want both shards", b)
	}
	// A run of part of the suite: the rest at the median of its times.
	b = find("part", "self")
	if b.Estimated != 1 || b.Times[basisSuite[3]] != 5*time.Millisecond || !strings.Contains(b.String(), "1 benchmarks new to it") {
		t.Errorf("-shard-basis part: %v, times %v", b, b.Times)
	}
	file := filepath.Join(dir, "basis.txt")
	text := "pkg: p\nBenchmarkA-2 1000 4000000 ns/op\nBenchmarkC-2 10 1000 ns/op\n"
	if err := os.WriteFile(file, []byte(text), 0o666); err != nil {
		t.Fatal(err)
	}
	b = find(file, "self")
	if b.File != file || b.Times[basisSuite[0]] != 4*time.Second || b.Estimated != 2 || !strings.HasPrefix(b.ID(), "file:") {
		t.Errorf("-shard-basis %s: %v, id %s, times %v", file, b, b.ID(), b.Times)
	}
	for _, c := range []struct{ ref, err string }{
		{"nosuch", "-shard-basis nosuch: no such file"},
		{"other", "-shard-basis other: measured none of the suite's benchmarks"},
	} {
		if _, err := shard.FindBasis(st, c.ref, basisSuite, "self"); err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("FindBasis(%q): %v, want %q", c.ref, err, c.err)
		}
	}
}
