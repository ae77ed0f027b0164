package main

import (
	"bytes"
	"flag"
	"path/filepath"
	"slices"
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
		{"optimize -threshold NaN", "-threshold"},
		{"optimize -threshold Inf", "-threshold"},
		{"optimize -threshold 0", "-threshold"},
		{"optimize -threshold -0.01", "-threshold"},
		{"optimize -level NaN", "-level"},
		{"optimize -level 0", "-level"},
		{"optimize -level 1", "-level"},
		{"optimize -level 2", "-level"},
		{"optimize -reps 0", "-reps"},
		{"optimize -reps -1", "-reps"},
		{"optimize -reps 1000000000000", "-reps"},
		{"optimize -metric cv -reps 1000000000000", "-reps"},
		{"optimize -min-forks -1", "-min-forks"},
		{"optimize -replay -min-change NaN", "-min-change"},
		{"optimize -replay -min-change Inf", "-min-change"},
		{"optimize -replay -min-change -0.01", "-min-change"},
		{"run -min-ops 0", "-min-ops"},
		{"run -min-ops -1", "-min-ops"},
	} {
		args := strings.Fields(tc.args)
		switch args[0] {
		case "compare":
			args = append(args, "testdata/old.txt", "testdata/new.txt")
		case "optimize":
			args = append(args, "-o", filepath.Join(t.TempDir(), "plan.json"), "testdata/forks-old.json")
			if args[1] == "-replay" {
				args = append(args, "testdata/forks-new.json")
			}
		}
		var stdout, stderr bytes.Buffer
		code := mbench(args, &stdout, &stderr)
		if code != exitUsage || !strings.Contains(stderr.String(), ": "+tc.flag+" ") {
			t.Errorf("mbench %s: exit %d, want %d naming %s\n%s", tc.args, code, exitUsage, tc.flag, &stderr)
		}
	}
	var stdout, stderr bytes.Buffer
	if code := mbench([]string{"optimize", "-o", "", "testdata/forks-old.json"}, &stdout, &stderr); code != exitUsage || !strings.Contains(stderr.String(), ": -o: ") {
		t.Errorf("mbench optimize -o '': exit %d, want %d naming -o\n%s", code, exitUsage, &stderr)
	}
}

// TestFlagsAfterInputs checks that flags after other arguments are parsed
// as flags wherever they stand, up to "--", and that an unknown one is a
// usage error naming it rather than an input.
func TestFlagsAfterInputs(t *testing.T) {
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	o := fs.String("o", "", "")
	v := fs.Bool("v", false, "")
	rest, err := parseFlags(fs, []string{"a", "-o", "out", "b", "-v", "--", "-c", "d"})
	if err != nil || !slices.Equal(rest, []string{"a", "b", "-c", "d"}) || *o != "out" || !*v {
		t.Errorf("parseFlags = %q, %v; -o %q, -v %v", rest, err, *o, *v)
	}

	var stdout, stderr bytes.Buffer
	code := mbench([]string{"compare", "testdata/old.txt", "testdata/new.txt", "-format", "csv"}, &stdout, &stderr)
	if code != exitOK || !strings.HasPrefix(stdout.String(), "pkg,name,") {
		t.Errorf("compare OLD NEW -format csv: exit %d\n%s%s", code, &stdout, &stderr)
	}
	stdout.Reset()
	stderr.Reset()
	code = mbench([]string{"compare", "testdata/old.txt", "-nosuch", "testdata/new.txt"}, &stdout, &stderr)
	if code != exitUsage || !strings.Contains(stderr.String(), "-nosuch") {
		t.Errorf("compare OLD -nosuch NEW: exit %d, want %d naming -nosuch\n%s", code, exitUsage, &stderr)
	}
}
