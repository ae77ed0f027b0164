package gen

import (
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteSummary(t *testing.T) {
	dir := t.TempDir()
	at := func(line int) token.Position {
		return token.Position{Filename: filepath.Join(dir, "p", "p.go"), Line: line}
	}
	r := &Result{Segments: []*Segment{
		{Name: "Sum", Pos: at(3), Sets: 1},
		{Name: "Sort", Pos: at(9), Sets: 2},
		{Name: "Inner", Pos: at(20), Reason: JumpsOut, Detail: "return at p.go:22:3"},
		{Name: "Cold", Pos: at(30), Reason: NotReached},
	}}
	var b strings.Builder
	if err := r.WriteSummary(&b, dir); err != nil {
		t.Fatal(err)
	}
	want := `p/p.go:3 Sum: generated, 1 input set
p/p.go:9 Sort: generated, 2 input sets
p/p.go:20 Inner: rejected: jumps out of the segment (return at p.go:22:3)
p/p.go:30 Cold: not reached by tests
4 segments: 2 generated, 1 jumps out of the segment, 1 not reached by tests
`
	if b.String() != want {
		t.Errorf("WriteSummary:\n%s\nwant:\n%s", b.String(), want)
	}

	b.Reset()
	if err := (&Result{}).WriteSummary(&b, dir); err != nil || b.String() != "0 segments: no marked segments\n" {
		t.Errorf("WriteSummary of nothing = %q, %v", b.String(), err)
	}

	if err := r.StaleError(dir); err != nil {
		t.Errorf("StaleError with nothing stale = %v", err)
	}
	r.Stale = []string{filepath.Join(dir, "p", GeneratedFile)}
	if err := r.StaleError(dir); err == nil || err.Error() != "1 stale file (run mbench gen):\n\tp/"+GeneratedFile {
		t.Errorf("StaleError = %v", err)
	}
}

func TestWriteSummaryExcluded(t *testing.T) {
	dir := t.TempDir()
	r := &Result{Excluded: []string{filepath.Join(dir, "x_special.go") + ":12"}}
	var b strings.Builder
	if err := r.WriteSummary(&b, dir); err != nil {
		t.Fatal(err)
	}
	want := "0 segments: no marked segments\n" +
		"1 marker in a file excluded by build constraints: x_special.go:12; give -tags to include it\n"
	if b.String() != want {
		t.Errorf("WriteSummary:\n%s\nwant:\n%s", b.String(), want)
	}
	r.Excluded = append(r.Excluded, filepath.Join(dir, "p", "y.go")+":3")
	b.Reset()
	r.WriteSummary(&b, dir)
	if want := "2 markers in files excluded by build constraints: x_special.go:12, p/y.go:3; give -tags to include them\n"; !strings.HasSuffix(b.String(), want) {
		t.Errorf("WriteSummary:\n%s\nwant it to end in:\n%s", b.String(), want)
	}
}
