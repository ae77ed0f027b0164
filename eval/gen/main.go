// Gen evaluates mbench gen, after the evaluation of AutoJMH
// (Rodriguez-Cancio, Combemale & Baudry, "Automatic Microbenchmark
// Generation to Prevent Dead Code Elimination and Constant Folding",
// ASE 2016), and prints the tables of docs/eval/gen.md in markdown:
//
//   - RQ1: every loop of three modules from the module proxy marked
//     (gen.Options.AllLoops); how many become benchmarks, and why the
//     others do not, against the paper's 57%;
//   - RQ2: generated benchmarks of functions the modules' own hand-written
//     benchmarks cover, measured side by side with them by mbench run and
//     compared by mbench compare;
//   - protections: each protection of the generated code of
//     gen/testdata/listings turned off in turn (results dropped, literal
//     inputs, no reset), measured against the generated benchmark.
//
// Everything happens in copies under -out; the repository is not changed.
//
// usage: cd eval && go run ./gen [-out DIR] [-only rq1,rq2,prot]
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"io/fs"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/mbench/mbench/gen"
)

// modules are the real packages of RQ1 and RQ2: the three the rules were
// developed on, then two chosen by a rule fixed before mbench gen ran on
// them (the other Go subjects of Japke et al.'s µOpTime, 2025, at the
// newest versions served; docs/eval/gen.md).
var modules = []module{
	{"github.com/pelletier/go-toml/v2", "v2.4.3", "go-toml"},
	{"github.com/bits-and-blooms/bitset", "v1.29.0", "bitset"},
	{"github.com/dustin/go-humanize", "v1.1.0", "go-humanize"},
	{"go.uber.org/zap", "v1.28.0", "zap"},
	{"github.com/prometheus/common", "v0.73.1", "prometheus-common"},
}

type module struct{ path, version, short string }

// A pair is a function the module's hand-written benchmark Hand covers:
// its doc comment gets the marker //mbench:bench Name in the copy.
type pair struct {
	mod  string // module's short name
	dir  string // package directory in the module
	decl string // the start of the function's declaration line
	name string // NAME of the marker
	hand string // the hand-written benchmark, with its sub-benchmark
	// call is Go code that calls the function on the hand-written
	// benchmark's input; a test added to the copy runs it before the
	// module's tests, so that the first recorded set is that input.
	call string
}

var pairs = []pair{
	{"bitset", ".", "func (b *BitSet) Count() uint", "GenCount", "BenchmarkCount", "s := New(100000)\n\tfor i := 0; i < 100000; i += 100 {\n\t\ts.Set(uint(i))\n\t}\n\ts.Count()"},
	{"go-humanize", ".", "func Comma(v int64) string", "GenComma", "BenchmarkCommas", "Comma(1234567890)"},
	{"go-humanize", ".", "func Bytes(s uint64) string", "GenBytes", "BenchmarkBytes", "Bytes(16.5 * GByte)"},
	{"go-humanize", ".", "func ParseBytes(s string) (uint64, error)", "GenParseBytes", "BenchmarkParseBytes", `ParseBytes("16.5 GB")`},
	{"go-humanize", ".", "func ParseSI(input string) (float64, string, error)", "GenParseSI", "BenchmarkParseSI", `ParseSI("2.2346ZB")`},
	{"go-humanize", ".", "func ParseBigBytes(s string) (*big.Int, error)", "GenParseBigBytes", "BenchmarkParseBigBytes", `ParseBigBytes("16.5 Z")`},
	{"go-toml", "unstable", "func scanComment(b []byte) ([]byte, []byte, error)", "GenScanComment", "BenchmarkScanComments/10Valid", `scanComment([]byte("# 1234567890\n"))`},
	{"go-toml", "unstable", "func (p *Parser) parseLiteralString(b []byte)", "GenParseLiteralString", "BenchmarkParseLiteralStringValid/10Valid", `p := Parser{}
	p.parseLiteralString([]byte("'1234567890'"))`},
	{"go-toml", ".", "func Unmarshal(data []byte, v interface{}) error", "GenUnmarshal", "BenchmarkUnmarshal", ""},
}

var (
	out       = flag.String("out", "/tmp/gen-eval", "scratch `directory` (removed and recreated)")
	repo      = flag.String("repo", "..", "the mbench repository (for gen/testdata/listings and cmd/mbench)")
	only      = flag.String("only", "rq1,rq2,prot", "comma-separated `parts` to run")
	maxInputs = flag.Int("max-inputs", 5, "input sets recorded per segment")
	runFlags  = flag.String("run-flags", "-f-min 5 -f-max 12 -wi-min 2 -wi-max 5 -mi 10 -iter 20ms", "measurement `flags` of mbench run")
)

var mbench string // the mbench binary built from -repo

