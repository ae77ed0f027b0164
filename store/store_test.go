package store

import (
	"maps"
	"math"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mbench/mbench/bench"
)

// openTemp opens a new store in a fresh directory, below a parent directory
// that does not exist yet (Open must create it).
func openTemp(t testing.TB) (*Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), ".mbench", "mbench.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Error(err)
		}
	})
	return s, path
}

// fullRun returns a run with every field set: two versions and measurements
// without one, several forks, warm-up and measurement iterations, custom
// units with their original form, floats SQLite cannot store as REAL, times
// with nanoseconds in a non-UTC zone, and configurations that change midway.
func fullRun() *bench.Run {
	zone := time.FixedZone("UTC+5:30", 5*3600+1800)
	t0 := time.Date(2026, 3, 14, 15, 9, 26, 535897932, zone)
	cfgA := config("goos", "linux", "goarch", "amd64", "cpu", "Xeon @ 2.4GHz")
	cfgB := config("goos", "linux", "goarch", "amd64", "note", "tabs\tand\nnewlines, ünïcode, \x00 byte")
	r := &bench.Run{
		Label:  "feature/x",
		Commit: "0123456789abcdef0123456789abcdef01234567",
		Dirty:  true,
		Platform: bench.Platform{
			Toolchain: "go1.26.8", GOOS: "linux", GOARCH: "amd64", Kernel: "6.8.0-45-generic",
			CPU: "Intel(R) Xeon(R)", CPUs: 64, GOMAXPROCS: 8, Governor: "performance/powersave", Turbo: "on",
			Host: "bench-01", Instance: "ci-large", Load: new(12.5), Busy: new(0.0),
		},
		Start:    t0,
		End:      t0.Add(90*time.Second + 7),
		Settings: map[string]string{"criterion": "rciw", "iterTime": "50ms", "": "empty key"},
		Units: []bench.UnitMeta{
			{Unit: "frobs/op", Key: "better", Value: "higher"},
			{Unit: "frobs/op", Key: "assume", Value: "exact"},
			{Unit: "sec/op", Key: "better", Value: "lower"},
		},
	}
	keys := []bench.Key{
		{Package: "example.com/m/codec", Name: "Decode/size=small", Procs: 8},
		{Package: "example.com/m/codec", Name: "Encode", Procs: 0},
		{Package: "", Name: "Ünïcode/name with spaces", Procs: 1},
	}
	// The order of the source, with a benchmark that measured nothing.
	r.Benchmarks = []bench.Key{keys[2], {Package: "example.com/m/codec", Name: "Failed", Procs: 8}, keys[0], keys[1]}
	special := []float64{math.NaN(), math.Copysign(0, -1), math.Inf(1), math.Inf(-1),
		5e-324, math.MaxFloat64, 0.1, 1e20, -3}
	i := 0
	for fork := 1; fork <= 3; fork++ {
		for k, key := range keys {
			for it := 0; it < 4; it++ {
				phase := bench.Measure
				if it < 2 {
					phase = bench.Warmup
				}
				cfg := cfgA
				if fork == 3 {
					cfg = cfgB
				}
				if k == 2 {
					cfg = nil
				}
				m := bench.Measurement{
					Key: key,
					Coord: bench.Coord{Version: []string{"", "old", "new"}[fork%3],
						Instance: "inst-" + string(rune('a'+fork%2)), SuiteRun: fork / 2,
						Fork: fork, Iteration: it, Phase: phase},
					N:      1<<40 + i,
					Start:  t0.Add(time.Duration(i)*time.Millisecond + time.Duration(i)),
					End:    t0.Add(time.Duration(i+1)*time.Millisecond + 3),
					Config: cfg,
					Values: []bench.Value{
						{Value: 1.25e-6 + float64(i)*1e-9, Unit: "sec/op", OrigValue: 1250 + float64(i), OrigUnit: "ns/op"},
						{Value: 4096, Unit: "B/op"},
						{Value: special[i%len(special)], Unit: "frobs/op", OrigValue: special[(i+1)%len(special)], OrigUnit: "kfrobs/op"},
					},
				}
				switch i {
				case 5:
					m.Values = nil // a measurement without values
				case 6:
					m.Start, m.End = time.Time{}, time.Time{} // unknown times
				case 7:
					m.Start = time.Unix(0, 0) // the epoch is not the zero time
				}
				r.Measurements = append(r.Measurements, m)
				i++
			}
		}
	}
	return r
}

// config returns the configuration of the given key/value pairs.
func config(kv ...string) []bench.Config {
	var cfg []bench.Config
	for i := 0; i+1 < len(kv); i += 2 {
		cfg = append(cfg, bench.Config{Key: kv[i], Value: kv[i+1]})
	}
	return cfg
}

