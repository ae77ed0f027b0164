package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestMaxInput sets the size of the largest input file through
// MBENCH_MAX_INPUT: a file over it fails naming the file and the variable,
// and a value that is not a size is a usage error.
func TestMaxInput(t *testing.T) {
	for _, tc := range []struct {
		value string
		code  int
		want  string
	}{
		{"100", exitError, "testdata/old.txt: longer than 100 bytes, the most read from an input; set MBENCH_MAX_INPUT to read more"},
		{"1KiB", exitError, "testdata/old.txt: longer than 1 KiB"},
		{"lots", exitUsage, `MBENCH_MAX_INPUT: size "lots": want a positive whole number`},
		{"1MiB", exitOK, ""},
	} {
		t.Setenv(maxInputEnv, tc.value)
		var stdout, stderr bytes.Buffer
		code := mbench([]string{"compare", "testdata/old.txt", "testdata/new.txt"}, &stdout, &stderr)
		if code != tc.code || !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("%s=%s: exit %d, stderr:\n%s\nwant exit %d and %q", maxInputEnv, tc.value, code, &stderr, tc.code, tc.want)
		}
	}
}
