package main

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mbench/mbench/optimize"
)

// TestLevelsOptimizePlan runs the µOpTime cycle end to end on the fixture:
// a full run with -levels, mbench optimize, a run with -plan (alone and as
// a criterion's bound), and a replay over two full runs. Package optimize
// tests what each step computes; this tests that the commands fit.
func TestLevelsOptimizePlan(t *testing.T) {
	if testing.Short() {
		t.Skip("runs benchmarks")
	}
	exe := buildMbench(t)
	tmp := t.TempDir()
	db, plan := filepath.Join(tmp, "m.db"), filepath.Join(tmp, "plan.json")
	mb := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(exe, args...)
		cmd.Dir = fixtureDir(t)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("mbench %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	for _, label := range []string{"v1", "v2"} {
		out := mb("run", "-db", db, "-label", label, "-levels", "2,2,3", "-iter", "5ms", "-bench", "Sum|Join")
		if !strings.Contains(out, "levels 2,2,3") {
			t.Fatalf("-levels run:\n%s", out)
		}
	}
	out := mb("optimize", "-db", db, "-o", plan, "-threshold", "0.05", "-reps", "1000", "v1")
	for _, want := range []string{"full configuration 2,2,3", "within 3%", "minimum", "random"} {
		if !strings.Contains(out, want) {
			t.Errorf("optimize output lacks %q:\n%s", want, out)
		}
	}
	// The name carries a -N suffix only when GOMAXPROCS is above 1.
	if !regexp.MustCompile(`(?m)^\S*Join/n=10(-\d+)? `).MatchString(out) {
		t.Errorf("optimize output lacks a row of Join/n=10:\n%s", out)
	}
	p, err := optimize.ReadPlanFile(plan)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Benchmarks) != 3 || p.IterTime.String() != "5ms" {
		t.Fatalf("plan: %d benchmarks, iteration %v; want 3 and 5ms", len(p.Benchmarks), p.IterTime)
	}
	out = mb("run", "-db", db, "-label", "planned", "-plan", plan, "-bench", "Sum|Join")
	for _, pb := range p.Benchmarks {
		if want := "levels " + pb.Levels.String(); !strings.Contains(out, want) {
			t.Errorf("planned run lacks %q for %s:\n%s", want, pb.Key, out)
		}
	}
	out = mb("run", "-db", db, "-label", "bounded", "-plan", plan, "-criterion", "cv", "-bench", "Sum|Join")
	if !strings.Contains(out, "as the most forks, fewer once the results settle (-criterion cv)") {
		t.Errorf("plan with a criterion:\n%s", out)
	}
	out = mb("optimize", "-db", db, "-replay", "-plan", plan, "-reps", "1000", "v1", "v2")
	if !strings.Contains(out, "v1 → v2") || !strings.Contains(out, "FPR") {
		t.Errorf("replay output:\n%s", out)
	}

	// Usage errors name the flag.
	var stdout, stderr bytes.Buffer
	for _, args := range [][]string{
		{"optimize", "-metric", "mode", "v1"},
		{"optimize", "-threshold", "0", "v1"},
		{"optimize", "v1", "v2"},
		{"optimize", "-replay", "v1"},
		{"run", "-levels", "2,2", "."},
		{"run", "-levels", "1,1,1", "-plan", plan, "."},
		{"run", "-plan", plan, "-iter", "1s", "."},
	} {
		stderr.Reset()
		if code := mbench(append([]string{args[0], "-db", db}, args[1:]...), &stdout, &stderr); code != exitUsage {
			t.Errorf("%q: exit %d, want %d\n%s", args, code, exitUsage, &stderr)
		}
	}
	if code := mbench([]string{"run", "-plan", filepath.Join(tmp, "none.json"), "."}, &stdout, &stderr); code != exitError || !strings.Contains(stderr.String(), "none.json") {
		t.Errorf("missing plan: exit %d, stderr %s", code, &stderr)
	}
}