func main() {
	log.SetFlags(0)
	log.SetPrefix("gen-eval: ")
	flag.Parse()
	start := time.Now()
	ctx := context.Background()
	os.Setenv("GOWORK", "off")
	os.Setenv("GOFLAGS", "-mod=mod")
	abs, err := filepath.Abs(*out)
	check(err)
	*out = abs
	check(os.RemoveAll(*out))
	check(os.MkdirAll(*out, 0o777))
	mbench = filepath.Join(*out, "bin", "mbench")
	run("", "go", "build", "-o", mbench, "github.com/mbench/mbench/cmd/mbench")

	var md bytes.Buffer
	host, _ := os.Hostname()
	fmt.Fprintf(&md, "Measured %s on %s (%s, %d CPUs, %s), load %s.\n\n",
		start.UTC().Format("2006-01-02 15:04 MST"), host, cpuModel(), runtime.NumCPU(), runtime.Version(), loadAvg())
	parts := strings.Split(*only, ",")
	if has(parts, "rq1") {
		rq1(ctx, &md)
	}
	if has(parts, "rq2") {
		rq2(ctx, &md)
	}
	if has(parts, "prot") {
		protections(ctx, &md)
	}
	fmt.Fprintf(&md, "Total time of the evaluation: %s.\n", time.Since(start).Round(time.Second))
	check(os.WriteFile(filepath.Join(*out, "report.md"), md.Bytes(), 0o666))
	os.Stdout.Write(md.Bytes())
}

// ---- RQ1 ----

// columns are the reasons of the RQ1 table, in gen.Result.Counts' order.
var columns = []gen.Reason{gen.JumpsOut, gen.RecoveredPanic, gen.Unrecordable, gen.TypeParam, gen.WritesGlobal, gen.Concurrent, gen.NotReached, gen.NoCompile, gen.TestFails}

func rq1(ctx context.Context, md *bytes.Buffer) {
	type row struct {
		m      module
		res    *gen.Result
		tests  string
		counts map[gen.Reason]int
		took   time.Duration
	}
	var rows []row
	for _, m := range modules {
		dir := fetch(m, filepath.Join(*out, "rq1"))
		t0 := time.Now()
		log.Printf("rq1: mbench gen -all-loops in %s", dir)
		res, err := gen.Generate(ctx, gen.Options{Dir: dir, Patterns: []string{"./..."}, AllLoops: true, MaxInputs: *maxInputs, Log: func(f string, a ...any) { log.Printf("  "+f, a...) }})
		if err != nil && res == nil {
			log.Fatalf("rq1: %s: %v", m.short, err)
		}
		if err != nil {
			// Packages whose check failed keep no benchmark; the others
			// count.
			log.Printf("rq1: %s: %v", m.short, err)
		}
		r := row{m: m, res: res, counts: map[gen.Reason]int{}, took: time.Since(t0)}
		for _, c := range res.Counts() {
			r.counts[c.Reason] = c.N
		}
		// The generated regression tests, once more, by go test itself.
		cmd := exec.CommandContext(ctx, "go", "test", "-count=1", "-run=^TestMbench", "-bench=^$", "./...")
		cmd.Dir = dir
		if b, err := cmd.CombinedOutput(); err != nil {
			r.tests = "FAIL"
			log.Printf("rq1: %s: regression tests: %v\n%s", m.short, err, b)
		} else {
			r.tests = "pass"
		}
		rows = append(rows, r)
	}

	fmt.Fprintf(md, "## RQ1: how many loops become benchmarks\n\n")
	fmt.Fprintf(md, "`gen.Generate` with `AllLoops` (`mbench gen -all-loops ./...`, `-max-inputs %d`) on every package of each module; generated = compiled, passed go vet and its regression test (the generated `TestMbench*` were then run again with `go test ./...`).\n\n", *maxInputs)
	fmt.Fprintf(md, "| | ")
	for _, r := range rows {
		fmt.Fprintf(md, "%s %s | ", r.m.short, r.m.version)
	}
	fmt.Fprintf(md, "total | AutoJMH (Table 2) |\n|---|")
	for range rows {
		fmt.Fprintf(md, "---:|")
	}
	fmt.Fprintf(md, "---:|---:|\n")
	total := func(f func(row) int) (int, []int) {
		var per []int
		t := 0
		for _, r := range rows {
			per = append(per, f(r))
			t += f(r)
		}
		return t, per
	}
	loops, perLoops := total(func(r row) int { return len(r.res.Segments) })
	line := func(label string, f func(row) int, paper string) {
		t, per := total(f)
		fmt.Fprintf(md, "| %s | ", label)
		for i, n := range per {
			fmt.Fprintf(md, "%d (%s) | ", n, pct(n, perLoops[i]))
		}
		fmt.Fprintf(md, "%d (%s) | %s |\n", t, pct(t, loops), paper)
	}
	fmt.Fprintf(md, "| loops | ")
	for _, n := range perLoops {
		fmt.Fprintf(md, "%d | ", n)
	}
	fmt.Fprintf(md, "%d | 6,028 |\n", loops)
	line("**valid benchmarks** (generated)", func(r row) int { return r.counts[gen.Accepted] }, "3,462 (57%)")
	valid := func(f func(*gen.Segment) bool) func(row) int {
		return func(r row) int {
			n := 0
			for _, s := range r.res.Segments {
				if s.Reason == gen.Accepted && s.Sets > 0 && f(s) {
					n++
				}
			}
			return n
		}
	}
	line("of which leave early (return, break, continue, goto)", valid(func(s *gen.Segment) bool { return len(s.Exits) > 0 }), "–")
	line("of which restore package-level state", valid(func(s *gen.Segment) bool { return len(s.Globals) > 0 }), "–")
	line("of which read a value of another package's struct or an interface", valid(otherTypes), "–")
	paper := map[gen.Reason]string{gen.NotReached: "1,220 (20%) not initialized", gen.TestFails: "23 (0.4%)", gen.Unrecordable: "1,027 (17%) variables unsupported"}
	for _, reason := range columns {
		p := paper[reason]
		if p == "" {
			p = "–"
		}
		line("rejected: "+string(reason), func(r row) int { return r.counts[reason] }, p)
	}
	fmt.Fprintf(md, "| regression tests, go test ./... | ")
	for _, r := range rows {
		fmt.Fprintf(md, "%s | ", r.tests)
	}
	fmt.Fprintf(md, " | |\n| time of mbench gen | ")
	for _, r := range rows {
		fmt.Fprintf(md, "%s | ", r.took.Round(time.Second))
	}
	fmt.Fprintf(md, " | |\n\n")

	// The rejections by their construct.
	kinds := map[string]int{}
	examples := map[string][]string{}
	for _, r := range rows {
		for _, s := range r.res.Segments {
			if s.Reason == gen.Accepted {
				continue
			}
			k := kind(s)
			kinds[k]++
			if len(examples[k]) < 2 {
				examples[k] = append(examples[k], fmt.Sprintf("%s %s:%d: %s", r.m.short, rel(r.m, s.Pos.Filename), s.Pos.Line, s.Detail))
			}
		}
	}
	var ks []string
	for k := range kinds {
		ks = append(ks, k)
	}
	sort.Slice(ks, func(i, j int) bool {
		return kinds[ks[i]] > kinds[ks[j]] || kinds[ks[i]] == kinds[ks[j]] && ks[i] < ks[j]
	})
	fmt.Fprintf(md, "Rejected loops by the construct at fault (all modules):\n\n| construct | loops | %% of loops | example |\n|---|---:|---:|---|\n")
	for _, k := range ks {
		fmt.Fprintf(md, "| %s | %d | %s | %s |\n", k, kinds[k], pct(kinds[k], loops), strings.ReplaceAll(strings.Join(examples[k], "<br>"), "|", `\|`))
	}
	fmt.Fprintln(md)
}

