package optimize

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/mbench/mbench/bench"
)

// runOf builds the measurements of `mbench run -levels` for one benchmark:
// per suite run (1-based) its forks, numbered across suite runs from 1, each
// with warmup warm-up iterations and then iters[s][i] measurement
// iterations, iterations counted from 0 across both phases. The sec/op value
// of a measurement iteration is 100·s + 10·i + d, all 0-based.
func runOf(key bench.Key, instance string, warmup int, iters [][]int) []bench.Measurement {
	var ms []bench.Measurement
	fork := 0
	for s, forks := range iters {
		for i, n := range forks {
			fork++
			for it := range warmup + n {
				m := bench.Measurement{Key: key, N: 1, Coord: bench.Coord{Instance: instance, SuiteRun: s + 1, Fork: fork, Iteration: it}}
				v := -1.0
				if it < warmup {
					m.Coord.Phase = bench.Warmup
				} else {
					v = float64(100*s + 10*i + it - warmup)
				}
				m.Values = []bench.Value{{Value: v, Unit: "sec/op"}, {Value: 8, Unit: "B/op"}}
				ms = append(ms, m)
			}
		}
	}
	return ms
}

// grid returns s suite runs of f forks of n iterations.
func grid(s, f, n int) [][]int {
	out := make([][]int, s)
	for k := range out {
		for range f {
			out[k] = append(out[k], n)
		}
	}
	return out
}

// expect returns the values runOf gives for complete levels l.
func expect(l bench.Levels) []float64 {
	var v []float64
	for s := range l.SuiteRuns {
		for i := range l.Forks {
			for d := range l.Iterations {
				v = append(v, float64(100*s+10*i+d))
			}
		}
	}
	return v
}

func TestCollect(t *testing.T) {
	a := bench.Key{Package: "p", Name: "A", Procs: 2}
	b := bench.Key{Package: "p", Name: "B", Procs: 2}
	ms := append(runOf(b, "h", 2, grid(3, 2, 4)), runOf(a, "h", 1, grid(2, 3, 5))...)
	// Input order must not matter.
	newRand(1).Shuffle(len(ms), func(i, j int) { ms[i], ms[j] = ms[j], ms[i] })
	bs, warns, err := Collect(ms, "sec/op", bench.Levels{})
	if err != nil || len(warns) > 0 {
		t.Fatalf("Collect: %v, warnings %v", err, warns)
	}
	if len(bs) != 2 || bs[0].Key != a || bs[1].Key != b {
		t.Fatalf("benchmarks %v", bs)
	}
	for k, l := range []bench.Levels{{SuiteRuns: 2, Forks: 3, Iterations: 5}, {SuiteRuns: 3, Forks: 2, Iterations: 4}} {
		if bs[k].Levels != l || !slices.Equal(bs[k].Values, expect(l)) {
			t.Errorf("%s: levels %v values %v, want %v %v", bs[k].Key, bs[k].Levels, bs[k].Values, l, expect(l))
		}
	}
}

// TestCollectIncomplete checks the largest complete rectangle of an
// interrupted run and the warnings naming the benchmark.
func TestCollectIncomplete(t *testing.T) {
	key := bench.Key{Name: "X"}
	for _, c := range []struct {
		name  string
		iters [][]int
		full  bench.Levels
		want  bench.Levels
		warn  string // "" for none; "left out" when no benchmark results
	}{
		{"complete", grid(3, 2, 4), bench.Levels{}, bench.Levels{SuiteRuns: 3, Forks: 2, Iterations: 4}, ""},
		{"last suite run short of a fork", [][]int{{4, 4}, {4, 4}, {4}}, bench.Levels{}, bench.Levels{SuiteRuns: 2, Forks: 2, Iterations: 4}, "suite run 3 has 1 of 2 forks"},
		{"fork cut short", [][]int{{4, 4}, {4, 2}, {4, 4}}, bench.Levels{}, bench.Levels{SuiteRuns: 2, Forks: 2, Iterations: 4}, "suite run 2 has 2 of 4 iterations in its fork 2"},
		{"levels given", grid(3, 2, 4), bench.Levels{SuiteRuns: 3, Forks: 2, Iterations: 4}, bench.Levels{SuiteRuns: 3, Forks: 2, Iterations: 4}, ""},
		{"suite runs missing", [][]int{{4, 4}, {4}}, bench.Levels{SuiteRuns: 3, Forks: 2, Iterations: 4}, bench.Levels{SuiteRuns: 1, Forks: 2, Iterations: 4}, "suite run 2 has 1 of 2 forks, 1 of 3 suite runs missing"},
		{"more than the levels", grid(4, 3, 5), bench.Levels{SuiteRuns: 3, Forks: 2, Iterations: 4}, bench.Levels{SuiteRuns: 3, Forks: 2, Iterations: 4}, "the extra ones are ignored"},
		{"fewer forks than the levels", grid(3, 2, 4), bench.Levels{SuiteRuns: 0, Forks: 3, Iterations: 0}, bench.Levels{}, "left out"},
	} {
		t.Run(c.name, func(t *testing.T) {
			bs, warns, err := Collect(runOf(key, "", 0, c.iters), "sec/op", c.full)
			if err != nil {
				t.Fatal(err)
			}
			msg := fmt.Sprint(warns)
			if c.warn == "" && len(warns) > 0 || c.warn != "" && (len(warns) != 1 || !strings.Contains(msg, c.warn) || !strings.Contains(msg, "X")) {
				t.Errorf("warnings %v, want one naming X with %q", warns, c.warn)
			}
			if c.want == (bench.Levels{}) {
				if len(bs) != 0 {
					t.Errorf("got %d benchmarks, want none", len(bs))
				}
				return
			}
			if len(bs) != 1 {
				t.Fatalf("got %d benchmarks", len(bs))
			}
			got := bs[0]
			// Dropped suite runs are skipped, so values keep their
			// suite run's offset; check the shape and the first fork.
			if got.Levels != c.want || len(got.Values) != c.want.Total() || got.Values[1] != 1 {
				t.Errorf("levels %v values %v, want levels %v", got.Levels, got.Values, c.want)
			}
		})
	}
}

