// Command vetreplay checks by running them the findings of earlier
// `mbench vet -json` outputs, with the fixes those outputs carry, by the
// checks of the current `mbench vet -run` (package vet/crosscheck). It
// answers a question `mbench vet -run` cannot: how would the checks by
// running treat findings that the static rules of today no longer make,
// such as the false positives of a corpus's first run that later rules
// removed? docs/eval/vet.md ("-confirmed on the findings of the first
// runs") has what it measured.
//
//	vetreplay [-only LIST] OUT.json...
//
// Each finding of an analyzer the checks can decide (deadresult,
// constfold, bnsize, driftstate) is checked, with the first fix of its
// finding as the protected build and, for a constfold finding on a call
// whose result is also dead, the last fix of that deadresult finding in
// both builds, as `mbench vet -run` does. -only LIST keeps the findings
// listed in the file LIST, one per line as "analyzer<TAB>position", where
// position is a suffix of the finding's file:line:col. The module trees
// the positions name must still be where the outputs were made.
//
// It prints one tab-separated line per finding, as each package is done:
// analyzer, position, outcome, ns/op as written, ns/op protected (or at
// the largest b.N for a size finding), and the reason on one line.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"go/token"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/mbench/mbench/vet/crosscheck"
)

// The JSON of `mbench vet -json`.
type finding struct {
	Analyzer string `json:"analyzer"`
	Pos      string `json:"posn"`
	Message  string `json:"message"`
	Category string `json:"category"`
	Fixes    []struct {
		Edits []struct {
			File  string `json:"file"`
			New   string `json:"new"`
			Start string `json:"start"`
			End   string `json:"end"`
		} `json:"edits"`
	} `json:"fixes"`
}

func main() {
	only := flag.String("only", "", "check only the findings listed in `file` (analyzer<TAB>position suffix per line)")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: vetreplay [-only LIST] OUT.json...")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() == 0 {
		flag.Usage()
		os.Exit(2)
	}
	if err := replay(*only, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "vetreplay:", err)
		os.Exit(1)
	}
}

