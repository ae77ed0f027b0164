package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/mbench/mbench/vet/crosscheck"
)

func TestOffset(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "a_test.go")
	src := "package a\n\nfunc f() {\n\tg(1)\n}\n"
	if err := os.WriteFile(file, []byte(src), 0o666); err != nil {
		t.Fatal(err)
	}
	fs := make(files)
	got, off, err := fs.offset(file + ":4:2")
	if err != nil || got != file || src[off:off+4] != "g(1)" {
		t.Errorf("offset(:4:2) = %q, %d, %v; want the offset of g(1)", got, off, err)
	}
	if p := fs.position(crosscheck.Finding{File: file, Offset: off}); p != file+":4:2" {
		t.Errorf("position = %q, want %s:4:2", p, file)
	}
	for _, bad := range []string{file + ":9:1", file + ":4", file + ":x:1", file + ":5:40", filepath.Join(dir, "none.go") + ":1:1"} {
		if _, _, err := fs.offset(bad); err == nil {
			t.Errorf("offset(%q): no error", bad)
		}
	}
}

func TestListed(t *testing.T) {
	dir := t.TempDir()
	list := filepath.Join(dir, "list")
	if err := os.WriteFile(list, []byte("# removed\ndeadresult\tm@v1/a_test.go:4:2\n\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	l, err := readList(list)
	if err != nil || len(l) != 1 {
		t.Fatalf("readList = %v, %v", l, err)
	}
	if !listed(l, finding{Analyzer: "deadresult", Pos: "/s/src/m@v1/a_test.go:4:2"}) {
		t.Error("the listed finding is not listed")
	}
	if listed(l, finding{Analyzer: "constfold", Pos: "/s/src/m@v1/a_test.go:4:2"}) || listed(l, finding{Analyzer: "deadresult", Pos: "/s/src/m@v1/a_test.go:4:22"}) {
		t.Error("a finding of another analyzer or position is listed")
	}
	if err := os.WriteFile(list, []byte("deadresult m@v1/a_test.go:4:2\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	if _, err := readList(list); err == nil || err.Error() != list+":1: want analyzer<TAB>position" {
		t.Errorf("a line without a tab: error %v, want one naming the line", err)
	}
}