// otherTypes reports whether s reads or writes a value of a struct of
// another package with unexported fields, or one holding an interface.
func otherTypes(s *gen.Segment) bool {
	var has func(t types.Type, seen map[types.Type]bool) bool
	has = func(t types.Type, seen map[types.Type]bool) bool {
		if seen[t] {
			return false
		}
		seen[t] = true
		if n, ok := types.Unalias(t).(*types.Named); ok && n.Obj().Pkg() != nil && n.Obj().Pkg() != s.Pkg.Types {
			if st, ok := n.Underlying().(*types.Struct); ok {
				for i := 0; i < st.NumFields(); i++ {
					if !st.Field(i).Exported() {
						return true
					}
				}
			}
		}
		switch u := t.Underlying().(type) {
		case *types.Interface:
			return true
		case *types.Pointer:
			return has(u.Elem(), seen)
		case *types.Slice:
			return has(u.Elem(), seen)
		case *types.Array:
			return has(u.Elem(), seen)
		case *types.Map:
			return has(u.Key(), seen) || has(u.Elem(), seen)
		case *types.Struct:
			for i := 0; i < u.NumFields(); i++ {
				if has(u.Field(i).Type(), seen) {
					return true
				}
			}
		}
		return false
	}
	for _, vs := range [][]gen.Var{s.Inputs, s.Outputs, s.Returns, s.Globals} {
		for _, v := range vs {
			if has(v.Type, map[types.Type]bool{}) {
				return true
			}
		}
	}
	return false
}

// kind classifies a rejected segment by the construct its Detail names.
func kind(s *gen.Segment) string {
	d := s.Detail
	switch s.Reason {
	case gen.JumpsOut:
		return "jumps out: a variable read after the exit is not in scope at it"
	case gen.Unrecordable:
		switch {
		case strings.Contains(d, "can be rebuilt"):
			return "unrecordable: every recorded input held a type the generated code cannot name"
		case strings.Contains(d, "unexported type of another package"), strings.Contains(d, "may not import"):
			return "unrecordable: its type names an unexported type of another package"
		case strings.Contains(d, "uintptr"), strings.Contains(d, "unsafe.Pointer"):
			return "unrecordable: holds an address (uintptr, unsafe.Pointer: reflect.Value, ...)"
		case strings.Contains(d, "operating system handle"):
			return "unrecordable: OS handle"
		case strings.Contains(d, "function"):
			return "unrecordable: function value"
		case strings.Contains(d, "channel"):
			return "unrecordable: channel"
		case strings.Contains(d, "could be recorded"):
			return "unrecordable: no execution could be recorded (a func or chan at run time)"
		}
	}
	return string(s.Reason)
}

// ---- RQ2 ----

