package gen

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/version"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/mbench/mbench/internal/outfile"
)

// Options say what Generate does.
type Options struct {
	// Dir is the directory the patterns are relative to; "" is the
	// current directory.
	Dir string

	// Patterns select the packages, as for go list; none means "./...".
	Patterns []string

	// AllLoops marks every loop of the packages, for experiments that
	// measure how much of a code base the generator can handle.
	AllLoops bool

	// MaxInputs bounds the distinct input sets recorded per segment; 0
	// means DefaultMaxInputs.
	MaxInputs int

	// Tags are the build tags of the go command (go build -tags), which
	// select the files of the packages: a marker in a file they leave
	// out is not seen, and Result.Excluded lists it.
	Tags string

	// Check computes everything and leaves the files as they were:
	// Result.Stale lists the files that differ from what Generate would
	// write. Nothing is written, at any time: recording writes the input
	// sets aside.
	Check bool

	// Log, if not nil, receives progress messages.
	Log func(format string, args ...any)
	// Progress, if not nil, is told of each step as it starts, in words
	// for a status line: finding the markers, recording the inputs,
	// checking each package's benchmarks.
	Progress func(step string)
}

// Result is what Generate did.
type Result struct {
	// Segments are all segments found, with their reasons and sets.
	Segments []*Segment

	// Files are the generated files written (under Check: that would be
	// written), and Removed the stale generated files removed because
	// their package has no benchmark left.
	Files, Removed []string

	// Stale, under Check, are the files that differ from what Generate
	// would write: generated files and recorded input sets.
	Stale []string

	// Warnings are problems that did not stop the generation: tests of
	// a package that failed while its inputs were recorded.
	Warnings []error

	// Excluded are the markers in files that the build constraints leave
	// out under Options.Tags (and the GOOS and GOARCH of the go command),
	// as "file:line": Generate did not see them.
	Excluded []string
}

// A Count is how many segments got one reason.
type Count struct {
	Reason Reason
	N      int
}

// Label is the count's reason as printed: "generated" for Accepted.
func (c Count) Label() string {
	if c.Reason == Accepted {
		return "generated"
	}
	return string(c.Reason)
}

// reasons lists every reason in the order of the counts: the generated
// benchmarks, then the rejections of the analysis, of recording and of
// checking the generated code, as Rodriguez-Cancio et al.'s Table 2.
var reasons = []Reason{Accepted, JumpsOut, RecoveredPanic, Unrecordable, TypeParam, WritesGlobal, Concurrent, NotReached, NoCompile, TestFails}

// Counts returns the number of segments per reason, in the order of
// reasons, leaving out reasons no segment has.
func (r *Result) Counts() []Count {
	n := map[Reason]int{}
	for _, s := range r.Segments {
		n[s.Reason]++
	}
	var counts []Count
	for _, reason := range reasons {
		if n[reason] > 0 {
			counts = append(counts, Count{reason, n[reason]})
			delete(n, reason)
		}
	}
	var rest []Reason // reasons added after this list was written
	for reason := range n {
		rest = append(rest, reason)
	}
	sort.Slice(rest, func(i, j int) bool { return rest[i] < rest[j] })
	for _, reason := range rest {
		counts = append(counts, Count{reason, n[reason]})
	}
	return counts
}