func replay(onlyFile string, outputs []string) error {
	var all []finding
	for _, name := range outputs {
		data, err := os.ReadFile(name)
		if err != nil {
			return err
		}
		var fs []finding
		if err := json.Unmarshal(data, &fs); err != nil {
			return fmt.Errorf("%s: %v", name, err)
		}
		all = append(all, fs...)
	}
	var wanted [][2]string
	if onlyFile != "" {
		var err error
		if wanted, err = readList(onlyFile); err != nil {
			return err
		}
	}
	// Every checkable finding, so that a listed constfold finding is
	// paired with the deadresult finding on its call even when that one
	// is not listed; then the listed ones by package directory, in order
	// of first appearance, so that each package builds once.
	fs := make(files)
	var cfs []crosscheck.Finding
	var keep []bool
	for _, f := range all {
		if !crosscheck.Checks(f.Analyzer) {
			continue
		}
		cf, err := fs.convert(f)
		if err != nil {
			return err
		}
		cfs = append(cfs, cf)
		keep = append(keep, wanted == nil || listed(wanted, f))
	}
	crosscheck.SetBases(cfs)
	var dirs []string
	byDir := make(map[string][]crosscheck.Finding)
	for i, cf := range cfs {
		if !keep[i] {
			continue
		}
		dir := filepath.Dir(cf.File)
		if byDir[dir] == nil {
			dirs = append(dirs, dir)
		}
		byDir[dir] = append(byDir[dir], cf)
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	opts := crosscheck.DefaultOptions
	opts.Log = func(format string, args ...any) { fmt.Fprintf(os.Stderr, "vetreplay: "+format+"\n", args...) }
	for _, dir := range dirs {
		verdicts, err := crosscheck.Check(ctx, byDir[dir], opts)
		for _, v := range verdicts {
			if v.Outcome == "" {
				continue // not reached: interrupted
			}
			fmt.Printf("%s\t%s\t%s\t%.4g\t%.4g\t%s\n", v.Finding.Analyzer, fs.position(v.Finding), v.Outcome,
				v.Original*1e9, v.Protected*1e9, strings.Join(strings.Fields(v.Reason), " "))
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// convert returns the check of f: its position and the edits of its
// fixes as byte offsets. Check pairs a constfold finding with the
// deadresult finding on the same call, as mbench vet -run does.
func (fs files) convert(f finding) (crosscheck.Finding, error) {
	file, off, err := fs.offset(f.Pos)
	if err != nil {
		return crosscheck.Finding{}, err
	}
	cf := crosscheck.Finding{Analyzer: f.Analyzer, Category: f.Category, File: file, Offset: off, Message: f.Message}
	for _, fx := range f.Fixes {
		var edits []crosscheck.Edit
		for _, e := range fx.Edits {
			_, start, err := fs.offset(e.Start)
			if err != nil {
				return cf, err
			}
			_, end, err := fs.offset(e.End)
			if err != nil {
				return cf, err
			}
			edits = append(edits, crosscheck.Edit{File: e.File, Start: start, End: end, New: e.New})
		}
		cf.Fixes = append(cf.Fixes, edits)
	}
	return cf, nil
}

// files holds the line tables of the files positions name, each read
// once.
type files map[string]*token.File

// lines returns the line table of name.
func (fs files) lines(name string) (*token.File, error) {
	if tf, ok := fs[name]; ok {
		return tf, nil
	}
	src, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	tf := token.NewFileSet().AddFile(name, -1, len(src))
	tf.SetLinesForContent(src)
	fs[name] = tf
	return tf, nil
}

// offset returns the file and byte offset of a position file:line:col
// (go/token's form: the column counts bytes from 1).
func (fs files) offset(pos string) (string, int, error) {
	i := strings.LastIndexByte(pos, ':')
	j := strings.LastIndexByte(pos[:max(i, 0)], ':')
	if j < 0 {
		return "", 0, fmt.Errorf("position %q: want file:line:col", pos)
	}
	line, err1 := strconv.Atoi(pos[j+1 : i])
	col, err2 := strconv.Atoi(pos[i+1:])
	if err1 != nil || err2 != nil || line < 1 || col < 1 {
		return "", 0, fmt.Errorf("position %q: want file:line:col", pos)
	}
	file := pos[:j]
	tf, err := fs.lines(file)
	if err != nil {
		return "", 0, err
	}
	if line > tf.LineCount() {
		return "", 0, fmt.Errorf("position %q: the file has %d lines", pos, tf.LineCount())
	}
	off := tf.Offset(tf.LineStart(line)) + col - 1
	if off > tf.Size() {
		return "", 0, fmt.Errorf("position %q: past the end of the file", pos)
	}
	return file, off, nil
}

// position returns file:line:col of a check's finding.
func (fs files) position(f crosscheck.Finding) string {
	tf, err := fs.lines(f.File)
	if err != nil || f.Offset > tf.Size() {
		return fmt.Sprintf("%s:#%d", f.File, f.Offset)
	}
	return tf.Position(tf.Pos(f.Offset)).String()
}

// readList reads -only's file: analyzer<TAB>position per line.
func readList(name string) ([][2]string, error) {
	file, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	var out [][2]string
	sc := bufio.NewScanner(file)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		a, p, ok := strings.Cut(line, "\t")
		if !ok {
			return nil, fmt.Errorf("%s:%d: want analyzer<TAB>position", name, n)
		}
		out = append(out, [2]string{a, p})
	}
	return out, sc.Err()
}

func listed(list [][2]string, f finding) bool {
	for _, w := range list {
		if w[0] == f.Analyzer && strings.HasSuffix(f.Pos, w[1]) {
			return true
		}
	}
	return false
}
