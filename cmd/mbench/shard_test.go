package main

import (
	"database/sql"
	"fmt"
	"os"
	"regexp"
	"slices"
	"testing"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/shard"
	"github.com/mbench/mbench/store"
)

// checkShards checks that the n runs of label in the store db are shards
// 1/n to n/n of one suite, planned from one basis, whose measured
// benchmarks are disjoint and together the suite's (shard.SuiteID).
func checkShards(t *testing.T, db, label string, n int) {
	t.Helper()
	st, err := store.OpenReadOnly(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	infos, err := st.Runs()
	if err != nil {
		t.Fatal(err)
	}
	var shards, bases, suites []string
	var all []bench.Key
	for _, ri := range infos {
		if ri.Label != label {
			continue
		}
		r, err := st.Load(ri.ID)
		if err != nil {
			t.Fatal(err)
		}
		shards = append(shards, r.Settings[bench.SettingShard])
		bases = append(bases, r.Settings[bench.SettingShardBasis])
		suites = append(suites, r.Settings[bench.SettingShardSuite])
		measured := map[bench.Key]bool{}
		for _, m := range r.Measurements {
			measured[m.Key] = true
		}
		for k := range measured {
			if slices.Contains(all, k) {
				t.Errorf("label %s: %v measured by two shards", label, k)
			}
			all = append(all, k)
		}
		if len(measured) != len(r.Benchmarks) {
			t.Errorf("run %s (shard %s) measured %d benchmarks, lists %d", ri.ID, r.Settings[bench.SettingShard], len(measured), len(r.Benchmarks))
		}
	}
	if len(shards) != n {
		t.Fatalf("label %s: %d runs, want %d shards", label, len(shards), n)
	}
	slices.Sort(shards)
	for i, s := range shards {
		if want := fmt.Sprintf("%d/%d", i+1, n); s != want {
			t.Errorf("label %s: shards %v, want 1/%d to %d/%d", label, shards, n, n, n)
		}
	}
	if slices.ContainsFunc(bases, func(b string) bool { return b != bases[0] }) || slices.ContainsFunc(suites, func(s string) bool { return s != suites[0] }) {
		t.Errorf("label %s: shards of bases %v, suites %v; want one of each", label, bases, suites)
	}
	if got := shard.SuiteID(all); got != suites[0] {
		t.Errorf("label %s: the shards measured suite %s, planned %s", label, got, suites[0])
	}
}

// untime clears the wall-clock times of the runs of label in the store db
// and of their measurements. The fake test binary of the golden tests
// takes no time, so that its runs' clocks hold only noise; without them a
// basis plans by iteration time (shard.Times), the same on every run of the
// tests.
func untime(t *testing.T, db, label string) {
	t.Helper()
	conn, err := sql.Open("sqlite", db)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	for _, q := range []string{
		"UPDATE measurements SET start_ns = NULL, end_ns = NULL WHERE run IN (SELECT num FROM runs WHERE label = ?)",
		"UPDATE runs SET start_ns = NULL, end_ns = NULL WHERE label = ?",
	} {
		if _, err := conn.Exec(q, label); err != nil {
			t.Fatalf("clearing the times of label %s: %v", label, err)
		}
	}
}

// runTimes matches the start and end of a run in a results file's "#mbench
// run" line.
var runTimes = regexp.MustCompile(`,?"(start|end)":"[^"]*"`)

// untimeFile clears the start and end of the run in the results file, as
// untime does in a store.
func untimeFile(t *testing.T, file string) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, runTimes.ReplaceAll(data, nil), 0o666); err != nil {
		t.Fatal(err)
	}
}