// Generate finds the marked segments of the packages, records their
// inputs while the packages' tests run, and writes mbench_gen_test.go in
// each package with a segment left: a benchmark and a regression test per
// segment. The file is checked before it is written: a segment whose code
// does not compile or pass go vet, or whose regression test fails, is
// rejected (NoCompile, TestFails) and the file emitted again without it.
//
// Generate never overwrites or removes a mbench_gen_test.go that it did
// not write (one that does not start with the generated header). Files are
// replaced at once (written aside, then renamed).
func Generate(ctx context.Context, opts Options) (_ *Result, err error) {
	if opts.MaxInputs < 0 {
		return nil, fmt.Errorf("MaxInputs %d: must be positive", opts.MaxInputs)
	}
	if opts.MaxInputs == 0 {
		opts.MaxInputs = DefaultMaxInputs
	}
	logf := opts.Log
	if logf == nil {
		logf = func(string, ...any) {}
	}
	step := func(format string, args ...any) {
		if opts.Progress != nil {
			opts.Progress(fmt.Sprintf(format, args...))
		}
	}
	patterns := opts.Patterns
	if len(patterns) == 0 {
		patterns = []string{"./..."}
	}
	step("finding the code marked //mbench:bench in %s", strings.Join(patterns, " "))
	segs, excluded, err := find(ctx, FindOptions{Dir: opts.Dir, Patterns: patterns, AllLoops: opts.AllLoops, Tags: opts.Tags})
	if err != nil {
		return nil, err
	}
	res := &Result{Segments: segs, Excluded: excluded}
	pkgs := packagesOf(segs)

	// Refuse before doing anything when a file of the user's is in the
	// way, or the package's Go version is too old for the generated code.
	var errs []error
	for _, p := range pkgs {
		if err := ours(filepath.Join(p.Dir, GeneratedFile), opts.Dir); err != nil {
			errs = append(errs, err)
		}
		if v := oldestVersion(p, segs); v != "" && version.Compare(v, minVersion) < 0 {
			errs = append(errs, fmt.Errorf("%s: the generated code needs %s or later; the package's files are at %s: raise the go line of go.mod", p.PkgPath, minVersion, v))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}

	var accepted []*Segment
	for _, s := range segs {
		if s.Reason == Accepted {
			accepted = append(accepted, s)
		}
	}
	// Recording writes the sets aside: a package's go into its
	// testdata/mbench only with its checked generated file, and under
	// Check never, so that no interruption, failure or exit can leave
	// the sets of a package changed and its generated file not.
	stage, err := os.MkdirTemp("", "mbench-gen-sets-")
	if err != nil {
		return res, err
	}
	defer os.RemoveAll(stage)
	if len(accepted) > 0 {
		if len(accepted) == 1 {
			logf("recording the inputs of 1 segment")
		} else {
			logf("recording the inputs of %d segments", len(accepted))
		}
		step("recording the inputs of %d marked segments: running the tests of their packages", len(accepted))
		err := Record(ctx, accepted, RecordOptions{MaxInputs: opts.MaxInputs, Tags: opts.Tags, Stage: stage})
		if afterStage != nil {
			afterStage("recording")
		}
		if err != nil && !onlyFailedTests(err) {
			return res, err
		}
		if err != nil {
			res.Warnings = append(res.Warnings, err)
		}
	}

	// A package whose generated code fails in a way no segment can be
	// blamed for keeps its files as they were; the others go on.
	var failed []error
	done := map[string]bool{}
	for i, p := range pkgs {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		step("checking the generated benchmarks of %s (package %d of %d): go vet and the regression tests", p.PkgPath, i+1, len(pkgs))
		done[p.Dir] = true
		sets := stagedDir(stage, p.ID)
		src, err := checked(ctx, p, segs, opts.Tags, sets, logf)
		if afterStage != nil {
			afterStage("checking " + p.PkgPath)
		}
		if err != nil {
			failed = append(failed, fmt.Errorf("%s: %w", p.PkgPath, err))
			continue
		}
		if err := res.settle(p.Dir, src, opts.Check, logf); err != nil {
			return res, err
		}
		if err := res.settleSets(p, segs, sets, opts.Check); err != nil {
			return res, err
		}
	}
	// The recorded sets of segments without a benchmark go.
	for _, s := range segs {
		file := recordedFile(s)
		if s.Reason == Accepted {
			continue
		}
		if _, err := os.Stat(file); err != nil {
			continue
		}
		if opts.Check {
			res.Stale = append(res.Stale, file)
			continue
		}
		if err := os.Remove(file); err != nil {
			return res, err
		}
		removeEmptyDirs(filepath.Dir(file), 2)
		res.Removed = append(res.Removed, file)
	}

	// Packages without segments lose the generated files they had.
	dirs, err := packageDirs(ctx, opts.Dir, patterns, opts.Tags)
	if err != nil {
		return res, err
	}
	for _, d := range dirs {
		if done[d.dir] || ours(filepath.Join(d.dir, GeneratedFile), opts.Dir) != nil {
			continue
		}
		if err := res.settle(d.dir, nil, opts.Check, logf); err != nil {
			return res, err
		}
	}
	// So do the recorded sets of segments whose markers are gone.
	for _, d := range dirs {
		files := orphans(d.dir, d.path, segs)
		if opts.Check {
			res.Stale = append(res.Stale, files...)
			continue
		}
		for _, file := range files {
			if err := os.Remove(file); err != nil {
				return res, err
			}
			res.Removed = append(res.Removed, file)
			logf("removed %s: no segment %s left", file, strings.TrimSuffix(filepath.Base(file), ".json"))
		}
		if len(files) > 0 {
			removeEmptyDirs(filepath.Join(d.dir, "testdata", "mbench"), 2)
		}
	}
	sort.Strings(res.Stale)
	return res, errors.Join(failed...)
}

// afterStage, when not nil, is called after recording and after each
// package's check, for tests to look at the files then.
var afterStage func(stage string)

// minVersion is the oldest Go version whose language the recording and
// the generated code are written in: the pasted codec spells any as
// interface{} and uses no generics (see supportSource), and modules at
// go 1.16 are tested.
const minVersion = "go1.16"

// oldestVersion returns the oldest Go version of the files of pkg that
// hold segments, "" when unknown.
func oldestVersion(pkg *packages.Package, segs []*Segment) string {
	oldest := ""
	for _, s := range segs {
		if s.Pkg != pkg || pkg.TypesInfo == nil {
			continue
		}
		if v := pkg.TypesInfo.FileVersions[s.File]; v != "" && (oldest == "" || version.Compare(v, oldest) < 0) {
			oldest = v
		}
	}
	return oldest
}

// settle makes the generated file in dir hold src, or removes it when src
// is nil; under check it only notes that the file is stale.
func (res *Result) settle(dir string, src []byte, check bool, logf func(string, ...any)) error {
	file := filepath.Join(dir, GeneratedFile)
	old, err := os.ReadFile(file)
	exists := err == nil
	switch {
	case src == nil && !exists:
		return nil
	case src == nil && check:
		res.Stale = append(res.Stale, file)
		return nil
	case src == nil:
		if err := os.Remove(file); err != nil {
			return err
		}
		res.Removed = append(res.Removed, file)
		logf("removed %s: no benchmark left", file)
		return nil
	}
	res.Files = append(res.Files, file)
	switch {
	case bytes.Equal(old, src):
		return nil
	case check:
		res.Stale = append(res.Stale, file)
		return nil
	}
	if err := outfile.WriteFile(file, src); err != nil {
		return err
	}
	logf("wrote %s", file)
	return nil
}

// A pkgDir is the directory of a package and its import path.
type pkgDir struct{ dir, path string }

// packageDirs returns the directories of the packages the patterns
// match under the build tags.
func packageDirs(ctx context.Context, dir string, patterns []string, tags string) ([]pkgDir, error) {
	cfg := &packages.Config{Context: ctx, Dir: dir, Mode: packages.NeedName | packages.NeedFiles, BuildFlags: tagFlags(tags)}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		return nil, err
	}
	var dirs []pkgDir
	for _, p := range pkgs {
		switch {
		case p.Dir != "":
			dirs = append(dirs, pkgDir{p.Dir, p.PkgPath})
		case len(p.GoFiles) > 0:
			dirs = append(dirs, pkgDir{filepath.Dir(p.GoFiles[0]), p.PkgPath})
		}
	}
	sort.Slice(dirs, func(i, j int) bool { return dirs[i].dir < dirs[j].dir })
	return dirs, nil
}

