// Package probe builds mbench's probe into the testing package of a test
// binary, for duet runs (Bulej et al. 2020): two versions of a benchmark run at the
// same time, each pinned to its own CPU, and every timed iteration of both
// starts together.
//
// The probe is two things. [Overlay] patches the installed toolchain's
// testing/benchmark.go with a few calls, each inserted at an exact piece
// of the original text (an anchor), and adds mbench_probe_linux.go, which
// implements them; `go test -c -overlay` builds the binary with both. The
// patch is refused, with a [*PatchError], whenever the toolchain's source
// is not the text the probe was written against, so the caller can fall
// back to parsing plain output instead of running a probe that might
// misread the testing package. The second part is the protocol: a binary
// built with the probe behaves exactly as without it unless the
// environment variable [EnvVar] names two file descriptors (see [Env]): a
// socket to the other side, for the barrier, and a pipe to the parent,
// which receives one line per event ([Parse]).
//
// The comment at the top of _testing/mbench_probe_linux.go explains which
// runs are synchronised, how the barrier waits without sleeping, and how
// the filler keeps a side busy until the other finishes.
package probe

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
)

// The files added to package testing.
var (
	//go:embed _testing/mbench_probe_linux.go
	probeLinux []byte
	//go:embed _testing/mbench_probe_other.go
	probeOther []byte
	//go:embed _testing/mbench_profile.go
	probeProfile []byte
)

// ProfileRateVar is the environment variable that sets the CPU profile
// rate of a binary built with the probe: with it set to a number of
// samples per second, -test.cpuprofile records at that rate instead of
// runtime/pprof's 100 Hz.
const ProfileRateVar = "MBENCH_CPU_PROFILE_HZ"

// ErrUnsupported is the error every [*PatchError] matches: the toolchain's
// testing package is not the one the probe knows.
var ErrUnsupported = errors.New("the testing package does not match the probe")

// A PatchError reports that the probe cannot be applied to a toolchain's
// testing package: an anchor is missing or repeated, or type B has fields
// the filler does not know how to save and restore.
type PatchError struct {
	// GoVersion is the toolchain's version, as its VERSION file says.
	GoVersion string
	// File is the source file that did not match.
	File string
	// Problem says what did not match: the anchor's first line, or the
	// unknown field.
	Problem string
}

func (e *PatchError) Error() string {
	return fmt.Sprintf("probe: %s (%s): %s; the probe supports the testing package of go1.26", e.File, e.GoVersion, e.Problem)
}

// Is reports whether target is ErrUnsupported.
func (e *PatchError) Is(target error) bool { return target == ErrUnsupported }

// An edit replaces an anchor, a piece of benchmark.go that must occur
// exactly once, with the anchor and hooks around it.
type edit struct {
	anchor, repl string
}

// hook is the call of a probe method, guarded so that it costs a nil test
// when the probe is off, at the given indentation.
func hook(indent int, calls ...string) string {
	tab := strings.Repeat("\t", indent)
	s := tab + "if mbenchProbe != nil {\n"
	for _, c := range calls {
		s += tab + "\tmbenchProbe." + c + "\n"
	}
	return s + tab + "}\n"
}

// edits are the hooks, in go1.26's text.
var edits = []edit{
	{
		// runN's deferred function: a benchmark function that did not
		// return (FailNow, SkipNow, panic) is reported first.
		anchor: "\tdefer func() {\n\t\tb.runCleanup(normalPanic)\n",
		repl:   "\tdefer func() {\n" + hook(2, "abort(b)") + "\t\tb.runCleanup(normalPanic)\n",
	},
	{
		// runN, after runtime.GC and the reset of b's state: enter
		// before the timer starts, the barrier right after it starts,
		// the end and the filler after it stops.
		anchor: "\tb.parallelism = 1\n\tb.ResetTimer()\n\tb.StartTimer()\n\tb.benchFunc(b)\n\tb.StopTimer()\n\tb.previousN = n\n",
		repl: "\tb.parallelism = 1\n" + hook(1, "enter(b, n)") +
			"\tb.ResetTimer()\n\tb.StartTimer()\n" + hook(1, "started(b)") +
			"\tb.benchFunc(b)\n\tb.StopTimer()\n" + hook(1, "stopped(b)", "leave(b)") +
			"\tb.previousN = n\n",
	},
	{
		// The first b.Loop call has reset the timer.
		anchor: "\t\t// Within a b.Loop loop, we don't use b.N (to avoid confusion).\n\t\tb.N = 0\n\t\tb.ResetTimer()\n",
		repl:   "\t\t// Within a b.Loop loop, we don't use b.N (to avoid confusion).\n\t\tb.N = 0\n\t\tb.ResetTimer()\n" + hook(2, "loopStarted(b)"),
	},
	{
		// b.Loop is done and has stopped the timer.
		anchor: "\tif !more {\n\t\tb.StopTimer()\n",
		repl:   "\tif !more {\n\t\tb.StopTimer()\n" + hook(2, "stopped(b)"),
	},
	{
		// processBench has printed a result line.
		anchor: "\t\t\tfmt.Fprintln(b.w, results)\n",
		repl:   "\t\t\tfmt.Fprintln(b.w, results)\n" + hook(3, "result(b, r)"),
	},
}