func rq2(ctx context.Context, md *bytes.Buffer) {
	fmt.Fprintf(md, "## RQ2: generated versus hand-written benchmarks\n\n")
	fmt.Fprintf(md, "Each function below has a hand-written benchmark in its module. In a copy, its doc comment gets `//mbench:bench NAME`; `mbench gen` records its inputs from the module's tests and writes `BenchmarkNAME` with a sub-benchmark per recorded set. Both benchmarks are measured in one `mbench run` session (`%s`), and `mbench compare hand.txt gen.txt` compares each recorded set with the hand-written benchmark (medians, ratio gen/hand, 99%% interval, verdict at the default threshold). A test added to the copy calls the function on the hand-written benchmark's input before the module's tests run, so that set 0 is that input; sets 1 to 4 are the first distinct inputs of the module's own tests.\n\n", *runFlags)
	fmt.Fprintf(md, "| segment | hand-written | generated set | inputs of the set | hand | gen | gen/hand [99%% CI] | verdict |\n|---|---|---|---|---:|---:|---|---|\n")
	within, compared := 0, 0
	for _, m := range modules {
		var ps []pair
		for _, p := range pairs {
			if p.mod == m.short {
				ps = append(ps, p)
			}
		}
		if len(ps) == 0 {
			continue
		}
		dir := fetch(m, filepath.Join(*out, "rq2"))
		pkgs := map[string][]pair{}
		var patterns []string
		for _, p := range ps {
			mark(filepath.Join(dir, p.dir), p)
			handInput(filepath.Join(dir, p.dir), p)
			if pkgs[p.dir] == nil {
				patterns = append(patterns, "./"+p.dir)
			}
			pkgs[p.dir] = append(pkgs[p.dir], p)
		}
		log.Printf("rq2: mbench gen in %s", dir)
		res, err := gen.Generate(ctx, gen.Options{Dir: dir, Patterns: patterns, MaxInputs: *maxInputs})
		if err != nil {
			log.Fatalf("rq2: %s: %v", m.short, err)
		}
		segs := map[string]*gen.Segment{}
		for _, s := range res.Segments {
			segs[s.Name] = s
		}
		for _, d := range sortedKeys(pkgs) {
			var tops, subs []string
			var ok []pair
			for _, p := range pkgs[d] {
				s := segs[p.name]
				if s == nil || s.Reason != gen.Accepted {
					why := "marker not found"
					if s != nil {
						why = string(s.Reason) + ": " + s.Detail
					}
					fmt.Fprintf(md, "| %s %s | %s | – | – | | | | not generated: %s |\n", m.short, p.decl, p.hand, strings.ReplaceAll(why, "|", `\|`))
					continue
				}
				ok = append(ok, p)
				top, sub, _ := strings.Cut(p.hand, "/")
				tops = append(tops, top, "Benchmark"+p.name)
				if sub != "" {
					subs = append(subs, regexp.QuoteMeta(sub))
				}
			}
			if len(ok) == 0 {
				continue
			}
			bench := "^(" + strings.Join(tops, "|") + ")$"
			if len(subs) > 0 {
				bench += "/^(" + strings.Join(append(subs, `input=\d+`), "|") + ")$"
			}
			results := filepath.Join(*out, "rq2", fmt.Sprintf("%s-%s.txt", m.short, strings.ReplaceAll(d, "/", "-")))
			measure(filepath.Join(dir, d), bench, results)
			for _, p := range ok {
				s := segs[p.name]
				var cs []cmpPair
				for i := 0; i < s.Sets; i++ {
					cs = append(cs, cmpPair{old: p.hand, new: fmt.Sprintf("Benchmark%s/input=%d", p.name, i), key: fmt.Sprintf("%s/input=%d", p.name, i)})
				}
				inputs := recordedInputs(s)
				for i, r := range compare(results, cs, "hand", "gen") {
					compared++
					if r.lo <= 1 && 1 <= r.hi {
						within++
					}
					in := ""
					if i < len(inputs) {
						in = inputs[i]
					}
					if i == 0 && p.call != "" {
						in = "**the hand-written benchmark's input** " + in
					}
					fmt.Fprintf(md, "| %s %s | %s | input=%d | %s | %s | %s | %s | %s |\n", m.short, strings.TrimPrefix(p.decl, "func "), p.hand, i, strings.ReplaceAll(in, "|", `\|`), r.oldS, r.newS, r.ratioCI(), r.verdict)
				}
			}
		}
	}
	fmt.Fprintf(md, "\n%d of %d generated sets are within noise of the hand-written benchmark (the 99%% interval of gen/hand holds 1); the paper found 23 of 23.\n\n", within, compared)
}

// mark puts //mbench:bench p.name in the doc comment of p's function, in
// the package directory dir.
func mark(dir string, p pair) {
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	check(err)
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		check(err)
		i := bytes.Index(b, []byte("\n"+p.decl))
		if i < 0 {
			continue
		}
		var nb []byte
		nb = append(nb, b[:i+1]...)
		nb = append(nb, "//mbench:bench "+p.name+"\n"...)
		nb = append(nb, b[i+1:]...)
		check(os.WriteFile(f, nb, 0o666))
		return
	}
	log.Fatalf("rq2: %s: no %q in %s", p.mod, p.decl, dir)
}