// orphans returns the recorded files in dir/testdata/mbench that mbench
// gen wrote for a segment of the package with import path path (the file
// NAME.json says segment NAME of that package) that segs no longer has.
// Other files there are the user's and stay.
func orphans(dir, path string, segs []*Segment) []string {
	have := map[string]bool{}
	for _, s := range segs {
		if s.Pkg != nil && s.Pkg.PkgPath == path {
			have[s.Name] = true
		}
	}
	files, _ := filepath.Glob(filepath.Join(dir, "testdata", "mbench", "*.json"))
	var out []string
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".json")
		if have[name] {
			continue
		}
		data, err := os.ReadFile(file)
		if err != nil {
			continue
		}
		var head struct{ Segment, Package string }
		if json.Unmarshal(data, &head) == nil && head.Segment == name && head.Package == path {
			out = append(out, file)
		}
	}
	return out
}

// onlyFailedTests reports whether err holds nothing but *TestsFailed
// errors: tests that failed while inputs were recorded, which leave the
// sets recorded before the failure.
func onlyFailedTests(err error) bool {
	errs := []error{err}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		errs = j.Unwrap()
	}
	for _, e := range errs {
		var tf *TestsFailed
		if !errors.As(e, &tf) {
			return false
		}
	}
	return true
}

// recordedFile is the file of a segment's input sets.
func recordedFile(s *Segment) string {
	return filepath.Join(s.Pkg.Dir, "testdata", "mbench", s.Name+".json")
}

