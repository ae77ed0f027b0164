package main

import (
	"testing"

	"github.com/mbench/mbench/gen"
)

func TestKind(t *testing.T) {
	for _, c := range []struct {
		reason gen.Reason
		detail string
		want   string
	}{
		{gen.JumpsOut, "return at decode.go:45:4", "jumps out: return inside the loop"},
		{gen.JumpsOut, "break outer at listings.go:58:5 to a label outside the segment", "jumps out: break to an outer loop"},
		{gen.Unrecordable, "input buf of type *bytes.Buffer: it holds bytes.Buffer, a struct of another package with unexported fields", "unrecordable: struct of another package with unexported fields"},
		{gen.Unrecordable, "input args of type []interface{}: it holds an interface", "unrecordable: interface value"},
		{gen.Unrecordable, "input writeLine of type func(idx int): it holds a function", "unrecordable: function value"},
		{gen.NotReached, "", "not reached by tests"},
	} {
		if got := kind(&gen.Segment{Reason: c.reason, Detail: c.detail}); got != c.want {
			t.Errorf("kind(%s, %q) = %q, want %q", c.reason, c.detail, got, c.want)
		}
	}
}

func TestTestSummary(t *testing.T) {
	out := []byte(`=== RUN   TestMbenchDriftX
    mbench_variants_test.go:12: after one call, input xs is not the recorded input: [0]: 0 != 9 (now != recorded)
--- FAIL: TestMbenchDriftX (0.00s)
=== RUN   TestMbenchNoResetX
--- PASS: TestMbenchNoResetX (0.00s)
FAIL
`)
	for name, want := range map[string]string{
		"TestMbenchDriftX":   "FAIL: after one call, input xs is not the recorded input: [0]: 0 != 9 (now != recorded)",
		"TestMbenchNoResetX": "pass",
		"TestOther":          "not run",
	} {
		if got := testSummary(out, name); got != want {
			t.Errorf("testSummary(%s) = %q, want %q", name, got, want)
		}
	}
}