// knownFields are the fields of testing.B in go1.26. The filler reruns the
// benchmark function between timed runs and must restore every field it
// can change; a field it does not know might carry state across.
var knownFields = []string{
	"common", "importPath", "bstate", "N", "previousN", "previousDuration",
	"benchFunc", "benchTime", "bytes", "missingBytes", "timerOn",
	"showAllocResult", "result", "parallelism", "startAllocs",
	"startBytes", "netAllocs", "netBytes", "extra", "loop",
}

// patch returns benchmark.go with the probe's hooks, or a *PatchError.
func patch(src []byte, version string) ([]byte, error) {
	fail := func(problem string) error {
		return &PatchError{GoVersion: version, File: "testing/benchmark.go", Problem: problem}
	}
	if err := checkFields(src); err != "" {
		return nil, fail(err)
	}
	out := string(src)
	for _, e := range edits {
		first, _, _ := strings.Cut(strings.TrimSpace(e.anchor), "\n")
		switch n := strings.Count(out, e.anchor); n {
		case 1:
		case 0:
			return nil, fail(fmt.Sprintf("anchor %q not found", first))
		default:
			return nil, fail(fmt.Sprintf("anchor %q found %d times", first, n))
		}
		out = strings.Replace(out, e.anchor, e.repl, 1)
	}
	if _, err := parser.ParseFile(token.NewFileSet(), "benchmark.go", out, parser.SkipObjectResolution); err != nil {
		return nil, fail(fmt.Sprintf("patched file does not parse: %v", err))
	}
	return []byte(out), nil
}

// checkFields returns "" if type B has exactly the known fields, or
// which field differs.
func checkFields(src []byte) string {
	f, err := parser.ParseFile(token.NewFileSet(), "benchmark.go", src, parser.SkipObjectResolution)
	if err != nil {
		return fmt.Sprintf("does not parse: %v", err)
	}
	var got []string
	found := false
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.TYPE {
			continue
		}
		for _, s := range gd.Specs {
			ts := s.(*ast.TypeSpec)
			st, ok := ts.Type.(*ast.StructType)
			if ts.Name.Name != "B" || !ok {
				continue
			}
			found = true
			for _, fld := range st.Fields.List {
				if len(fld.Names) == 0 {
					if id, ok := fld.Type.(*ast.Ident); ok {
						got = append(got, id.Name)
					}
				}
				for _, n := range fld.Names {
					got = append(got, n.Name)
				}
			}
		}
	}
	if !found {
		return "no struct type B"
	}
	known := make(map[string]bool)
	for _, k := range knownFields {
		known[k] = true
	}
	for _, g := range got {
		if !known[g] {
			return fmt.Sprintf("type B has field %s, which the filler does not restore", g)
		}
		delete(known, g)
	}
	for _, k := range knownFields {
		if known[k] {
			return fmt.Sprintf("type B has no field %s", k)
		}
	}
	return ""
}

// goVersion returns the first line of goroot's VERSION file, or a
// placeholder.
func goVersion(goroot string) string {
	data, err := os.ReadFile(filepath.Join(goroot, "VERSION"))
	if err != nil {
		return "unknown Go version"
	}
	line, _, _ := strings.Cut(string(data), "\n")
	return strings.TrimSpace(line)
}

// Overlay patches the testing package of the toolchain in goroot (as `go
// env GOROOT` reports it for the module being built) and returns the
// Replace entries of a `go build -overlay` file: benchmark.go replaced,
// mbench_probe_linux.go, mbench_probe_other.go and mbench_profile.go
// (ProfileRateVar) added. The files are
// written under dir, in a subdirectory named by a hash of their content,
// so concurrent builds and toolchains do not overwrite each other. dir must
// lie outside the module being built: the go command takes Go files inside
// a module's tree for packages of that module.
//
// When the toolchain's source does not match, Overlay returns a
// *PatchError, which matches ErrUnsupported, naming the Go version and the
// anchor; the caller should build without the probe.
func Overlay(goroot, dir string) (map[string]string, error) {
	testingDir := filepath.Join(goroot, "src", "testing")
	orig := filepath.Join(testingDir, "benchmark.go")
	src, err := os.ReadFile(orig)
	if err != nil {
		return nil, fmt.Errorf("probe: reading the testing package: %v", err)
	}
	patched, err := patch(src, goVersion(goroot))
	if err != nil {
		return nil, err
	}
	files := []struct {
		name string
		data []byte
	}{
		{"benchmark.go", patched},
		{"mbench_probe_linux.go", probeLinux},
		{"mbench_probe_other.go", probeOther},
		{"mbench_profile.go", probeProfile},
	}
	h := sha256.New()
	for _, f := range files {
		fmt.Fprintf(h, "%s %d\n", f.name, len(f.data))
		h.Write(f.data)
	}
	out := filepath.Join(dir, hex.EncodeToString(h.Sum(nil))[:16])
	if err := os.MkdirAll(out, 0o777); err != nil {
		return nil, fmt.Errorf("probe: %v", err)
	}
	replace := make(map[string]string)
	for _, f := range files {
		path := filepath.Join(out, f.name)
		if err := writeFile(path, f.data); err != nil {
			return nil, fmt.Errorf("probe: %v", err)
		}
		replace[filepath.Join(testingDir, f.name)] = path
	}
	return replace, nil
}

// writeFile writes data to path unless it already holds it, through a
// rename so that a concurrent build never reads half a file.
func writeFile(path string, data []byte) error {
	if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, data) {
		return nil
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}
