package report

import (
	"bytes"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/pprof/profile"
	"github.com/mbench/mbench/bench"
)

// writeKept writes the merged CPU profiles of one benchmark of session
// id under dir, as mbench ab -profile keeps them: 1000 operations of
// 1µs in the old version, where the new one spends 300ns more in
// pkg.validate, 100ns less in pkg.parse, and 50ns in pkg.check, new.
func writeKept(t *testing.T, dir, id, name string) {
	t.Helper()
	paths := [2]map[string]int64{
		{"main;Bench;pkg.parse": 600, "main;Bench;pkg.validate": 300, "main;Bench;pkg.validate;<hash>": 100},
		{"main;Bench;pkg.parse": 500, "main;Bench;pkg.validate": 600, "main;Bench;pkg.validate;<hash>": 100, "main;Bench;pkg.check": 50},
	}
	if err := os.MkdirAll(filepath.Join(dir, id), 0o777); err != nil {
		t.Fatal(err)
	}
	for v, version := range []string{"old", "new"} {
		p := &profile.Profile{
			SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
			PeriodType: &profile.ValueType{Type: "cpu", Unit: "nanoseconds"}, Period: 1e6,
			Comments: []string{"mbench: 5 processes, 1000 operations"},
		}
		funcs := map[string]*profile.Function{}
		for path, ns := range paths[v] {
			var locs []*profile.Location
			frames := strings.Split(path, ";")
			for i := len(frames) - 1; i >= 0; i-- {
				fn := funcs[frames[i]]
				if fn == nil {
					fn = &profile.Function{ID: uint64(len(funcs) + 1), Name: frames[i]}
					funcs[frames[i]] = fn
					p.Function = append(p.Function, fn)
				}
				loc := &profile.Location{ID: uint64(len(p.Location) + 1), Line: []profile.Line{{Function: fn}}}
				p.Location = append(p.Location, loc)
				locs = append(locs, loc)
			}
			p.Sample = append(p.Sample, &profile.Sample{Location: locs, Value: []int64{ns, ns * 1000}})
		}
		f, err := os.Create(filepath.Join(dir, id, name+"."+version+".cpu.pb.gz"))
		if err != nil {
			t.Fatal(err)
		}
		if err := p.Write(f); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
}

func TestFlame(t *testing.T) {
	dir := t.TempDir()
	writeKept(t, dir, "s1", "pkg.Bench")
	p, err := readKept(filepath.Join(dir, "s1", "pkg.Bench.old.cpu.pb.gz"), filepath.Join(dir, "s1", "pkg.Bench.new.cpu.pb.gz"))
	if err != nil {
		t.Fatal(err)
	}
	if p.Name != "pkg.Bench" || p.Unit != "ns/op" || p.Tree.Old != 1000 || p.Tree.New != 1250 {
		t.Fatalf("read %s: %v → %v %s", p.Name, p.Tree.Old, p.Tree.New, p.Unit)
	}
	var b bytes.Buffer
	if err := (flame{title: p.Name, p: p}).WriteSVG(&b); err != nil {
		t.Fatal(err)
	}
	// Well-formed, with every frame's change in its title, coloured by
	// its sign.
	var doc struct {
		Groups []struct {
			Title string `xml:"title"`
			Rect  struct {
				Fill string `xml:"fill,attr"`
			} `xml:"rect"`
		} `xml:"g"`
	}
	if err := xml.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	frames := map[string]string{}
	for _, g := range doc.Groups {
		frames[strings.SplitN(g.Title, ":", 2)[0]] = g.Title + " " + g.Rect.Fill
	}
	for _, c := range []struct{ fn, want string }{
		{"pkg.validate", "400ns → 700ns per op (+300ns, +30.0 pts of the old total) #d55e00"},
		{"pkg.parse", "−100ns, -10.0 pts"},
		{"pkg.check", "0s → 50ns per op"},
		{"<hash>", "(+0s, +0.0 pts of the old total) #c8c8c8"},
		{"total", "1µs → 1.25µs"},
	} {
		if !strings.Contains(frames[c.fn], c.want) {
			t.Errorf("frame %s: %q, want %q", c.fn, frames[c.fn], c.want)
		}
	}
	if !strings.Contains(frames["pkg.parse"], "#") || strings.Contains(frames["pkg.parse"], "#d55e00") {
		t.Errorf("parse, which got faster, is not blue: %s", frames["pkg.parse"])
	}
}

func TestFlameUnreadable(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "s1"), 0o777)
	os.WriteFile(filepath.Join(dir, "s1", "x.old.cpu.pb.gz"), []byte("garbage"), 0o666)
	r := &Report{Sides: []*Side{{Run: &bench.Run{ID: "s1"}}}}
	r.profiles(dir)
	if len(r.Profiles) != 0 || len(r.Notes) != 1 || !strings.Contains(r.Notes[0], "x.old.cpu.pb.gz") {
		t.Errorf("profiles %v, notes %q", r.Profiles, r.Notes)
	}
}
