package vet

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

func TestOnlyConfirmed(t *testing.T) {
	in := []Finding{
		{Analyzer: "deadresult", Pos: "a_test.go:1:1", Check: "confirmed"},
		{Analyzer: "deadresult", Pos: "a_test.go:2:1", Check: "refuted"},
		{Analyzer: "bnsize", Pos: "a_test.go:3:1", Check: "undetermined"},
		{Analyzer: "stoptimer", Pos: "a_test.go:4:1"},
		{Analyzer: "driftstate", Pos: "a_test.go:5:1", Check: "confirmed"},
	}
	kept, left := OnlyConfirmed(in)
	if len(kept) != 2 || kept[0].Pos != "a_test.go:1:1" || kept[1].Pos != "a_test.go:5:1" || left != 3 {
		t.Errorf("OnlyConfirmed kept %+v and left out %d, want the findings at lines 1 and 5 and 3 left out", kept, left)
	}
	if kept, left := OnlyConfirmed(nil); kept != nil || left != 0 {
		t.Errorf("OnlyConfirmed(nil) = %v, %d", kept, left)
	}
}

func TestRootCause(t *testing.T) {
	a := &analysis.Analyzer{Name: "a"}
	bad := &checker.Action{Analyzer: a, Package: &packages.Package{ID: "bad"}, Err: errors.New("analysis skipped due to errors in package")}
	ok := &checker.Action{Analyzer: a, Package: &packages.Package{ID: "ok"}}
	mid := &checker.Action{Analyzer: a, Package: &packages.Package{ID: "mid"}, Deps: []*checker.Action{ok, bad}, Err: errors.New("failed prerequisites")}
	root := &checker.Action{Analyzer: a, Package: &packages.Package{ID: "root"}, Deps: []*checker.Action{mid}, Err: errors.New("failed prerequisites")}
	if got := rootCause(root); got != bad {
		t.Errorf("rootCause = %v, want %v", got, bad)
	}
	if got := rootCause(bad); got != bad {
		t.Errorf("rootCause of a failed action without failed deps = %v, want itself", got)
	}
}

// writeTemp writes files into a new directory and returns it.
func writeTemp(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o640); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// oneFix returns a finding whose fix makes the edits.
func oneFix(edits ...Edit) []Finding {
	return []Finding{{Analyzer: "deadresult", Pos: "a.go:3:2", Fixes: []Fix{{Edits: edits}}}}
}

const fixSrc = "package a\n\nvar x = 1\n"

// TestApplyFixesReplaces: a fixed file is a new file renamed over the
// old one, with the old one's mode, and no temporary file stays behind.
func TestApplyFixesReplaces(t *testing.T) {
	dir := writeTemp(t, map[string]string{"a.go": fixSrc})
	name := filepath.Join(dir, "a.go")
	before, err := os.Stat(name)
	if err != nil {
		t.Fatal(err)
	}
	start := strings.Index(fixSrc, "1")
	n, notFixed, err := ApplyFixes(oneFix(Edit{File: name, Start: start, End: start + 1, New: "2"}))
	if n != 1 || notFixed != nil || err != nil {
		t.Fatalf("ApplyFixes = %d, %v, %v", n, notFixed, err)
	}
	after, err := os.Stat(name)
	if err != nil {
		t.Fatal(err)
	}
	if src, _ := os.ReadFile(name); string(src) != "package a\n\nvar x = 2\n" {
		t.Errorf("fixed file:\n%s", src)
	}
	if os.SameFile(before, after) {
		t.Error("the file was written in place, not replaced by a new one")
	}
	if after.Mode() != before.Mode() {
		t.Errorf("mode %v, want %v", after.Mode(), before.Mode())
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("files left in the directory: %v", entries)
	}
}

// TestApplyFixesRefuses: an edit outside its file, or two edits of one
// fix that overlap, are errors naming the file, and nothing is written.
func TestApplyFixesRefuses(t *testing.T) {
	for _, tc := range []struct {
		name  string
		edits func(file string) []Edit
		want  string
	}{
		{"past the end", func(f string) []Edit { return []Edit{{File: f, Start: 5, End: len(fixSrc) + 10, New: "x"}} }, "outside the file"},
		{"negative", func(f string) []Edit { return []Edit{{File: f, Start: -1, End: 2, New: "x"}} }, "outside the file"},
		{"backwards", func(f string) []Edit { return []Edit{{File: f, Start: 4, End: 2, New: "x"}} }, "outside the file"},
		{"overlap", func(f string) []Edit {
			return []Edit{{File: f, Start: 2, End: 6, New: "x"}, {File: f, Start: 5, End: 8, New: "y"}}
		}, "overlap"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeTemp(t, map[string]string{"a.go": fixSrc, "b.go": "package a\n"})
			a, b := filepath.Join(dir, "a.go"), filepath.Join(dir, "b.go")
			// A good fix of another file, which must not be written either.
			findings := append(oneFix(Edit{File: b, Start: 10, End: 10, New: "// b\n"}), oneFix(tc.edits(a)...)...)
			_, _, err := ApplyFixes(findings)
			if err == nil || !strings.Contains(err.Error(), a) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one naming %s and saying %q", err, a, tc.want)
			}
			if src, _ := os.ReadFile(a); string(src) != fixSrc {
				t.Errorf("a.go changed:\n%s", src)
			}
			if src, _ := os.ReadFile(b); string(src) != "package a\n" {
				t.Errorf("b.go changed:\n%s", src)
			}
		})
	}
}

// TestVetLineDirective: a fix in code that a //line directive maps to
// another file is not applied (its positions name the other file), and
// the report says so, naming the file; a fix above the directive is.
func TestVetLineDirective(t *testing.T) {
	mix := "package lm\n\nfunc Mix(x uint64) uint64 {\n\tx ^= x >> 33\n\tx *= 0xff51afd7ed558ccd\n\treturn x\n}\n"
	test := `package lm

import "testing"

var input uint64 = 1

func BenchmarkPlain(b *testing.B) {
	for i := 0; i < b.N; i++ {
		Mix(input)
	}
}

//line lm.go:1
func BenchmarkMapped(b *testing.B) {
	for i := 0; i < b.N; i++ {
		Mix(input)
	}
}
`
	dir := writeTemp(t, map[string]string{"go.mod": "module example.com/lm\n\ngo 1.26\n", "lm.go": mix, "lm_test.go": test})
	t.Chdir(dir)
	r, err := Vet(context.Background(), []string{"."}, Options{Fix: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Findings) != 2 || r.Fixed != 1 || len(r.NotFixed) != 1 {
		t.Fatalf("%d findings, %d fixed, not fixed %q; want 2, 1 and one", len(r.Findings), r.Fixed, r.NotFixed)
	}
	testFile := filepath.Join(dir, "lm_test.go")
	if msg := r.NotFixed[0]; !strings.Contains(msg, testFile) || !strings.Contains(msg, "//line") || !strings.Contains(msg, "lm.go:2") {
		t.Errorf("not fixed: %q, want a message naming %s, the //line directive and lm.go:2", msg, testFile)
	}
	if src, _ := os.ReadFile(filepath.Join(dir, "lm.go")); string(src) != mix {
		t.Errorf("lm.go, the file the directive names, changed:\n%s", src)
	}
	src, _ := os.ReadFile(testFile)
	plain, mapped, _ := strings.Cut(string(src), "//line")
	if !strings.Contains(plain, "for b.Loop()") || strings.Contains(mapped, "for b.Loop()") {
		t.Errorf("want BenchmarkPlain fixed and BenchmarkMapped not:\n%s", src)
	}
}