// handInput adds to the package in dir a test that runs p.call, in a
// file whose name sorts before the package's other test files, so that
// the recording sees the hand-written benchmark's input first.
func handInput(dir string, p pair) {
	if p.call == "" {
		return
	}
	fset := token.NewFileSet()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	check(err)
	name := ""
	for _, file := range files {
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, file, nil, parser.PackageClauseOnly)
		check(err)
		name = f.Name.Name
		break
	}
	file := filepath.Join(dir, "a_mbench_hand_inputs_test.go")
	old, err := os.ReadFile(file)
	if err != nil {
		old = []byte("package " + name + "\n\nimport \"testing\"\n")
	}
	src := fmt.Sprintf("%s\n// TestHandInput%s runs %s on the input of %s.\nfunc TestHandInput%s(t *testing.T) {\n\t%s\n}\n", old, p.name, p.name, p.hand, p.name, p.call)
	check(os.WriteFile(file, []byte(src), 0o666))
}

// recordedInputs returns, per recorded set of s, its inputs as the codec
// wrote them, shortened.
func recordedInputs(s *gen.Segment) []string {
	b, err := os.ReadFile(filepath.Join(s.Pkg.Dir, "testdata", "mbench", s.Name+".json"))
	if err != nil {
		return nil
	}
	var f struct {
		Sets []struct {
			Inputs []struct {
				Name  string          `json:"name"`
				Value json.RawMessage `json:"value"`
			} `json:"inputs"`
		} `json:"sets"`
	}
	if json.Unmarshal(b, &f) != nil {
		return nil
	}
	var ins []string
	for _, set := range f.Sets {
		var parts []string
		for _, in := range set.Inputs {
			v := string(in.Value)
			if len(v) > 40 {
				v = v[:37] + "..."
			}
			parts = append(parts, "`"+in.Name+"`="+strings.ReplaceAll(v, "`", "'"))
		}
		ins = append(ins, strings.Join(parts, ", "))
	}
	return ins
}

// ---- protections ----

// variants turn off one protection of a generated benchmark: each takes
// the source of BenchmarkNAME and the segment, and returns the variant's
// source or "" when the protection does not apply.
var variants = []struct {
	suffix, what string
	apply        func(src string, s *gen.Segment, lits map[string]string) string
}{
	{"_nosink", "dead code: the payload's results dropped in a b.N loop, not returned into b.Loop", func(src string, s *gen.Segment, _ map[string]string) string {
		if !strings.Contains(src, "for b.Loop() {") || !returnsValues(s) {
			return ""
		}
		return strings.ReplaceAll(src, "for b.Loop() {", "for mbenchI := 0; mbenchI < b.N; mbenchI++ {")
	}},
	{"_literal", "folding: the recorded inputs written as literals in the call, not read from package-level variables", func(src string, s *gen.Segment, lits map[string]string) string {
		if len(s.Inputs) == 0 {
			return ""
		}
		for _, in := range s.Inputs {
			lit, ok := lits[in.Name]
			if !ok || in.Mutated {
				return ""
			}
			v := "mbenchIn" + s.Name + "_" + in.Name
			src = regexp.MustCompile(`(mbenchPayload\w*\([^\n]*)\b`+v+`\b`).ReplaceAllString(src, "${1}"+lit)
		}
		return src
	}},
	{"_noreset", "reset: the mutated inputs not restored before each call", func(src string, s *gen.Segment, _ map[string]string) string {
		reset := "mbenchReset" + s.Name + "()"
		if !strings.Contains(src, reset) {
			return ""
		}
		var lines []string
		for _, l := range strings.Split(src, "\n") {
			if strings.TrimSpace(l) != reset {
				lines = append(lines, l)
			}
		}
		return strings.Join(lines, "\n")
	}},
}

// returnsValues reports whether the payload of s returns values: the
// segment has outputs the benchmark consumes or values it drops.
func returnsValues(s *gen.Segment) bool {
	for _, v := range s.Outputs {
		if v.Sink {
			return true
		}
	}
	return len(s.Discards) > 0
}