func TestCollectMissingUnit(t *testing.T) {
	key := bench.Key{Name: "X"}
	ms := runOf(key, "", 1, grid(2, 1, 3))
	// Suite run 2's last iteration has no sec/op: a hole.
	last := &ms[len(ms)-1]
	last.Values = last.Values[1:]
	bs, warns, err := Collect(ms, "sec/op", bench.Levels{})
	if err != nil || len(warns) != 1 || len(bs) != 1 || bs[0].Levels != (bench.Levels{SuiteRuns: 1, Forks: 1, Iterations: 3}) {
		t.Errorf("Collect: %v, warnings %v, benchmarks %v", err, warns, bs)
	}
	bs, warns, _ = Collect(ms, "allocs/op", bench.Levels{})
	if len(bs) != 0 || len(warns) != 1 || !strings.Contains(warns[0].Error(), "no measurements in allocs/op") {
		t.Errorf("unit absent: benchmarks %v, warnings %v", bs, warns)
	}
}

func TestCollectErrors(t *testing.T) {
	key := bench.Key{Name: "X"}
	dup := runOf(key, "", 0, grid(1, 2, 3))
	dup = append(dup, dup[2])
	for name, c := range map[string]struct {
		ms   []bench.Measurement
		full bench.Levels
		want string
	}{
		"duplicate":          {dup, bench.Levels{}, "two measurements at suite run 1, fork 1, iteration 2"},
		"duplicate instance": {runOf(key, "h", 0, [][]int{{2, 2}, {2, 2}})[:1], bench.Levels{}, ""},
		"negative":           {dup[:1], bench.Levels{SuiteRuns: -1, Forks: 0, Iterations: 0}, "negative"},
	} {
		if c.want == "" {
			h := runOf(key, "h", 0, grid(1, 2, 3))
			c.ms, c.want = append(h, h[1]), `two measurements at instance "h", suite run 1, fork 1, iteration 1`
		}
		_, _, err := Collect(c.ms, "sec/op", c.full)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", name, err, c.want)
		}
	}
}

// TestCollectInstances: a benchmark measured on two instances gets them as
// its outermost level, in order of name, each cut to the complete suite runs
// of the instance with fewest; an instance without a complete suite run is
// left out.
func TestCollectInstances(t *testing.T) {
	key := bench.Key{Name: "X"}
	b := runOf(key, "b", 1, grid(3, 2, 3))
	for i := range b {
		b[i].Values[0].Value += 1000
	}
	ms := append(b, runOf(key, "a", 1, grid(2, 2, 3))...)
	newRand(2).Shuffle(len(ms), func(i, j int) { ms[i], ms[j] = ms[j], ms[i] })
	bs, warns, err := Collect(ms, "sec/op", bench.Levels{})
	if err != nil || len(bs) != 1 {
		t.Fatalf("Collect: %v, %d benchmarks", err, len(bs))
	}
	l := bench.Levels{SuiteRuns: 2, Forks: 2, Iterations: 3}
	want := expect(l)
	for _, v := range expect(l) {
		want = append(want, v+1000)
	}
	if got := bs[0]; got.Levels != l || got.Instances != 2 || !slices.Equal(got.Values, want) {
		t.Errorf("levels %v on %d instances, values %v; want %v on 2, %v", got.Levels, got.Instances, got.Values, l, want)
	}
	if len(warns) != 1 || !strings.Contains(warns[0].Error(), `instance "b" has 3 complete suite runs, another only 2`) {
		t.Errorf("warnings %v, want one about instance b's third suite run", warns)
	}

	// Instance c has no complete suite run: left out, named.
	ms = append(runOf(key, "a", 0, grid(2, 2, 3)), runOf(key, "c", 0, [][]int{{3}})...)
	bs, warns, err = Collect(ms, "sec/op", bench.Levels{})
	if err != nil || len(bs) != 1 || bs[0].Instances != 0 || bs[0].Levels != l {
		t.Fatalf("Collect: %v, benchmarks %v", err, bs)
	}
	if len(warns) != 1 || !strings.Contains(warns[0].Error(), `instance "c": no complete suite run`) {
		t.Errorf("warnings %v, want one leaving out instance c", warns)
	}
}
