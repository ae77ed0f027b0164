package main

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/mbench/mbench/store"
)

// TestGoldenHistory runs mbench history, as TestGolden runs the other
// commands, over stores of runs of the fake test binary: twelve runs whose
// times per op step by +25% from the seventh on ($FAKEBENCH_SCALE), and
// eight of the same code.
func TestGoldenHistory(t *testing.T) {
	bins := buildFakes(t)
	t.Run("step", func(t *testing.T) {
		g := newGolden(t, bins)
		for i := 1; i <= 12; i++ {
			scale := "1"
			if i >= 7 {
				scale = "1.25"
			}
			t.Setenv("FAKEBENCH_SCALE", scale)
			storeRun(t, "m.db", fmt.Sprintf("c%02d", i))
		}
		g.check("history/step", exitOK, "history", "-db", "m.db")
		g.check("history/json", exitOK, "history", "-db", "m.db", "-format", "json", "-bench", "Sum")
		g.check("history/csv", exitOK, "history", "-db", "m.db", "-format", "csv", "-bench", "Join/n=10$")
		g.check("history/named", exitOK, "history", "-db", "m.db", "-bench", "Sum", "c01", "c02", "c03", "c10", "c11", "c12")
		g.check("history/one-run", exitOK, "history", "-db", "m.db", "-bench", "Parse", "c05")
		g.check("history/unknown-run", exitError, "history", "-db", "m.db", "c01", "nosuch")
		g.check("history/no-match", exitError, "history", "-db", "m.db", "-bench", "Nothing")
		g.check("history/bad-format", exitUsage, "history", "-db", "m.db", "-format", "xml")
		g.check("history/bad-alpha", exitUsage, "history", "-db", "m.db", "-alpha", "0")
		g.check("history/bad-bench", exitUsage, "history", "-db", "m.db", "-bench", "(")
		g.check("history/no-db", exitError, "history", "-db", "none.db")
	})
	t.Run("flat", func(t *testing.T) {
		g := newGolden(t, bins)
		for i := 1; i <= 8; i++ {
			storeRun(t, "m.db", fmt.Sprintf("f%02d", i))
		}
		g.check("history/flat", exitOK, "history", "-db", "m.db")
	})
	t.Run("empty", func(t *testing.T) {
		g := newGolden(t, bins)
		st, err := store.Open("m.db")
		if err != nil {
			t.Fatal(err)
		}
		st.Close()
		g.check("history/empty", exitError, "history", "-db", "m.db")
	})
}

// storeRun stores a run of the fake binary labelled label in db.
func storeRun(t *testing.T, db, label string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	args := []string{"run", "-db", db, "-label", label, "-criterion", "static", "-f-min", "3", "-f-max", "3", "-mi", "3",
		"-iter", "5ms", "fake.test"}
	if code := mbench(args, &stdout, &stderr); code != exitOK {
		t.Fatalf("mbench %v: exit code %d\n%s%s", args, code, &stdout, &stderr)
	}
}