func protections(ctx context.Context, md *bytes.Buffer) {
	dir := filepath.Join(*out, "prot", "listings")
	copyTree(filepath.Join(*repo, "gen", "testdata", "listings"), dir)
	log.Printf("prot: mbench gen in %s", dir)
	res, err := gen.Generate(ctx, gen.Options{Dir: dir, Patterns: []string{"./..."}, MaxInputs: *maxInputs})
	if err != nil {
		log.Fatalf("prot: %v", err)
	}
	file := filepath.Join(dir, gen.GeneratedFile)
	src, err := os.ReadFile(file)
	check(err)
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, src, 0)
	check(err)
	funcs := map[string]string{}
	hand := handBenchmarks(dir)
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok {
			funcs[fd.Name.Name] = string(src[fset.Position(fd.Pos()).Offset:fset.Position(fd.End()).Offset])
		}
	}

	var extra strings.Builder
	extra.WriteString("package listings\n\nimport (\n\t\"strconv\"\n\t\"testing\"\n)\n\n")
	var cs []cmpPair
	var tops []string
	type drift struct{ seg, test string }
	var drifts []drift
	rowWhat := map[string]string{}
	for _, s := range res.Segments {
		if s.Reason != gen.Accepted {
			continue
		}
		name := "Benchmark" + s.Name
		bsrc := funcs[name]
		if bsrc == "" {
			log.Fatalf("prot: %s has no %s", file, name)
		}
		tops = append(tops, name)
		if hand["BenchmarkHand"+s.Name] {
			cs = append(cs, cmpPair{old: "BenchmarkHand" + s.Name, new: name + "/input=0", key: s.Name + "/hand"})
			rowWhat[s.Name+"/hand"] = "the hand-written benchmark (old) vs the generated one (new)"
		}
		lits := literals(s)
		for _, v := range variants {
			vsrc := v.apply(bsrc, s, lits)
			if vsrc == "" {
				continue
			}
			vsrc = strings.Replace(vsrc, "func "+name+"(", "func "+name+v.suffix+"(", 1)
			extra.WriteString(vsrc + "\n\n")
			tops = append(tops, name+v.suffix)
			cs = append(cs, cmpPair{old: name + "/input=0", new: name + v.suffix + "/input=0", key: s.Name + "/" + strings.TrimPrefix(v.suffix, "_")})
			rowWhat[s.Name+"/"+strings.TrimPrefix(v.suffix, "_")] = v.what
		}
		if t := driftTest(s, funcs); t != "" {
			extra.WriteString(t)
			drifts = append(drifts, drift{s.Name, "TestMbenchDrift" + s.Name})
		}
		// The regression test without its reset.
		if tsrc := funcs["TestMbench"+s.Name]; strings.Contains(tsrc, "mbenchReset"+s.Name+"()") {
			var lines []string
			for _, l := range strings.Split(tsrc, "\n") {
				if strings.TrimSpace(l) != "mbenchReset"+s.Name+"()" {
					lines = append(lines, l)
				}
			}
			extra.WriteString(strings.Replace(strings.Join(lines, "\n"), "func TestMbench"+s.Name+"(", "func TestMbenchNoReset"+s.Name+"(", 1) + "\n\n")
			drifts = append(drifts, drift{s.Name, "TestMbenchNoReset" + s.Name})
		}
	}
	extra.WriteString("var _ = strconv.Itoa\n")
	check(os.WriteFile(filepath.Join(dir, "mbench_variants_test.go"), []byte(extra.String()), 0o666))
	for _, s := range res.Segments {
		if hand["BenchmarkHand"+s.Name] && s.Reason == gen.Accepted {
			tops = append(tops, "BenchmarkHand"+s.Name)
		}
	}

	fmt.Fprintf(md, "## Protections turned off, one at a time\n\n")
	fmt.Fprintf(md, "The fixture gen/testdata/listings: `mbench gen` results in a scratch copy:\n\n")
	for _, s := range res.Segments {
		r := string(s.Reason)
		if s.Reason == gen.Accepted {
			r = fmt.Sprintf("generated, %d input set(s)", s.Sets)
		}
		fmt.Fprintf(md, "- %s (%s:%d): %s %s\n", s.Name, filepath.Base(s.Pos.Filename), s.Pos.Line, r, s.Detail)
	}
	fmt.Fprintf(md, "\nEach variant is the generated `BenchmarkNAME` with one protection removed from its source, in a second file of the copy; `mbench run` measures all of them in one session (`%s`), and `mbench compare -stat median` compares each variant (new) with the generated benchmark (old).\n\n", *runFlags)

	results := filepath.Join(*out, "prot", "listings.txt")
	measure(dir, "^("+strings.Join(tops, "|")+")$", results)
	fmt.Fprintf(md, "| segment | variant | old | new | new/old [99%% CI] | verdict |\n|---|---|---:|---:|---|---|\n")
	for _, r := range compare(results, cs, "old", "new") {
		seg, v, _ := strings.Cut(r.name, "/")
		fmt.Fprintf(md, "| %s | %s: %s | %s | %s | %s | %s |\n", seg, v, rowWhat[r.name], r.oldS, r.newS, r.ratioCI(), r.verdict)
	}
	fmt.Fprintln(md)

	// State drift without the reset.
	if len(drifts) > 0 {
		fmt.Fprintf(md, "State without the reset (`go test -run 'TestMbenchDrift|TestMbenchNoReset' -v`):\n\n| segment | test | result |\n|---|---|---|\n")
		cmd := exec.CommandContext(ctx, "go", "test", "-count=1", "-run=^(TestMbenchDrift|TestMbenchNoReset)", "-v", ".")
		cmd.Dir = dir
		b, _ := cmd.CombinedOutput()
		for _, d := range drifts {
			fmt.Fprintf(md, "| %s | %s | %s |\n", d.seg, d.test, strings.ReplaceAll(testSummary(b, d.test), "|", `\|`))
		}
		fmt.Fprintln(md)
	}
}

// handBenchmarks returns the names of the benchmarks declared in the
// test files of dir.
func handBenchmarks(dir string) map[string]bool {
	files, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	check(err)
	names := map[string]bool{}
	for _, file := range files {
		f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
		check(err)
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && strings.HasPrefix(fd.Name.Name, "Benchmark") {
				names[fd.Name.Name] = true
			}
		}
	}
	return names
}