// settleSets moves the recorded sets of the segments of pkg that got a
// benchmark from sets, where Record staged them, into the package's
// testdata/mbench, where they differ; under check it only notes that the
// files are stale (the same sets in another order are the same:
// sameRecording).
func (res *Result) settleSets(pkg *packages.Package, segs []*Segment, sets string, check bool) error {
	for _, s := range segs {
		if s.Pkg == nil || s.Pkg.ID != pkg.ID || s.Reason != Accepted || s.Sets == 0 {
			continue
		}
		staged, err := os.ReadFile(filepath.Join(sets, s.Name+".json"))
		if err != nil {
			return err
		}
		file := recordedFile(s)
		old, err := os.ReadFile(file)
		switch {
		case err == nil && bytes.Equal(old, staged):
			continue
		case check:
			if err != nil || !sameRecording(old, staged) {
				res.Stale = append(res.Stale, file)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(file), 0o777); err != nil {
			return err
		}
		if err := outfile.WriteFile(file, staged); err != nil {
			return err
		}
	}
	return nil
}

// removeEmptyDirs removes dir and then up to n-1 of its parents while
// they are empty: the testdata/mbench directories recording made.
func removeEmptyDirs(dir string, n int) {
	for ; n > 0; n-- {
		if os.Remove(dir) != nil {
			return
		}
		dir = filepath.Dir(dir)
	}
}

// packagesOf returns the packages of segs, in order of their paths.
func packagesOf(segs []*Segment) []*packages.Package {
	seen := map[string]*packages.Package{}
	for _, s := range segs {
		if s.Pkg != nil {
			seen[s.Pkg.ID] = s.Pkg
		}
	}
	var pkgs []*packages.Package
	for _, p := range seen {
		pkgs = append(pkgs, p)
	}
	sort.Slice(pkgs, func(i, j int) bool { return pkgs[i].ID < pkgs[j].ID })
	return pkgs
}

// sameRecording reports whether two versions of a file are the same for
// -check: equal bytes, or two recorded files (testdata/mbench/NAME.json)
// of one segment holding the same input sets in another order. Tests that
// run in parallel (t.Parallel) reach a segment in an order the scheduler
// decides, and the sets are kept in the order they were reached; the
// generated code does not depend on that order.
func sameRecording(a, b []byte) bool {
	if bytes.Equal(a, b) {
		return true
	}
	type recorded struct {
		Segment, Package string
		Sets             []json.RawMessage
	}
	var ra, rb recorded
	if json.Unmarshal(a, &ra) != nil || json.Unmarshal(b, &rb) != nil ||
		ra.Segment == "" || ra.Segment != rb.Segment || ra.Package != rb.Package || len(ra.Sets) != len(rb.Sets) {
		return false
	}
	canonical := func(sets []json.RawMessage) []string {
		out := make([]string, len(sets))
		for i, set := range sets {
			var buf bytes.Buffer
			if json.Compact(&buf, set) != nil {
				return nil
			}
			out[i] = buf.String()
		}
		sort.Strings(out)
		return out
	}
	ca, cb := canonical(ra.Sets), canonical(rb.Sets)
	return ca != nil && cb != nil && slices.Equal(ca, cb)
}

// tagFlags are the flags of the go command for the build tags, none for
// none.
func tagFlags(tags string) []string {
	if tags == "" {
		return nil
	}
	return []string{"-tags=" + tags}
}