// normalize returns a deep copy of r that reflect.DeepEqual can compare: times
// in UTC without monotonic readings, and floats replaced by zero, with their
// bits returned separately (DeepEqual finds NaN unequal to itself).
func normalize(r *bench.Run) (*bench.Run, []uint64) {
	c := *r
	c.Start, c.End = utc(r.Start), utc(r.End)
	c.Settings = maps.Clone(r.Settings)
	c.Units = slices.Clone(r.Units)
	c.Measurements = slices.Clone(r.Measurements)
	var bits []uint64
	for i := range c.Measurements {
		m := &c.Measurements[i]
		m.Start, m.End = utc(m.Start), utc(m.End)
		m.Config = slices.Clone(m.Config)
		m.Values = slices.Clone(m.Values)
		for j := range m.Values {
			v := &m.Values[j]
			bits = append(bits, math.Float64bits(v.Value), math.Float64bits(v.OrigValue))
			v.Value, v.OrigValue = 0, 0
		}
	}
	return &c, bits
}

func utc(t time.Time) time.Time {
	if t.IsZero() {
		return time.Time{}
	}
	return t.Round(0).UTC()
}

// store saves r in s as the runner does: metadata, measurements in batches of
// varying size, then Finish.
func store(t *testing.T, s *Store, r *bench.Run, status string) string {
	t.Helper()
	meta := *r
	meta.Measurements = nil
	id, err := s.CreateRun(&meta)
	if err != nil {
		t.Fatal(err)
	}
	ms := r.Measurements
	for n := 1; len(ms) > 0; n = n%4 + 1 {
		n := min(n, len(ms))
		if err := s.Append(id, ms[:n]...); err != nil {
			t.Fatal(err)
		}
		ms = ms[n:]
	}
	if status != "" {
		if err := s.Finish(id, r.End, status); err != nil {
			t.Fatal(err)
		}
	}
	return id
}

func TestRoundTrip(t *testing.T) { eachBackend(t, testRoundTrip) }

func testRoundTrip(t *testing.T, open opener) {
	s, path := open(t)
	want := fullRun()
	id := store(t, s, want, StatusComplete)
	if !regexp.MustCompile(`^[0-9a-f]{12}$`).MatchString(id) {
		t.Errorf("CreateRun assigned id %q, want 12 hex digits", id)
	}
	want.ID = id

	check := func(s *Store) {
		t.Helper()
		got, err := s.Load(id)
		if err != nil {
			t.Fatal(err)
		}
		g, gbits := normalize(got)
		w, wbits := normalize(want)
		if !reflect.DeepEqual(g, w) {
			t.Errorf("Load(%s) differs from what was stored", id)
			if len(g.Measurements) == len(w.Measurements) {
				for i := range g.Measurements {
					if !reflect.DeepEqual(g.Measurements[i], w.Measurements[i]) {
						t.Errorf("measurement %d:\ngot  %+v\nwant %+v", i, g.Measurements[i], w.Measurements[i])
					}
				}
			}
			g.Measurements, w.Measurements = nil, nil
			t.Errorf("run:\ngot  %+v\nwant %+v", g, w)
		}
		if len(gbits) != len(wbits) {
			t.Errorf("loaded %d float values, want %d", len(gbits), len(wbits))
		}
		for i := range min(len(gbits), len(wbits)) {
			if gbits[i] != wbits[i] {
				t.Errorf("float %d (counting Value and OrigValue of every value) has bits %#x, want %#x", i, gbits[i], wbits[i])
				break
			}
		}
		// Times come back in UTC, exactly.
		if got.Start.Location() != time.UTC || !got.Start.Equal(want.Start) {
			t.Errorf("Start = %v, want %v in UTC", got.Start, want.Start)
		}
		// Consecutive equal configurations share one slice.
		for i := 1; i < len(got.Measurements); i++ {
			a, b := got.Measurements[i-1].Config, got.Measurements[i].Config
			if len(a) > 0 && slices.Equal(a, b) && &a[0] != &b[0] {
				t.Errorf("measurements %d and %d have equal configurations in separate slices", i-1, i)
			}
		}
	}
	check(s)

	// The same after reopening the file.
	s2, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	check(s2)
	infos, err := s2.Runs()
	if err != nil {
		t.Fatal(err)
	}
	wantInfo := RunInfo{ID: id, Label: want.Label, Commit: want.Commit, Dirty: true,
		Start: utc(want.Start), End: utc(want.End), Status: StatusComplete,
		Measurements: len(want.Measurements), Benchmarks: 3}
	if len(infos) != 1 || !reflect.DeepEqual(infos[0], wantInfo) {
		t.Errorf("Runs() = %+v, want [%+v]", infos, wantInfo)
	}
}

