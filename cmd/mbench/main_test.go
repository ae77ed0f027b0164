package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// cliCases run the command line end to end. Each compares stdout and stderr
// with testdata/golden/NAME.golden and checks the exit code.
var cliCases = []struct {
	name string
	args string
	code int
}{
	{"compare-text", "compare old=testdata/old.txt new=testdata/new.txt", exitOK},
	{"compare-markdown", "compare -format markdown old=testdata/old.txt new=testdata/new.txt", exitOK},
	{"compare-json", "compare -format json old=testdata/old.txt new=testdata/new.txt", exitOK},
	{"compare-csv", "compare -format csv old=testdata/old.txt new=testdata/new.txt", exitOK},
	{"compare-median", "compare -stat median old=testdata/old.txt new=testdata/new.txt", exitOK},
	{"compare-bop", "compare -metric B/op old=testdata/old.txt new=testdata/new.txt", exitOK},
	{"compare-fail", "compare -fail old=testdata/old.txt new=testdata/new.txt", exitRegression},
	{"compare-aa-fail", "compare -fail old=testdata/old.txt aa=testdata/aa.txt", exitOK},
	{"compare-forks", "compare -fail old=testdata/forks-old.json new=testdata/forks-new.json", exitRegression},
	{"compare-platforms", "compare old=testdata/forks-old.json laptop=testdata/forks-laptop.json", exitOK},
	{"compare-threshold", "compare -fail -threshold 0.06 old=testdata/forks-old.json new=testdata/forks-new.json", exitOK},
	{"compare-allocs-json", "compare -metric allocs/op -format json old=testdata/allocs-old.txt new=testdata/allocs-new.txt", exitOK},
	{"compare-allocs-fail", "compare -fail -metric allocs/op old=testdata/allocs-old.txt new=testdata/allocs-new.txt", exitRegression},
	{"compare-missing-file", "compare testdata/old.txt testdata/nope.txt", exitError},
	{"compare-empty-file", "compare testdata/old.txt testdata/empty.txt", exitError},
	{"compare-bad-lines", "compare old=testdata/old.txt bad=testdata/bad.txt", exitOK},
	{"compare-no-common", "compare testdata/old.txt testdata/forks-new.json", exitError},
	{"compare-unknown-metric", "compare -metric widgets/op testdata/old.txt testdata/new.txt", exitError},
	{"compare-duplicate-label", "compare x=testdata/old.txt x=testdata/new.txt", exitUsage},
	{"compare-one-arg", "compare testdata/old.txt", exitUsage},
	{"compare-bad-format", "compare -format xml testdata/old.txt testdata/new.txt", exitUsage},
	{"compare-bad-alpha", "compare -alpha 2 testdata/old.txt testdata/new.txt", exitUsage},
	{"compare-nan-alpha", "compare -alpha NaN testdata/old.txt testdata/new.txt", exitUsage},
	{"compare-inf-threshold", "compare -threshold Inf testdata/old.txt testdata/new.txt", exitUsage},
	{"compare-nan-threshold", "compare -threshold NaN testdata/old.txt testdata/new.txt", exitUsage},
	{"compare-negative-threshold", "compare -threshold -0.01 testdata/old.txt testdata/new.txt", exitUsage},
	{"compare-bad-stat", "compare -stat mode testdata/old.txt testdata/new.txt", exitUsage},
	{"run-duplicate-label", "run x=testdata/a.test x=testdata/b.test", exitUsage},
	{"help", "help", exitOK},
	{"help-compare", "help compare", exitOK},
	{"help-run", "help run", exitOK},
	{"no-args", "", exitUsage},
	{"unknown-command", "frobnicate", exitUsage},
}

func TestCLI(t *testing.T) {
	for _, tc := range cliCases {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := mbench(strings.Fields(tc.args), &stdout, &stderr)
			if code != tc.code {
				t.Errorf("exit code %d, want %d\nstderr:\n%s", code, tc.code, &stderr)
			}
			got := "$ mbench " + tc.args + "\n" + stdout.String()
			if stderr.Len() > 0 {
				got += "--- stderr\n" + stderr.String()
			}
			golden := filepath.Join("testdata", "golden", tc.name+".golden")
			if *update {
				os.MkdirAll(filepath.Dir(golden), 0o777)
				if err := os.WriteFile(golden, []byte(got), 0o666); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("output differs from %s (go test -update rewrites it):\n--- got\n%s\n--- want\n%s", golden, got, want)
			}
		})
	}
}

// TestHelpCoversCommands keeps the command list and the help in step.
func TestHelpCoversCommands(t *testing.T) {
	var stdout, stderr bytes.Buffer
	mbench([]string{"help"}, &stdout, &stderr)
	for _, c := range commands {
		if !strings.Contains(stdout.String(), "\t"+c.name) {
			t.Errorf("help does not list %s", c.name)
		}
		if strings.TrimSpace(c.long) == "" || c.short == "" {
			t.Errorf("command %s has no help text", c.name)
		}
	}
}

// TestHelpFlag checks that -h, -help and --help after any command print
// that command's full help on stdout, as 'mbench help NAME' does, and exit
// 0, also after a subcommand.
func TestHelpFlag(t *testing.T) {
	type helpCase struct{ name, args string }
	var cases []helpCase
	for _, c := range commands {
		for _, h := range []string{"-h", "-help", "--help"} {
			cases = append(cases, helpCase{c.name, c.name + " " + h})
		}
	}
	cases = append(cases,
		helpCase{"store", "store copy -h"},
		helpCase{"store", "store copy --help"},
		helpCase{"compare", "compare -format json -h"},
	)
	for _, tc := range cases {
		t.Run(tc.args, func(t *testing.T) {
			var want, stdout, stderr bytes.Buffer
			if code := mbench([]string{"help", tc.name}, &want, &stderr); code != exitOK || stderr.Len() > 0 {
				t.Fatalf("mbench help %s: exit code %d, stderr:\n%s", tc.name, code, &stderr)
			}
			if !strings.HasPrefix(want.String(), "usage: mbench "+tc.name) {
				t.Fatalf("mbench help %s does not start with its usage line:\n%s", tc.name, &want)
			}
			code := mbench(strings.Fields(tc.args), &stdout, &stderr)
			if code != exitOK {
				t.Errorf("exit code %d, want %d", code, exitOK)
			}
			if stdout.String() != want.String() {
				t.Errorf("stdout differs from mbench help %s:\n--- got\n%s\n--- want\n%s", tc.name, &stdout, &want)
			}
			if stderr.Len() > 0 {
				t.Errorf("stderr not empty:\n%s", &stderr)
			}
		})
	}
}
