package mbench_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// Exit statuses of mbench that mean a command did its work: success, and
// a gate's regression (-fail) or vet's findings.
const (
	exitOK         = 0
	exitRegression = 3
)

// An example is a command line the README or a help text shows.
type example struct {
	where, cmd string
}

// exampleSkips are the examples that cannot run in a test, and why.
var exampleSkips = map[string]string{
	"go install github.com/mbench/mbench/cmd/mbench@latest": "fetches mbench from the network (the module proxy)",
	"go get -tool github.com/mbench/mbench/cmd/mbench && go tool mbench version": "fetches mbench from the network; " +
		"TestInstall runs the same commands against this checkout",
	`go install ./cmd/mbench && cd examples/suite && "$(go env GOPATH)/bin/mbench" run -benchmem`: "installs into the user's " +
		"$GOPATH/bin and measures the bundled example suite, in this checkout, for about a minute",
	"cd examples/suite && mbench ab -old 628fb60~1 -new 628fb60": "measures the bundled example suite across a commit " +
		"of this repository for about a minute, on a clone with that history; its output is the README's",
	"mbench store copy shard1.db postgres://ci@db.internal/mbench":           "copies into the PostgreSQL server db.internal",
	"mbench store copy -label pr-42 postgres://ci@db.internal/mbench all.db": "copies from the PostgreSQL server db.internal",
}

// An exampleStep runs one example in the scenario of TestExamples.
type exampleStep struct {
	cmd string
	// root runs the command in this module's root instead of the
	// scratch repository.
	root bool
	// codes are the exit statuses that mean the command did its work: 0,
	// and 3 for a gate (-fail) or vet's findings.
	codes []int
	env   []string
	// after checks what the command did and prepares what comes next.
	after func(t *testing.T, dir, stdout string)
}

// TestExamples runs every example command line of README.md and of the
// help texts (cmd/mbench/help) as written, in the order of a user's day:
// in a scratch git repository of a module with two packages of
// benchmarks (the working tree one commit past branch main, which is
// also origin/main), with the fake test binaries old.test and new.test
// of the command's tests beside it, and mbench, built from this
// checkout, on the PATH.
// Each runs through sh in the repository and must exit with a status
// that means it did its work. An example that is neither run here nor in
// exampleSkips with a reason fails the test, and so does a skip or a
// step that names no example: the documentation cannot drift from what
// runs.
func TestExamples(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and measures a scratch module; skipped under -short")
	}
	examples := readExamples(t)
	binDir := t.TempDir()
	goBuild(t, "build", "-o", filepath.Join(binDir, "mbench"), "./cmd/mbench")
	repo := exampleRepo(t)
	// The fake test binary (cmd/mbench/testdata/fakebench) under the
	// names of its two versions.
	goBuild(t, "test", "-c", "-o", filepath.Join(repo, "old.test"), "./cmd/mbench/testdata/fakebench")
	exe, err := os.ReadFile(filepath.Join(repo, "old.test"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, "new.test"), exe, 0o777); err != nil {
		t.Fatal(err)
	}
	root, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "PATH="+binDir+string(os.PathListSeparator)+os.Getenv("PATH"),
		"GOBIN="+binDir, "GOPROXY=off", "GOTOOLCHAIN=local", "GOWORK=off",
		"FAKEBENCH_STATE="+t.TempDir(), "FAKEBENCH_SEED=examples",
		"GIT_CEILING_DIRECTORIES="+filepath.Dir(repo))

	interleaved := func(t *testing.T, dir, stdout string) {
		if !strings.Contains(stdout, "interleaved") {
			t.Errorf("not compared as the session's rounds:\n%s", stdout)
		}
	}
	shard := func(i int) exampleStep {
		return exampleStep{
			cmd: `mbench ab -old origin/main -old-label main -new-label "pr-$PR" -shard "$i/$N" -db shard.db ./...`,
			env: []string{"PR=42", "N=2", fmt.Sprintf("i=%d", i)},
			// The job's artifact, as the gathering job downloads it.
			after: func(t *testing.T, dir, _ string) {
				sub := filepath.Join(dir, fmt.Sprintf("shard-%d", i))
				if err := os.Mkdir(sub, 0o777); err != nil {
					t.Fatal(err)
				}
				files, _ := filepath.Glob(filepath.Join(dir, "shard.db*"))
				for _, f := range files {
					if err := os.Rename(f, filepath.Join(sub, filepath.Base(f))); err != nil {
						t.Fatal(err)
					}
				}
			},
		}
	}
	gate := []int{exitOK, exitRegression}
	steps := []exampleStep{
		{cmd: "mbench help duet"},
		{cmd: "mbench help run"},
		{cmd: "mbench help runs"},
		{cmd: "mbench run old=old.test new=new.test"},
		{cmd: "mbench ab -old HEAD~1"},
		{cmd: "mbench compare HEAD~1 HEAD", after: interleaved},
		{cmd: "mbench ab -old main -fail ./codec", codes: gate},
		{cmd: "mbench compare main HEAD", after: interleaved},
		shard(1),
		shard(2),
		{cmd: `for db in shard-*/shard.db; do mbench store copy "$db" all.db; done`},
		{cmd: `mbench compare -db all.db -format markdown -fail "main..pr-$PR" >comment.md`, env: []string{"PR=42"}, codes: gate,
			after: func(t *testing.T, dir, _ string) {
				if b, err := os.ReadFile(filepath.Join(dir, "comment.md")); err != nil || !bytes.Contains(b, []byte("pr-42")) {
					t.Errorf("comment.md: %v\n%s", err, b)
				}
			}},
		{cmd: "mbench run -shard 1/4 -label pr-42 -db shard1.db ./..."},
		{cmd: "mbench vet ./...", codes: gate},
		{cmd: "mbench vet -run -confirmed ./...", codes: gate},
		{cmd: "mbench gen ./..."},
		{cmd: "go install github.com/mbench/mbench/cmd/mbench-vet", root: true},
		{cmd: "go vet -vettool=$(which mbench-vet) ./..."},
		{cmd: "mbench doctor -noise"},
	}

	known := make(map[string]bool)
	for _, ex := range examples {
		known[ex.cmd] = true
	}
	ran := make(map[string]bool)
	for _, st := range steps {
		if !known[st.cmd] {
			t.Errorf("step %q is no example of the README or the help; remove it", st.cmd)
			continue
		}
		ran[st.cmd] = true
		dir := repo
		if st.root {
			dir = root
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		cmd := exec.CommandContext(ctx, "sh", "-c", st.cmd)
		cmd.Dir, cmd.Env = dir, append(slices.Clip(env), st.env...)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		cancel()
		code := cmd.ProcessState.ExitCode()
		codes := st.codes
		if codes == nil {
			codes = []int{exitOK}
		}
		if !slices.Contains(codes, code) {
			t.Errorf("%s: exit status %d (%v), want one of %v\nstdout:\n%s\nstderr:\n%s", st.cmd, code, err, codes, &stdout, &stderr)
			continue
		}
		if st.after != nil {
			st.after(t, dir, stdout.String())
		}
	}
	for cmd := range exampleSkips {
		if !known[cmd] {
			t.Errorf("skipped %q is no example of the README or the help; remove it", cmd)
		}
	}
	for _, ex := range examples {
		if !ran[ex.cmd] && exampleSkips[ex.cmd] == "" {
			t.Errorf("%s: example %q is not run: add it to the steps of TestExamples, or to exampleSkips with the reason it cannot run",
				ex.where, ex.cmd)
		}
	}
}