// TestRoundTripEmpty checks that a run with nothing but zero fields loads
// back unchanged, with nil slices and maps.
func TestRoundTripEmpty(t *testing.T) { eachBackend(t, testRoundTripEmpty) }

func testRoundTripEmpty(t *testing.T, open opener) {
	s, _ := open(t)
	id, err := s.CreateRun(&bench.Run{ID: "empty-run"})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Append(id, bench.Measurement{}); err != nil {
		t.Fatal(err)
	}
	got, err := s.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	want := &bench.Run{ID: "empty-run", Measurements: []bench.Measurement{{}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Load = %+v, want %+v", got, want)
	}
}

func TestCreateRun(t *testing.T) { eachBackend(t, testCreateRun) }

func testCreateRun(t *testing.T, open opener) {
	s, _ := open(t)
	r := &bench.Run{}
	id, err := s.CreateRun(r)
	if err != nil {
		t.Fatal(err)
	}
	if r.ID != id {
		t.Errorf("CreateRun returned %q but set r.ID = %q", id, r.ID)
	}
	id2, err := s.CreateRun(&bench.Run{})
	if err != nil {
		t.Fatal(err)
	}
	if id2 == id {
		t.Errorf("two runs got the same id %s", id)
	}
	if _, err := s.CreateRun(&bench.Run{ID: id}); err == nil || !strings.Contains(err.Error(), "exists") {
		t.Errorf("CreateRun with an existing id: err = %v, want one saying it exists", err)
	}
	if _, err := s.CreateRun(&bench.Run{Label: Latest}); err == nil {
		t.Errorf("CreateRun with label %q succeeded, want an error", Latest)
	}
	far := time.Date(3000, 1, 1, 0, 0, 0, 0, time.UTC)
	if _, err := s.CreateRun(&bench.Run{Start: far}); err == nil || !strings.Contains(err.Error(), "3000") {
		t.Errorf("CreateRun with start in 3000: err = %v, want one naming the time", err)
	}
	infos, err := s.Runs()
	if err != nil {
		t.Fatal(err)
	}
	if len(infos) != 2 || infos[0].ID != id2 || infos[1].ID != id {
		t.Errorf("Runs() = %+v, want %s then %s", infos, id2, id)
	}
	for _, ri := range infos {
		if ri.Status != StatusRunning {
			t.Errorf("run %s has status %q, want %q", ri.ID, ri.Status, StatusRunning)
		}
	}
}

func TestWriteErrors(t *testing.T) { eachBackend(t, testWriteErrors) }

func testWriteErrors(t *testing.T, open opener) {
	s, _ := open(t)
	id, err := s.CreateRun(&bench.Run{})
	if err != nil {
		t.Fatal(err)
	}
	m := bench.Measurement{Key: bench.Key{Name: "X"}, Values: []bench.Value{{Value: 1, Unit: "sec/op"}}}
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"append to unknown run", s.Append("nosuchrun", m), `no run with id "nosuchrun"`},
		{"finish unknown run", s.Finish("nosuchrun", time.Now(), StatusComplete), `no run with id "nosuchrun"`},
		{"finish with bad status", s.Finish(id, time.Now(), "done"), `invalid status "done"`},
		{"set settings of unknown run", s.SetSettings("nosuchrun", map[string]string{"a": "b"}), `no run with id "nosuchrun"`},
		{"append far future", s.Append(id, m, bench.Measurement{Start: time.Date(2300, 1, 1, 0, 0, 0, 0, time.UTC)}), "2300"},
	} {
		if tc.err == nil || !strings.Contains(tc.err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want one containing %q", tc.name, tc.err, tc.want)
		}
	}
	// The failed Append stored nothing, not even its valid first measurement.
	r, err := s.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Measurements) != 0 {
		t.Errorf("failed Appends stored %d measurements", len(r.Measurements))
	}
}

func TestFinishAndSettings(t *testing.T) { eachBackend(t, testFinishAndSettings) }

