package plot

import (
	"reflect"
	"testing"

	"github.com/mbench/mbench/bench"
)

func TestTraceOf(t *testing.T) {
	sum := bench.Key{Package: "p", Name: "Sum", Procs: 4}
	other := bench.Key{Package: "p", Name: "Join", Procs: 4}
	m := func(k bench.Key, version string, fork, iter int, phase bench.Phase, v float64) bench.Measurement {
		return bench.Measurement{Key: k, Coord: bench.Coord{Version: version, SuiteRun: 1, Fork: fork, Iteration: iter, Phase: phase},
			Values: []bench.Value{{Value: v, Unit: "sec/op"}}}
	}
	r := &bench.Run{Measurements: []bench.Measurement{
		m(sum, "", 2, 0, bench.Warmup, 20), // fork 2 ran first
		m(sum, "", 2, 0, bench.Measure, 21),
		m(other, "", 2, 0, bench.Measure, 99),
		m(sum, "new", 2, 0, bench.Measure, 98),
		m(sum, "", 1, 1, bench.Measure, 12),
		m(sum, "", 1, 0, bench.Measure, 11),
		m(sum, "", 1, 0, bench.Warmup, 10),
		{Key: sum, Coord: bench.Coord{Fork: 1}, Values: []bench.Value{{Value: 1, Unit: "B/op"}}},
	}}
	got := TraceOf(r, sum, "", "sec/op")
	want := []TraceFork{{Values: []float64{20, 21}, Warmup: 1}, {Values: []float64{10, 11, 12}, Warmup: 1}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("TraceOf = %v, want %v", got, want)
	}
	if got := TraceOf(r, sum, "new", "sec/op"); !reflect.DeepEqual(got, []TraceFork{{Values: []float64{98}}}) {
		t.Errorf("TraceOf of version new = %v", got)
	}
}

func TestStoppedAfter(t *testing.T) {
	k := bench.Key{Package: "example.com/fake", Name: "Sum", Procs: 4}
	// The reasons as stop.Controller writes them (stop/controller.go).
	r := &bench.Run{Settings: map[string]string{
		bench.StopSetting(k, ""):    "stable after 3 forks (RCIW 0.8% ≤ 3%)",
		bench.StopSetting(k, "new"): "f_max=4 reached without stability (RCIW 9% > 3%)",
		bench.StopSetting(k, "old"): "static: f_max=2 forks, wi_max=1 warm-up and mi=2 measurement iterations each",
	}}
	for _, c := range []struct {
		version string
		want    int
	}{{"", 3}, {"new", 0}, {"old", 0}, {"other", 0}} {
		if got := StoppedAfter(r, k, c.version); got != c.want {
			t.Errorf("StoppedAfter(%q) = %d, want %d", c.version, got, c.want)
		}
	}
}

// TestNames: the package path all keys share is said once and left out of
// their names; keys of several packages keep what follows the path they
// share, in whole elements.
func TestNames(t *testing.T) {
	k := func(pkg, name string) bench.Key { return bench.Key{Package: pkg, Name: name, Procs: 8} }
	cases := []struct {
		keys   []bench.Key
		common string
		names  []string
	}{
		{[]bench.Key{k("example.com/m/codec", "Decode"), k("example.com/m/codec", "Encode/n=10")},
			"example.com/m/codec", []string{"Decode-8", "Encode/n=10-8"}},
		{[]bench.Key{k("example.com/m/codec", "Decode"), k("example.com/m/cache", "Get")},
			"example.com/m", []string{"codec.Decode-8", "cache.Get-8"}},
		// "example.com/mx" shares "example.com", not "example.com/m".
		{[]bench.Key{k("example.com/m/a", "A"), k("example.com/mx", "B")},
			"example.com", []string{"m/a.A-8", "mx.B-8"}},
		// A package that is the shared path keeps its own name.
		{[]bench.Key{k("example.com/m", "A"), k("example.com/m/sub", "B")},
			"example.com", []string{"m.A-8", "m/sub.B-8"}},
		{[]bench.Key{k("", "A"), k("", "B")}, "", []string{"A-8", "B-8"}},
		{[]bench.Key{k("", "A"), k("p", "B")}, "", []string{"A-8", "p.B-8"}},
		{[]bench.Key{k("a/x", "A"), k("b/y", "B")}, "", []string{"a/x.A-8", "b/y.B-8"}},
		{nil, "", []string{}},
	}
	for _, c := range cases {
		common, names := Names(c.keys)
		if common != c.common || !reflect.DeepEqual(names, c.names) {
			t.Errorf("Names(%v) = %q, %q; want %q, %q", c.keys, common, names, c.common, c.names)
		}
	}
}