// literals returns the Go literals of the first recorded set's inputs of
// s that are numbers or strings.
func literals(s *gen.Segment) map[string]string {
	b, err := os.ReadFile(filepath.Join(s.Pkg.Dir, "testdata", "mbench", s.Name+".json"))
	check(err)
	var f struct {
		Sets []struct {
			Inputs []struct {
				Name  string          `json:"name"`
				Value json.RawMessage `json:"value"`
			} `json:"inputs"`
		} `json:"sets"`
	}
	check(json.Unmarshal(b, &f))
	lits := map[string]string{}
	if len(f.Sets) == 0 {
		return lits
	}
	for _, in := range f.Sets[0].Inputs {
		for _, v := range s.Inputs {
			if v.Name != in.Name {
				continue
			}
			basic, ok := v.Type.Underlying().(*types.Basic)
			if !ok {
				continue
			}
			switch {
			case basic.Info()&types.IsInteger != 0:
				var n json.Number
				if json.Unmarshal(in.Value, &n) == nil {
					lits[in.Name] = n.String()
				}
			case basic.Info()&types.IsString != 0:
				var str string
				if json.Unmarshal(in.Value, &str) == nil {
					lits[in.Name] = strconv.Quote(str)
				}
			}
		}
	}
	return lits
}

// driftTest returns a test that calls the payload of s twice, as the
// benchmark would without its reset, and logs how the mutated inputs
// differ from the recorded ones after the first call.
func driftTest(s *gen.Segment, funcs map[string]string) string {
	var mutated []gen.Var
	for _, v := range s.Inputs {
		if v.Mutated {
			mutated = append(mutated, v)
		}
	}
	if len(mutated) == 0 {
		return ""
	}
	call := ""
	for _, l := range strings.Split(funcs["Benchmark"+s.Name], "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "mbenchPayload"+s.Name+"(") {
			call = strings.TrimSpace(l)
			break
		}
	}
	if call == "" {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "func TestMbenchDrift%s(t *testing.T) {\n\ts := mbenchLoad(t, %q)[0]\n\tmbenchSetup%s(t, s)\n\t%s\n", s.Name, s.Name, s.Name, call)
	for _, v := range mutated {
		typ := types.TypeString(v.Type, types.RelativeTo(s.Pkg.Types))
		fmt.Fprintf(&b, "\t{\n\t\tvar rec %s\n\t\ts.input(t, %q, %q, &rec)\n\t\tif !mbenchEqual(mbenchIn%s_%s, rec) {\n\t\t\tt.Errorf(\"after one call, input %s is not the recorded input: %%s (now != recorded)\", mbenchDiff(mbenchIn%s_%s, rec))\n\t\t}\n\t}\n",
			typ, v.Name, typ, s.Name, v.Name, v.Name, s.Name, v.Name)
	}
	b.WriteString("}\n\n")
	return b.String()
}

// testSummary returns the outcome of test name in go test -v output b,
// with its first message.
func testSummary(b []byte, name string) string {
	msg := ""
	running := false
	for _, l := range strings.Split(string(b), "\n") {
		t := strings.TrimSpace(l)
		switch {
		case t == "=== RUN   "+name:
			running = true
		case strings.HasPrefix(t, "=== RUN"):
			running = false
		case strings.HasPrefix(t, "--- FAIL: "+name+" "):
			return "FAIL: " + msg
		case strings.HasPrefix(t, "--- PASS: "+name+" "):
			return "pass"
		case running && msg == "":
			if j := strings.Index(t, ": "); j > 0 && strings.Contains(t[:j], ".go:") {
				msg = t[j+2:]
			}
		}
	}
	return "not run"
}

// ---- measuring and comparing ----

// measure runs the benchmarks matching bench in the package in dir with
// mbench run, writing the iterations to results.
func measure(dir, bench, results string) {
	args := append([]string{"run", "-db", filepath.Join(*out, "mbench.db"), "-label", filepath.Base(results), "-bench", bench, "-o", results}, strings.Fields(*runFlags)...)
	args = append(args, ".")
	log.Printf("mbench %s (in %s)", strings.Join(args, " "), dir)
	b := run(dir, mbench, args...)
	check(os.WriteFile(strings.TrimSuffix(results, ".txt")+".summary", b, 0o666))
}

// A cmpPair compares benchmark old with benchmark new of one results
// file, both renamed to key.
type cmpPair struct{ old, new, key string }

type cmpRow struct {
	name             string
	old, new         float64
	oldS, newS       string
	ratio, lo, hi    float64
	verdict, comment string
}

func (r cmpRow) ratioCI() string {
	return fmt.Sprintf("%.2f [%.2f, %.2f]", r.ratio, r.lo, r.hi)
}

var procs = regexp.MustCompile(`-\d+$`)