func testFinishAndSettings(t *testing.T, open opener) {
	s, _ := open(t)
	start := time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC)
	id, err := s.CreateRun(&bench.Run{Start: start, Settings: map[string]string{"a": "1", "b": "2"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.SetSettings(id, map[string]string{"b": "3", "c": "4"}); err != nil {
		t.Fatal(err)
	}
	end := start.Add(time.Hour + 1)
	if err := s.Finish(id, end, StatusInterrupted); err != nil {
		t.Fatal(err)
	}
	r, err := s.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	if want := map[string]string{"a": "1", "b": "3", "c": "4"}; !maps.Equal(r.Settings, want) {
		t.Errorf("Settings = %v, want %v", r.Settings, want)
	}
	if !r.End.Equal(end) {
		t.Errorf("End = %v, want %v", r.End, end)
	}
	infos, err := s.Runs()
	if err != nil {
		t.Fatal(err)
	}
	if infos[0].Status != StatusInterrupted || !infos[0].End.Equal(end) {
		t.Errorf("Runs()[0] = %+v, want status %q and end %v", infos[0], StatusInterrupted, end)
	}
}

func TestRunsCounts(t *testing.T) { eachBackend(t, testRunsCounts) }

func testRunsCounts(t *testing.T, open opener) {
	s, _ := open(t)
	full := fullRun()
	a := store(t, s, full, "")
	b := store(t, s, &bench.Run{Label: "empty"}, StatusFailed)
	infos, err := s.Runs()
	if err != nil {
		t.Fatal(err)
	}
	want := []RunInfo{
		{ID: b, Label: "empty", Status: StatusFailed},
		{ID: a, Label: full.Label, Commit: full.Commit, Dirty: true, Start: utc(full.Start), End: utc(full.End),
			Status: StatusRunning, Measurements: len(full.Measurements), Benchmarks: 3},
	}
	if !reflect.DeepEqual(infos, want) {
		t.Errorf("Runs() =\n%+v\nwant\n%+v", infos, want)
	}
}

func TestResolve(t *testing.T) { eachBackend(t, testResolve) }

func testResolve(t *testing.T, open opener) {
	s, _ := open(t)
	if _, err := s.Resolve(Latest); err == nil || !strings.Contains(err.Error(), "no runs") {
		t.Errorf("Resolve(latest) in an empty store: err = %v, want one saying there are no runs", err)
	}
	for _, r := range []bench.Run{
		{ID: "aaaa1111bbbb", Label: "main"},
		{ID: "aaaa2222cccc", Label: "main"},
		{ID: "bbbb3333dddd", Label: "feature"},
		{ID: "cccc4444eeee"},
		{ID: "dddd5555ffff", Label: "cccc"}, // a label that is also an id prefix
		{ID: "eeee6666aaaa", Label: "eeee"}, // a label that is its run's id prefix
		{ID: "ffff7777bbbb", Label: "main"},
		{ID: "ffff8888cccc"},
		{ID: "ffff9999dddd", Label: "ffff"}, // and also another's
	} {
		if _, err := s.CreateRun(&r); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct{ ref, want string }{
		{"aaaa1111bbbb", "aaaa1111bbbb"},
		{"bbbb", "bbbb3333dddd"},
		{"cccc4444", "cccc4444eeee"},
		{"main", "ffff7777bbbb"}, // the newest of three
		{"feature", "bbbb3333dddd"},
		{"latest", "ffff9999dddd"},
		{"eeee", "eeee6666aaaa"},
		{"label:cccc", "dddd5555ffff"},
		{"label:ffff", "ffff9999dddd"},
		{"label:main", "ffff7777bbbb"},
		{"cccc4", "cccc4444eeee"},
	} {
		got, err := s.Resolve(tc.ref)
		if err != nil || got != tc.want {
			t.Errorf("Resolve(%q) = %q, %v, want %q", tc.ref, got, err, tc.want)
		}
	}
	for _, tc := range []struct {
		ref  string
		want []string // substrings of the error
	}{
		{"aaaa", []string{"ambiguous", "aaaa2222cccc (main), aaaa1111bbbb (main)"}},
		// A label that is also the start of other runs' ids.
		{"cccc", []string{"ambiguous: the label of run dddd5555ffff and the start of the id of run cccc4444eeee", "label:cccc"}},
		{"ffff", []string{"ambiguous: the label of run ffff9999dddd and the start of the id of runs ffff8888cccc, ffff7777bbbb"}},
		{"label:nope", []string{`has label "nope"`}},
		{"nope", []string{s.path, "labels: ffff, main, eeee, cccc, feature"}},
		{"bbb", []string{"at least 4 characters"}},
		{"", []string{"empty"}},
	} {
		_, err := s.Resolve(tc.ref)
		if err == nil {
			t.Errorf("Resolve(%q) succeeded, want an error", tc.ref)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("Resolve(%q): err = %v, want it to contain %q", tc.ref, err, w)
			}
		}
	}
	// LoadRef gathers the label it is given with "label:".
	if r, _, err := s.LoadRef("label:cccc"); err != nil || r.Label != "cccc" || r.ID != "dddd5555ffff" {
		t.Errorf("LoadRef(label:cccc) = %v, want run dddd5555ffff labelled cccc", err)
	}
}
