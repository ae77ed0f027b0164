// Package crosscheck confirms or refutes static findings about benchmarks
// by running them. A finding that says the compiler may delete or fold the
// measured work comes with a mechanical fix (keep the result alive, loop
// with b.Loop); crosscheck builds the benchmark twice — as written, and
// with the fix applied through `go test -overlay`, so the user's files are
// never touched — runs both in one interleaved suite run, and compares
// their times. If protecting the work makes the benchmark much slower, the
// original measured work that was not being done: the finding is
// confirmed. If the times agree (within 1.2x), the compiler kept the work
// anyway, or what it skips costs too little to matter: it is refuted.
// Without a fix, only an implausibly fast result (under 1 ns/op) can
// confirm a finding; with one, the comparison decides even then.
//
// A finding that says ns/op depends on b.N (b.N as a problem size, state
// that drifts) is checked by running the benchmark at b.N from 1,000 (or
// less) up to a thousand times that: ns/op at least doubling confirms it
// (more when other processes load the machine), ns/op within 30% at every
// b.N run refutes it.
package crosscheck

import (
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/run"
	"github.com/mbench/mbench/stats"
	"github.com/mbench/mbench/stop"
)

// An Edit replaces bytes [Start, End) of File with New.
type Edit struct {
	File       string
	Start, End int
	New        string
}

// A Finding is a static finding to check: where it is and the edits of
// its suggested fixes.
type Finding struct {
	Analyzer string
	// Category is the diagnostic's category: driftstate's "sorted" for
	// data sorted in every iteration, whose ns/op falls with b.N.
	Category string
	File     string
	Offset   int
	Message  string
	// Fixes are the edits of each suggested fix, in the analyzer's
	// order. The first is the protected build; deadresult's last is its
	// package-level sink.
	Fixes [][]Edit
	// Base are edits both builds get. SetBases sets it for a constfold
	// finding on a call that a deadresult finding among those checked
	// also reports: while the compiler deletes the call, folding cannot
	// show, so both builds keep the result alive with that finding's
	// sink (a b.Loop rewrite costs about half a nanosecond per
	// iteration, as much as the folded work often does; a sink adds one
	// store).
	Base []Edit
}

// fix returns the edits of the first fix, the protected build.
func (f *Finding) fix() []Edit {
	if len(f.Fixes) == 0 {
		return nil
	}
	return f.Fixes[0]
}

// SetBases sets the Base of each constfold finding that has none to the
// last fix of a deadresult finding at the same place. Check calls it on
// the findings it is given; a caller that checks only some of its
// findings calls it on all of them first.
func SetBases(findings []Finding) {
	for i := range findings {
		f := &findings[i]
		if f.Analyzer != "constfold" || f.Base != nil {
			continue
		}
		for _, d := range findings {
			if d.Analyzer == "deadresult" && d.File == f.File && d.Offset == f.Offset && len(d.Fixes) > 0 {
				f.Base = d.Fixes[len(d.Fixes)-1]
				break
			}
		}
	}
}

// Outcomes of a check.
const (
	Confirmed    = "confirmed"
	Refuted      = "refuted"
	Undetermined = "undetermined"
)

// Thresholds of the verdict: protecting the work must slow the benchmark by
// at least confirmRatio to confirm a finding, and by at most refuteRatio to
// refute it; between them the runs cannot tell. implausibleOp is paper
// 002's bound for work that cannot have been done.
const (
	confirmRatio  = 1.5
	refuteRatio   = 1.2
	implausibleOp = 1e-9
)

// A Verdict is the outcome for one finding.
type Verdict struct {
	Finding   Finding
	Benchmark string
	// Sub is the sub-benchmark the finding is in, when a b.Run with a
	// literal name encloses it; the size check judges only its results.
	Sub string
	// Original and Protected are the mean times per op of the benchmark
	// (the slowest-changing of its sub-benchmarks) as written and with the
	// fix; Protected is NaN without a fix. For a finding that says ns/op
	// depends on b.N (bnsize, driftstate) they are the median times per
	// op at a small and at an up to a thousand times larger b.N.
	Original, Protected float64
	Outcome             string
	Reason              string
}

// Options control the runs. Config is deliberately short: the effects
// looked for are large.
type Options struct {
	Config  stop.Config
	Timeout time.Duration
	// SizeTime is the benchtime of the run that calibrates the size
	// check; its larger runs last about 40 times as long.
	SizeTime time.Duration
	// Log, if not nil, receives a line as each finding's check starts.
	Log func(format string, args ...any)
	// Progress, if not nil, is told of each step as it starts, in words
	// for a status line: "finding 2 of 5, BenchmarkX (deadresult):
	// running it as written and with the fix".
	Progress func(step string)
}

