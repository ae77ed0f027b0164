package run

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mbench/mbench/bench"
)

func TestPlatformWarnings(t *testing.T) {
	quiet := Platform{Governor: "performance", Busy: 0.05, Load: 3, Cores: 2}
	if w := PlatformWarnings(quiet); len(w) != 0 {
		t.Errorf("quiet machine (a high load average alone is history): %q", w)
	}
	w := PlatformWarnings(Platform{Governor: "powersave", Busy: 0.6, Load: 1, Cores: 2})
	if len(w) != 2 || !strings.Contains(w[0], `"powersave"`) || !strings.Contains(w[1], "60% of the CPUs busy") {
		t.Errorf("warnings %q, want the governor and the busy CPUs", w)
	}
	if w := PlatformWarnings(Platform{Busy: -1, Load: -1}); len(w) != 0 {
		t.Errorf("unknown governor and load: %q", w)
	}
}

func TestDetect(t *testing.T) {
	p := Detect(context.Background(), ".")
	if p.OS == "" || p.Cores < 1 || p.GOMAXPROCS < 1 || p.Go == "" {
		t.Errorf("incomplete platform %+v", p)
	}
	if p.Busy < -1 || p.Busy > 1 {
		t.Errorf("busy %v is not a fraction", p.Busy)
	}
	h := p.Header()
	for _, want := range []string{"os: ", "cpu: ", "go: ", "GOMAXPROCS"} {
		if !strings.Contains(h, want) {
			t.Errorf("header lacks %q:\n%s", want, h)
		}
	}
}

func TestBinaryWarnings(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the fixture")
	}
	dir, _ := filepath.Abs("testdata/fixture")
	bins, err := Build(context.Background(), BuildOptions{Dir: dir, CacheDir: t.TempDir(), GCFlags: "all=-N -l"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	w := BinaryWarnings(bins[0].Path, bins[0].Flags)
	if len(w) != 1 || !strings.Contains(w[0], "optimisation or inlining is disabled") {
		t.Errorf("-gcflags=all=-N -l: warnings %q", w)
	}
	plain, err := fixtureBinary()
	if err != nil {
		t.Fatal(err)
	}
	if w := BinaryWarnings(plain.Path, plain.Flags); len(w) != 0 {
		t.Errorf("plain build: warnings %q", w)
	}
}

// result builds a Result of one benchmark from per-fork values (seconds per
// op), the first value of each fork a warm-up iteration.
func result(n int, forks ...[]float64) *Result {
	return resultWarm(1, n, forks...)
}

// resultWarm is result with the first warm values of each fork warm-up
// iterations.
func resultWarm(warm, n int, forks ...[]float64) *Result {
	r := &Result{Target: &Target{Key: bench.Key{Name: "X"}}, N: n}
	for f, vs := range forks {
		for i, v := range vs {
			phase := bench.Measure
			if i < warm {
				phase = bench.Warmup
			}
			r.Measurements = append(r.Measurements, bench.Measurement{
				Key: r.Target.Key, Coord: bench.Coord{Fork: f + 1, Iteration: i, Phase: phase}, N: n,
				Values: []bench.Value{{Value: v, Unit: "sec/op"}},
			})
		}
	}
	return r
}

func TestResultWarnings(t *testing.T) {
	for _, tc := range []struct {
		name string
		r    *Result
		want []string // substrings, one per warning, in order
	}{
		{"clean", result(1e6, []float64{100e-9, 100e-9, 101e-9, 99e-9}, []float64{100e-9, 100e-9, 100e-9, 101e-9}), nil},
		{"dead code", result(1e8, []float64{0.3e-9, 0.3e-9, 0.3e-9}, []float64{0.3e-9, 0.3e-9, 0.3e-9}), []string{"implausibly fast"}},
		{"slow first", resultWarm(0, 1e6, []float64{300e-9, 100e-9, 101e-9, 100e-9}, []float64{310e-9, 100e-9, 99e-9, 100e-9}), []string{"first iteration", "vary by more than 10%"}},
		// Warm-up discarded the slow first iterations: they are not in
		// the measurement, and there is nothing to say.
		{"slow first discarded", result(1e6, []float64{300e-9, 100e-9, 101e-9}, []float64{310e-9, 100e-9, 99e-9}), nil},
		{"noisy", result(1e6, []float64{100e-9, 100e-9, 150e-9}, []float64{100e-9, 60e-9, 140e-9}), []string{"vary by more than 10%"}},
		{"short iterations", result(10, []float64{100e-9, 100e-9, 101e-9}, []float64{100e-9, 100e-9, 100e-9}), []string{"clock's resolution"}},
	} {
		w := ResultWarnings(tc.r, "sec/op")
		if len(w) != len(tc.want) {
			t.Errorf("%s: warnings %q, want %d", tc.name, w, len(tc.want))
			continue
		}
		for i, want := range tc.want {
			if !strings.Contains(w[i].String(), want) {
				t.Errorf("%s: warning %q, want it to mention %q", tc.name, w[i], want)
			}
		}
	}
}