// compare splits results into two files, old and new, holding the
// iterations of the pairs' benchmarks under their keys (every other line,
// such as the fork markers, in both), and compares them with mbench
// compare.
func compare(results string, cs []cmpPair, oldLabel, newLabel string) []cmpRow {
	if len(cs) == 0 {
		return nil
	}
	in, err := os.ReadFile(results)
	check(err)
	var ob, nb bytes.Buffer
	sc := bufio.NewScanner(bytes.NewReader(in))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		l := sc.Text()
		if !strings.HasPrefix(l, "Benchmark") {
			ob.WriteString(l + "\n")
			nb.WriteString(l + "\n")
			continue
		}
		name, rest, _ := strings.Cut(l, " ")
		suffix := procs.FindString(name)
		name = strings.TrimSuffix(name, suffix)
		for _, c := range cs {
			if name == c.old {
				fmt.Fprintf(&ob, "Benchmark%s%s %s\n", c.key, suffix, rest)
			}
			if name == c.new {
				fmt.Fprintf(&nb, "Benchmark%s%s %s\n", c.key, suffix, rest)
			}
		}
	}
	base := strings.TrimSuffix(results, ".txt")
	oldFile, newFile := base+"."+oldLabel+".txt", base+"."+newLabel+".txt"
	check(os.WriteFile(oldFile, ob.Bytes(), 0o666))
	check(os.WriteFile(newFile, nb.Bytes(), 0o666))
	b := run("", mbench, "compare", "-stat", "median", "-format", "csv", oldLabel+"="+oldFile, newLabel+"="+newFile)
	check(os.WriteFile(base+".compare.csv", b, 0o666))
	recs, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
	check(err)
	if len(recs) == 0 {
		log.Fatalf("mbench compare %s %s: no output", oldFile, newFile)
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	rows := map[string]cmpRow{}
	for _, rec := range recs[1:] {
		if rec[col["metric"]] != "sec/op" {
			continue
		}
		num := func(c string) float64 {
			f, _ := strconv.ParseFloat(rec[col[c]], 64)
			return f
		}
		r := cmpRow{name: rec[col["name"]], old: num("old"), new: num("new"), ratio: num("ratio"), lo: num("lo"), hi: num("hi"), verdict: rec[col["verdict"]], comment: rec[col["note"]]}
		r.oldS, r.newS = dur(r.old), dur(r.new)
		rows[r.name] = r
	}
	var out []cmpRow
	for _, c := range cs {
		r, ok := rows[c.key]
		if !ok {
			r = cmpRow{name: c.key, verdict: "not measured", oldS: "–", newS: "–"}
		}
		out = append(out, r)
	}
	return out
}

func dur(sec float64) string {
	ns := sec * 1e9
	switch {
	case ns >= 1e6:
		return fmt.Sprintf("%.3g ms", ns/1e6)
	case ns >= 1e3:
		return fmt.Sprintf("%.3g µs", ns/1e3)
	default:
		return fmt.Sprintf("%.3g ns", ns)
	}
}

// ---- helpers ----

// fetch copies module m from the module proxy into a writable directory
// under parent and downloads what its tests need.
func fetch(m module, parent string) string {
	b := run("", "go", "mod", "download", "-json", m.path+"@"+m.version)
	var info struct{ Dir, Error string }
	check(json.Unmarshal(b, &info))
	if info.Dir == "" {
		log.Fatalf("go mod download %s@%s: %s", m.path, m.version, info.Error)
	}
	dst := filepath.Join(parent, m.short)
	copyTree(info.Dir, dst)
	run(dst, "go", "mod", "download")
	return dst
}

// copyTree copies the directory tree src to dst, writable.
func copyTree(src, dst string) {
	check(os.RemoveAll(dst))
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o777)
		}
		in, err := os.Open(path)
		if err != nil {
			return err
		}
		defer in.Close()
		o, err := os.OpenFile(target, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o666)
		if err != nil {
			return err
		}
		if _, err := io.Copy(o, in); err != nil {
			o.Close()
			return err
		}
		return o.Close()
	})
	check(err)
}

// run runs a command in dir and returns its standard output; it stops
// the evaluation when the command fails.
func run(dir, name string, args ...string) []byte {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	b, err := cmd.Output()
	if err != nil {
		log.Fatalf("%s %s (in %s): %v\n%s%s", name, strings.Join(args, " "), dir, err, b, stderr.Bytes())
	}
	return b
}

func rel(m module, file string) string {
	if i := strings.Index(file, "/"+m.short+"/"); i >= 0 {
		return file[i+len(m.short)+2:]
	}
	return filepath.Base(file)
}

func pct(n, of int) string {
	if of == 0 {
		return "–"
	}
	return fmt.Sprintf("%.0f%%", 100*float64(n)/float64(of))
}

func has(list []string, s string) bool {
	for _, x := range list {
		if strings.TrimSpace(x) == s {
			return true
		}
	}
	return false
}

func sortedKeys[V any](m map[string]V) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

func cpuModel() string {
	b, _ := os.ReadFile("/proc/cpuinfo")
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "model name") {
			_, v, _ := strings.Cut(l, ":")
			return strings.TrimSpace(v)
		}
	}
	return runtime.GOARCH
}

func loadAvg() string {
	b, _ := os.ReadFile("/proc/loadavg")
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return "unknown"
	}
	return f[0] + " (1-minute average)"
}

func check(err error) {
	if err != nil {
		log.Fatal(err)
	}
}
