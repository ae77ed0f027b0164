package compare

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/mbench/mbench/bench"
)

// instanceRun simulates one benchmark measured on the named instances,
// forks forks of iters iterations each, at level base·shift[k] on instance
// k: fork levels vary by 1% and iterations by 1% around them.
func instanceRun(r *rand.Rand, label string, base float64, names []string, shift []float64, forks, iters int) *bench.Run {
	run := &bench.Run{Label: label}
	k := bench.Key{Package: "p", Name: "BenchmarkX", Procs: 2}
	for i, name := range names {
		for f := range forks {
			level := base * shift[i] * (1 + 0.01*r.NormFloat64())
			for it := range iters {
				run.Measurements = append(run.Measurements, bench.Measurement{
					Key: k, Coord: bench.Coord{Instance: name, Fork: f + 1, Iteration: it}, N: 100,
					Values: []bench.Value{{Value: level * (1 + 0.01*r.NormFloat64()), Unit: "sec/op"}},
				})
			}
		}
	}
	return run
}

// only returns the measurements of run taken on instance name.
func only(run *bench.Run, name string) *bench.Run {
	out := &bench.Run{Label: run.Label}
	for _, m := range run.Measurements {
		if m.Coord.Instance == name {
			out.Measurements = append(out.Measurements, m)
		}
	}
	return out
}

// TestInstancesLevelShift: old and new measured on two instances, b 10%
// slower than a, new 5% slower than old. Gathered, the comparison resamples
// instances: its interval is wider than that of either instance alone and
// contains the true ratio 1.05; each instance alone is compared as before.
func TestInstancesLevelShift(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 1))
	names, shift := []string{"a", "b"}, []float64{1, 1.10}
	old := instanceRun(r, "old", 1e-6, names, shift, 10, 10)
	new := instanceRun(r, "new", 1.05e-6, names, shift, 10, 10)
	opts := DefaultOptions
	opts.Replicates = 2000
	res, err := Compare(old, new, opts)
	if err != nil {
		t.Fatal(err)
	}
	both := res.Rows[0]
	if both.Method != "nested" || both.Old.Instances != 2 || both.New.Instances != 2 || both.Old.Forks != 20 {
		t.Errorf("gathered: method %q, %d and %d instances, %d forks; want nested over 2 instances of 10 forks",
			both.Method, both.Old.Instances, both.New.Instances, both.Old.Forks)
	}
	if !both.Ratio.Contains(1.05) {
		t.Errorf("gathered: interval %+v misses the true ratio 1.05", both.Ratio)
	}
	for _, name := range names {
		one, err := Compare(only(old, name), only(new, name), opts)
		if err != nil {
			t.Fatal(err)
		}
		row := one.Rows[0]
		if row.Method != "hierarchical" || row.Old.Instances != 1 {
			t.Errorf("instance %s alone: method %q over %d instances, want hierarchical over 1", name, row.Method, row.Old.Instances)
		}
		t.Logf("instance %s alone: %+v; gathered: %+v", name, row.Ratio, both.Ratio)
		if w, w1 := both.Ratio.Hi-both.Ratio.Lo, row.Ratio.Hi-row.Ratio.Lo; w <= w1 {
			t.Errorf("two instances 10%% apart: width %.4f, not above instance %s's %.4f", w, name, w1)
		}
	}
	var text strings.Builder
	if err := res.Write(&text, Text); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "2×10×10") {
		t.Errorf("text does not count instances×forks×iterations (2×10×10):\n%s", text.String())
	}
	var js strings.Builder
	if err := res.Write(&js, JSON); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(js.String(), `"instances": 2`) {
		t.Errorf("JSON does not give the instances:\n%s", js.String())
	}
}

// TestInstancesIdentical: two instances of the same speed. Over 20 seeded
// repetitions the gathered interval is compared with that of the same forks
// compared without their instances (two-level, 20 forks a side). The
// preliminary test of stats.NestedDF finds that the instances agree and
// pools them, and the interval is then at most 25% wider (resampling the
// instance level as well); by its level of 0.25 the test finds a
// difference about one time in four by chance, and the interval is then
// Student's t over two instances (4 of 20 here, at most 8 allowed).
func TestInstancesIdentical(t *testing.T) {
	opts := DefaultOptions
	opts.Replicates = 1000
	names, shift := []string{"a", "b"}, []float64{1, 1}
	widened := 0
	const reps = 20
	for seed := range uint64(reps) {
		r := rand.New(rand.NewPCG(seed, 3))
		old := instanceRun(r, "old", 1e-6, names, shift, 10, 10)
		new := instanceRun(r, "new", 1e-6, names, shift, 10, 10)
		res, err := Compare(old, new, opts)
		if err != nil {
			t.Fatal(err)
		}
		for _, run := range []*bench.Run{old, new} {
			for i := range run.Measurements {
				c := &run.Measurements[i].Coord
				if c.Instance == "b" {
					c.Fork += 10
				}
				c.Instance = ""
			}
		}
		flat, err := Compare(old, new, opts)
		if err != nil {
			t.Fatal(err)
		}
		got, ref := res.Rows[0], flat.Rows[0]
		if got.Method != "nested" || ref.Method != "hierarchical" {
			t.Fatalf("methods %q and %q, want nested and hierarchical", got.Method, ref.Method)
		}
		if !got.Ratio.Contains(1) {
			t.Errorf("seed %d: identical versions on identical instances: interval %+v misses 1", seed, got.Ratio)
		}
		switch w, w0 := got.Ratio.RelWidth(), ref.Ratio.RelWidth(); {
		case w > 2*w0:
			widened++
			t.Logf("seed %d: widened by chance: %.4f against %.4f without instances", seed, w, w0)
		case w > 1.25*w0:
			t.Errorf("seed %d: relative width %.4f, more than 1.25× the %.4f without instances", seed, w, w0)
		}
	}
	t.Logf("widened by chance in %d of %d", widened, reps)
	if widened > 8 {
		t.Errorf("identical instances widened the interval more than twice in %d of %d comparisons, want at most 8", widened, reps)
	}
}

// TestInstancesAgainstOneProcess: old from one process on one machine, as
// `go test -count N` gives, new unchanged but gathered from six instances
// 0% to 15% slower than old's machine. The single process says nothing
// about how much machines differ, but new's instances do: the verdict must
// not be "slower".
func TestInstancesAgainstOneProcess(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 1))
	old := instanceRun(r, "old", 1e-6, []string{""}, []float64{1}, 1, 50)
	new := instanceRun(r, "new", 1e-6, []string{"a", "b", "c", "d", "e", "f"}, []float64{1, 1.03, 1.06, 1.09, 1.12, 1.15}, 10, 10)
	opts := DefaultOptions
	opts.Replicates = 2000
	res, err := Compare(old, new, opts)
	if err != nil {
		t.Fatal(err)
	}
	row := res.Rows[0]
	if row.Method != "nested" || row.Old.Instances != 1 || row.New.Instances != 6 {
		t.Fatalf("method %q over %d and %d instances, want nested over 1 and 6", row.Method, row.Old.Instances, row.New.Instances)
	}
	if row.Verdict != Inconclusive {
		t.Errorf("no change, new on six instances 0–15%% slower: verdict %q, interval %+v; want inconclusive", row.Verdict.Word("sec/op"), row.Ratio)
	}
}
