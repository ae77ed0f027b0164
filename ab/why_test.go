package ab

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/compare"
	"github.com/mbench/mbench/profdiff"
	"github.com/mbench/mbench/stats"
)

// whyFixture is a benchmark 19.3% slower whose profile names one function
// that gained 11.2 points and one new in the new version, and a
// benchmark that could not be profiled.
func whyFixture() []*Why {
	iv := func(c, lo, hi float64) stats.Interval { return stats.Interval{Center: c, Lo: lo, Hi: hi, Level: 0.99} }
	d := &profdiff.Diff{
		SampleType: profdiff.CPU, Unit: "ns/op", OldProcesses: 5, NewProcesses: 5, Samples: 2100, Tested: 8, Level: 0.9875,
		Total: profdiff.Change{Old: 1000, New: 1187, Delta: iv(187, 160, 214), Named: true},
		Rows: []profdiff.Row{
			{Func: "encoding/json.(*decodeState).object", Tested: true,
				Flat: profdiff.Change{Old: 300, New: 412, Delta: iv(112, 98, 125), Named: true}, Cum: profdiff.Change{Old: 600, New: 712, Delta: iv(112, 90, 134), Named: true}},
			{Func: "pkg.validate", Only: "new", Tested: true,
				Flat: profdiff.Change{New: 60, Delta: iv(60, 41, 79), Named: true}, Cum: profdiff.Change{New: 60, Delta: iv(60, 41, 79), Named: true}},
			{Func: "runtime.mallocgc", Tested: true,
				Flat: profdiff.Change{Old: 100, New: 115, Delta: iv(15, -10, 40)}, Cum: profdiff.Change{Old: 100, New: 115, Delta: iv(15, math.NaN(), math.NaN())}},
		},
		Warnings: []string{"new process 3 left out: no samples"},
	}
	allocs := &profdiff.Diff{SampleType: profdiff.AllocObjects, Unit: "allocs/op", OldProcesses: 3, NewProcesses: 3, Tested: 2, Level: 0.975,
		Total: profdiff.Change{Old: 10, New: 12, Delta: iv(2, 2, 2), Named: true},
		Rows:  []profdiff.Row{{Func: "pkg.(*T).grow", Tested: true, Flat: profdiff.Change{Old: 1, New: 3, Delta: iv(2, 2, 2), Named: true}}},
	}
	row := &compare.Row{Key: bench.Key{Package: "encoding/json", Name: "Decode", Procs: 4}, Ratio: stats.Interval{Center: 1.193}}
	return []*Why{
		{Key: row.Key, Time: row, Ops: 120000, CPU: d, Allocs: allocs, Files: []string{"/s/profiles/r1/json.Decode-4.old.cpu.pb.gz", "/s/profiles/r1/json.Decode-4.new.cpu.pb.gz"}},
		{Key: bench.Key{Package: "encoding/json", Name: "Encode", Procs: 4}, Err: errors.New("new process 1: exit status 2\nnew process 2: exit status 2")},
	}
}

func TestWriteWhyText(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteWhy(&buf, compare.Text, whyFixture()); err != nil {
		t.Fatal(err)
	}
	got := buf.String()
	for _, want := range []string{
		"Decode-4 +19.30% = encoding/json.(*decodeState).object +11.2 pts [9.8, 12.5], pkg.validate +6.0 pts [4.1, 7.9] (only in new)\n",
		"CPU profile: 1µs/op → 1.19µs/op, +18.7 pts [16.0, 21.4]; 5+5 processes of 120000 operations, 2100 samples each; intervals at 98.75%",
		"warning: new process 3 left out: no samples",
		"go tool pprof -diff_base /s/profiles/r1/json.Decode-4.old.cpu.pb.gz /s/profiles/r1/json.Decode-4.new.cpu.pb.gz",
		"Encode-4: not profiled: new process 1: exit status 2; new process 2: exit status 2",
		"    allocs/op 10 allocs/op → 12 allocs/op = pkg.(*T).grow +2 allocs/op [2, 2]\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("text output lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "mallocgc") {
		t.Errorf("an unnamed function is listed:\n%s", got)
	}
}

func TestWriteWhyMarkdown(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteWhy(&buf, compare.Markdown, whyFixture()); err != nil {
		t.Fatal(err)
	}
	if got := buf.String(); !strings.Contains(got, "- Decode-4 +19.30% = `encoding/json.(*decodeState).object` +11.2 pts [9.8, 12.5]") ||
		!strings.Contains(got, "  - `go tool pprof -diff_base ") || !strings.Contains(got, "  - allocs/op 10 allocs/op → 12 allocs/op = `pkg.(*T).grow` +2 allocs/op [2, 2]") {
		t.Errorf("markdown:\n%s", got)
	}
}

func TestWriteJSON(t *testing.T) {
	res := &compare.Result{OldLabel: "a", NewLabel: "b", Metric: "sec/op"}
	var buf bytes.Buffer
	if err := Write(&buf, compare.JSON, []*compare.Result{res}, whyFixture()); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Results  []map[string]any
		Profiles []struct {
			Benchmark string
			CPU       *struct {
				Level     float64
				Total     struct{ Delta, Pts float64 }
				Functions []struct {
					Func, Only string
					Flat       struct {
						Delta, Pts float64
						Lo, Hi     *float64
						Named      bool
					}
					Cum struct{ Lo *float64 }
				}
			}
			Pprof, Error string
		}
	}
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	if len(got.Results) != 1 || len(got.Profiles) != 2 {
		t.Fatalf("%d results, %d profiles:\n%s", len(got.Results), len(got.Profiles), buf.String())
	}
	p := got.Profiles[0]
	if p.Benchmark != "BenchmarkDecode-4" || p.CPU == nil || len(p.CPU.Functions) != 3 || p.Pprof == "" {
		t.Fatalf("first profile: %+v", p)
	}
	f := p.CPU.Functions[0]
	if f.Func != "encoding/json.(*decodeState).object" || !f.Flat.Named || math.Abs(f.Flat.Pts-11.2) > 1e-9 || *f.Flat.Lo != 98 {
		t.Errorf("first function: %+v", f)
	}
	if m := p.CPU.Functions[2]; m.Cum.Lo != nil || m.Flat.Named {
		t.Errorf("an interval the data could not give is not null, or an unchanged function named: %+v", m)
	}
	if got.Profiles[1].Error == "" || got.Profiles[1].CPU != nil {
		t.Errorf("the failed profile: %+v", got.Profiles[1])
	}
	// Without profiles, the output is the comparisons' array as before.
	buf.Reset()
	if err := Write(&buf, compare.JSON, []*compare.Result{res}, nil); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(buf.String(), "[") {
		t.Errorf("without profiles: %s", buf.String())
	}
}
