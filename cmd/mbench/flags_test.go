package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestBadNumericFlags checks that a numeric flag out of range is a usage
// error (exit 2) whose message names the flag, and never a panic or an
// attempt to allocate what the value asks for. The inputs exist, so a value
// that slipped through would be acted upon.
func TestBadNumericFlags(t *testing.T) {
	for _, tc := range []struct {
		args string
		flag string
	}{
		{"compare -alpha NaN", "-alpha"},
		{"compare -alpha 0", "-alpha"},
		{"compare -alpha 1", "-alpha"},
		{"compare -alpha 2", "-alpha"},
		{"compare -threshold NaN", "-threshold"},
		{"compare -threshold Inf", "-threshold"},
		{"compare -threshold -0.01", "-threshold"},
		{"compare -reps 0", "-reps"},
		{"compare -reps -1", "-reps"},
		{"compare -reps 1000000000000", "-reps"},
	} {
		args := strings.Fields(tc.args)
		if args[0] == "compare" {
			args = append(args, "testdata/old.txt", "testdata/new.txt")
		}
		var stdout, stderr bytes.Buffer
		code := mbench(args, &stdout, &stderr)
		if code != exitUsage || !strings.Contains(stderr.String(), ": "+tc.flag+" ") {
			t.Errorf("mbench %s: exit %d, want %d naming %s\n%s", tc.args, code, exitUsage, tc.flag, &stderr)
		}
	}
}