// goBuild runs the go command with args in this module.
func goBuild(t *testing.T, args ...string) {
	t.Helper()
	if out, err := exec.Command("go", args...).CombinedOutput(); err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// exampleRepo makes the scratch repository of TestExamples: a module with
// a benchmark at its root and one in ./codec, committed on branch main and
// pushed to origin; then branch feature, checked out, one commit later
// (the same code).
func exampleRepo(t *testing.T) string {
	t.Helper()
	top := t.TempDir()
	dir := filepath.Join(top, "repo")
	files := map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.26\n",
		"m.go":   "// Package m sums numbers.\npackage m\n\n// Sum returns the sum of xs.\nfunc Sum(xs []int) int {\n\ts := 0\n\tfor _, x := range xs {\n\t\ts += x\n\t}\n\treturn s\n}\n",
		"m_test.go": "package m\n\nimport \"testing\"\n\nvar input = make([]int, 1000)\n\nvar sink int\n\n" +
			"func BenchmarkSum(b *testing.B) {\n\tfor b.Loop() {\n\t\tsink = Sum(input)\n\t}\n}\n",
		"codec/codec.go": "// Package codec writes numbers.\npackage codec\n\nimport \"strconv\"\n\n" +
			"// Encode writes n in decimal.\nfunc Encode(n int) string { return strconv.Itoa(n) }\n",
		"codec/codec_test.go": "package codec\n\nimport \"testing\"\n\nvar n = 123456789\n\nvar sink string\n\n" +
			"func BenchmarkEncode(b *testing.B) {\n\tfor b.Loop() {\n\t\tsink = Encode(n)\n\t}\n}\n",
		"README": "m\n",
	}
	for name, text := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git := func(dir string, args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t",
			"GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git(dir, "init", "-q", "-b", "main")
	git(dir, "add", ".")
	git(dir, "commit", "-qm", "one")
	git(top, "clone", "-q", "--bare", dir, "origin.git")
	git(dir, "remote", "add", "origin", filepath.Join(top, "origin.git"))
	git(dir, "fetch", "-q", "origin")
	git(dir, "checkout", "-q", "-b", "feature")
	if err := os.WriteFile(filepath.Join(dir, "README"), []byte("m, summed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git(dir, "commit", "-qam", "two")
	return dir
}

// readExamples returns the examples of README.md and of the help texts:
// in the README, the command lines of its code blocks and its inline code
// that runs mbench; in the help texts, indented command lines and quoted
// ones ('mbench compare main HEAD'). A mention of a command alone
// ('mbench run') and a synopsis, with placeholders (RUN, [flags], F.svg),
// are no examples. Trailing comments are dropped; each command once.
func readExamples(t *testing.T) []example {
	t.Helper()
	var out []example
	seen := make(map[string]bool)
	add := func(where, cmd string) {
		cmd = strings.TrimSpace(trailingComment.ReplaceAllString(cmd, ""))
		if !seen[cmd] {
			seen[cmd] = true
			out = append(out, example{where, cmd})
		}
	}
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(readme), "\n")
	fenced := false
	for i, line := range lines {
		if strings.HasPrefix(line, "```") {
			fenced = !fenced
			lines[i] = ""
			continue
		}
		if fenced {
			if s := strings.TrimSpace(line); commandLine.MatchString(s) && strings.Contains(s, "mbench") {
				add(fmt.Sprintf("README.md:%d", i+1), s)
			}
			lines[i] = ""
		}
	}
	prose := strings.Join(lines, "\n")
	for _, m := range inlineCode.FindAllStringSubmatchIndex(prose, -1) {
		if cmd := strings.Join(strings.Fields(prose[m[2]:m[3]]), " "); isExample(cmd) {
			add(fmt.Sprintf("README.md:%d", strings.Count(prose[:m[0]], "\n")+1), cmd)
		}
	}
	files, err := filepath.Glob(filepath.Join("cmd", "mbench", "help", "*.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no help texts: %v", err)
	}
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		text := string(b)
		for i, line := range strings.Split(text, "\n") {
			if s := strings.TrimSpace(line); line != s && (line[0] == '\t' || strings.HasPrefix(line, "  ")) &&
				commandLine.MatchString(s) && strings.Contains(s, "mbench") {
				add(fmt.Sprintf("%s:%d", file, i+1), s)
			}
		}
		for _, m := range quotedCommand.FindAllStringSubmatchIndex(text, -1) {
			if cmd := strings.Join(strings.Fields(text[m[2]:m[3]]), " "); isExample(cmd) {
				add(fmt.Sprintf("%s:%d", file, strings.Count(text[:m[0]], "\n")+1), cmd)
			}
		}
	}
	return out
}

var (
	// commandLine matches a line of a code block that is a command.
	commandLine     = regexp.MustCompile(`^(mbench|go|for|cd) `)
	trailingComment = regexp.MustCompile(`\s+# .*$`)
	inlineCode      = regexp.MustCompile("`([^`]+)`")
	quotedCommand   = regexp.MustCompile(`'(mbench [^']+)'`)
	// placeholder matches a word of a synopsis: RUN, S,I,D, F.svg,
	// [flags].
	placeholder = regexp.MustCompile(`^(\[.*|.*\]|[A-Z][A-Z0-9_,]*|[A-Z]+\.[a-z]+)$`)
)

// isExample reports whether cmd, inline code or a quoted command, runs
// mbench with arguments, none of them a placeholder.
func isExample(cmd string) bool {
	words := strings.Fields(cmd)
	i := slices.Index(words, "mbench")
	if i < 0 || i > 0 && !strings.Contains(cmd, "&& mbench ") || len(words)-i < 3 {
		return false
	}
	for _, w := range words[i+1:] {
		if placeholder.MatchString(w) && !strings.HasPrefix(w, "HEAD") {
			return false
		}
	}
	return true
}

// TestReadExamples checks what counts as an example.
func TestReadExamples(t *testing.T) {
	for cmd, want := range map[string]bool{
		"mbench compare main HEAD":         true,
		"mbench compare HEAD~1 HEAD":       true,
		"cd x && mbench ab -old HEAD~1":    true,
		"mbench ab":                        false, // a mention
		"mbench compare OLD NEW":           false,
		"mbench plot -kind K -o F.svg":     false,
		"mbench report [runs]":             false,
		"mbench run -levels S,I,D":         false,
		"go tool mbench version":           false,
		"mbench-vet ./...":                 false,
		"mbench vet -run -confirmed ./...": true,
	} {
		if got := isExample(cmd); got != want {
			t.Errorf("isExample(%q) = %v, want %v", cmd, got, want)
		}
	}
}
