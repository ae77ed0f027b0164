package vet

import (
	"errors"
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
