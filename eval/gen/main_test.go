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
		{gen.JumpsOut, "break outer at effects.go:109:6: n is not in scope there", "jumps out: a variable read after the exit is not in scope at it"},
		{gen.Unrecordable, "input d of type *decoder: it holds reflect.Value: it holds internal/abi.Type: it holds a uintptr, an address", "unrecordable: holds an address (uintptr, unsafe.Pointer: reflect.Value, ...)"},
		{gen.Unrecordable, "no execution the tests made (3) can be rebuilt: an input holds a value of type go.uber.org/zap/zapcore.sliceArrayEncoder: an unexported type of another package", "unrecordable: every recorded input held a type the generated code cannot name"},
		{gen.Unrecordable, "input x of type *big.nat: it names math/big.nat, an unexported type of another package", "unrecordable: its type names an unexported type of another package"},
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