// DefaultOptions are short static runs: 3 forks of 1 warm-up and 5
// measured 20ms iterations; size checks calibrate for 50ms.
var DefaultOptions = Options{
	Config:   stop.Config{WarmupMin: 1, WarmupMax: 1, Measure: 5, ForksMin: 3, ForksMax: 3, IterTime: 20 * time.Millisecond},
	Timeout:  5 * time.Minute,
	SizeTime: 50 * time.Millisecond,
}

// Checks reports whether Check can decide the findings of the named
// analyzer: those that say the compiler deletes or folds work, and those
// that say ns/op depends on b.N.
func Checks(analyzer string) bool {
	return analyzer == "deadresult" || analyzer == "constfold" || sizeAnalyzers[analyzer]
}

// Check runs the benchmark of each finding and returns a verdict per
// finding, in order. Findings outside a top-level benchmark function are
// undetermined.
func Check(ctx context.Context, findings []Finding, opts Options) ([]Verdict, error) {
	// One build cache for all findings: run.Build keys binaries by
	// package and flags, so a package with many findings builds once as
	// written (and once per different fix).
	cache, err := os.MkdirTemp("", "mbench-crosscheck")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(cache)
	findings = slices.Clone(findings)
	SetBases(findings)
	verdicts := make([]Verdict, len(findings))
	for i, f := range findings {
		v := &verdicts[i]
		v.Finding, v.Original, v.Protected = f, math.NaN(), math.NaN()
		name, sub, err := enclosingBenchmark(f.File, f.Offset)
		if err != nil {
			v.Outcome, v.Reason = Undetermined, err.Error()
			continue
		}
		v.Benchmark, v.Sub = name, sub
		if opts.Log != nil {
			opts.Log("checking %s (%s) by running it", name, f.Analyzer)
		}
		o := opts
		o.Progress = func(step string) {
			if opts.Progress != nil {
				opts.Progress(fmt.Sprintf("finding %d of %d, %s (%s): %s", i+1, len(findings), name, f.Analyzer, step))
			}
		}
		if err := check(ctx, v, cache, o); err != nil {
			if ctx.Err() != nil {
				return verdicts, ctx.Err()
			}
			v.Outcome, v.Reason = Undetermined, err.Error()
		}
	}
	return verdicts, nil
}

// check decides v by running its benchmark. opts.Progress is not nil.
func check(ctx context.Context, v *Verdict, cache string, opts Options) error {
	f := v.Finding
	opts.Progress("building")
	dir := filepath.Dir(f.File)
	bo := run.BuildOptions{Dir: dir, CacheDir: cache}
	if len(f.Base) > 0 {
		base, err := applyEdits(f.File, f.Base, cache, "base_")
		if err != nil {
			return err
		}
		bo.Overlay = map[string]string{f.File: base}
	}
	orig, err := run.Build(ctx, bo, []string{"."})
	if err != nil || len(orig) != 1 {
		return fmt.Errorf("building the benchmark: %v", err)
	}
	if sizeAnalyzers[f.Analyzer] {
		opts.Progress("running it at a small and a large b.N")
		return checkSize(ctx, v, orig[0], opts)
	}
	bins := []run.Binary{orig[0]}
	if fix := f.fix(); len(fix) > 0 {
		patched, err := applyEdits(f.File, slices.Concat(f.Base, fix), cache, "patched_")
		if err != nil {
			return err
		}
		prot, err := run.Build(ctx, run.BuildOptions{Dir: dir, CacheDir: cache, Overlay: map[string]string{f.File: patched}}, []string{"."})
		if err != nil || len(prot) != 1 {
			return fmt.Errorf("building the benchmark with the fix: %v", err)
		}
		bins = append(bins, prot[0])
	}
	var targets []run.Target
	counts := make([]int, len(bins))
	for i := range bins {
		ts, err := run.Discover(ctx, &bins[i], "^"+v.Benchmark+"$", nil, nil, opts.Timeout)
		if err != nil {
			return err
		}
		counts[i] = len(ts)
		targets = append(targets, ts...)
	}
	if counts[0] == 0 {
		return fmt.Errorf("%s printed no result", v.Benchmark)
	}
	o := run.DefaultOptions
	o.Config, o.Criterion, o.ForkTimeout = opts.Config, "static", opts.Timeout
	if len(bins) > 1 {
		opts.Progress("running it as written and with the fix")
	} else {
		opts.Progress("running it")
	}
	results, err := run.Suite(ctx, targets, o)
	if err != nil {
		return err
	}
	means := make([]map[bench.Key]float64, len(bins))
	for i := range means {
		means[i] = make(map[bench.Key]float64)
	}
	k := 0
	for i, n := range counts {
		for _, r := range results[k : k+n] {
			if r.Failed() {
				return fmt.Errorf("%s failed: %v", r.Target.Key, r.Failures[0].Err)
			}
			var xs []float64
			for _, m := range r.Measurements {
				if x, ok := m.Get("sec/op"); ok && m.Coord.Phase == bench.Measure {
					xs = append(xs, x)
				}
			}
			means[i][r.Target.Key] = stats.Mean(xs)
		}
		k += n
	}
	decide(v, means)
	if len(f.Base) > 0 {
		v.Reason = "the result kept alive in both builds, " + v.Reason
	}
	return nil
}

// decide sets the verdict from the mean times of the original (means[0])
// and, if present, the protected build (means[1]). A benchmark with
// sub-benchmarks is judged by the sub-benchmark that changed most.
func decide(v *Verdict, means []map[bench.Key]float64) {
	keys := make([]bench.Key, 0, len(means[0]))
	for k := range means[0] {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, bench.Key.Compare)
	best := math.Inf(-1)
	for _, k := range keys {
		o := means[0][k]
		ratio := math.NaN()
		if len(means) > 1 {
			if p, ok := means[1][k]; ok && o > 0 {
				ratio = p / o
			}
		}
		if math.IsNaN(v.Original) || ratio > best || (math.IsNaN(ratio) && o < v.Original) {
			v.Original = o
			if len(means) > 1 {
				v.Protected = means[1][k]
			}
			if !math.IsNaN(ratio) {
				best = ratio
			}
		}
	}
	// An implausibly fast time decides only when there is no fix to
	// compare against: when the fix is just as fast, the work is tiny
	// whether or not the compiler deletes it (a shift, folded or not,
	// costs nothing), and the finding does not change the result.
	switch {
	case math.IsNaN(v.Protected) && v.Original < implausibleOp:
		v.Outcome = Confirmed
		v.Reason = fmt.Sprintf("%.2g ns/op is implausibly fast: the work is not being done", v.Original*1e9)
	case math.IsNaN(v.Protected):
		v.Outcome = Undetermined
		v.Reason = fmt.Sprintf("%.3g ns/op is plausible and the finding has no fix to compare against", v.Original*1e9)
	case best >= confirmRatio:
		v.Outcome = Confirmed
		v.Reason = fmt.Sprintf("with the fix it takes %.1fx as long (%.3g ns/op instead of %.3g): the original skipped work", best, v.Protected*1e9, v.Original*1e9)
	case best <= refuteRatio:
		v.Outcome = Refuted
		v.Reason = fmt.Sprintf("with the fix it takes %.2fx as long, within the %.1fx that refutes: "+
			"the compiler kept the work, or what it skips costs little", best, refuteRatio)
	default:
		v.Outcome = Undetermined
		v.Reason = fmt.Sprintf("with the fix it takes %.2fx as long, between the %.1fx that refutes and the %.1fx that confirms", best, refuteRatio, confirmRatio)
	}
}

// enclosingBenchmark returns the name of the top-level benchmark function
// of file that contains offset and, when the innermost b.Run call around
// offset names its sub-benchmark with a string literal, that name as the
// testing package prints it (spaces become underscores).
func enclosingBenchmark(file string, offset int) (name, sub string, err error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, nil, parser.SkipObjectResolution)
	if err != nil {
		return "", "", err
	}
	within := func(n ast.Node) bool {
		return fset.Position(n.Pos()).Offset <= offset && offset < fset.Position(n.End()).Offset
	}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv != nil || !strings.HasPrefix(fd.Name.Name, "Benchmark") || !within(fd) {
			continue
		}
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || !within(call) {
				return n == nil || within(n)
			}
			if sel, ok := call.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Run" && len(call.Args) == 2 {
				if lit, ok := call.Args[0].(*ast.BasicLit); ok && lit.Kind == token.STRING {
					if s, err := strconv.Unquote(lit.Value); err == nil {
						sub = strings.ReplaceAll(s, " ", "_")
					}
				}
			}
			return true
		})
		return fd.Name.Name, sub, nil
	}
	return "", "", fmt.Errorf("the finding is not inside a top-level benchmark function")
}

// applyEdits writes file with edits applied to a new file in dir, named
// prefix and file's base name, and returns its path. Edits apply from the
// end of the file; of two that start at one offset, the replacement goes
// first, so that an insertion there stays in front of its new text.
func applyEdits(file string, edits []Edit, dir, prefix string) (string, error) {
	src, err := os.ReadFile(file)
	if err != nil {
		return "", err
	}
	edits = slices.Clone(edits)
	slices.SortStableFunc(edits, func(a, b Edit) int {
		if a.Start != b.Start {
			return b.Start - a.Start
		}
		return b.End - a.End
	})
	for _, e := range edits {
		if e.File != file || e.Start < 0 || e.End > len(src) || e.Start > e.End {
			return "", fmt.Errorf("the fix edits %s outside %s", e.File, file)
		}
		src = append(src[:e.Start:e.Start], append([]byte(e.New), src[e.End:]...)...)
	}
	out := filepath.Join(dir, prefix+filepath.Base(file))
	return out, os.WriteFile(out, src, 0o666)
}
