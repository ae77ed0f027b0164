package deploy

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// An invocation is one mbench command line found in a recipe, its flags
// parsed as mbench's flag set parses them.
type invocation struct {
	where   string            // file:line
	command []string          // the command's name, and a subcommand's
	flags   map[string]string // flag name without dashes → value ("true" for a bool given bare)
	args    []string          // the arguments after the flags
}

// label returns the label the invocation stores its run under, when its
// flags say: -label, or for ab, whose session is labelled OLD..NEW,
// -old-label and -new-label.
func (inv *invocation) label() string {
	if l := inv.flags["label"]; l != "" || inv.command[0] != "ab" {
		return l
	}
	old, new := inv.flags["old-label"], inv.flags["new-label"]
	if old == "" || new == "" {
		return ""
	}
	return old + ".." + new
}

func (inv *invocation) String() string {
	return fmt.Sprintf("%s: mbench %s", inv.where, strings.Join(inv.command, " "))
}

// mbenchCLI answers what the mbench of this repository accepts: it builds
// cmd/mbench once and reads `mbench help CMD`, whose Flags section is the
// command's flag set printed by flag.PrintDefaults, and for a subcommand
// `mbench CMD SUB -h`, which prints its flag set the same way.
type mbenchCLI struct {
	bin   string
	mu    sync.Mutex
	specs map[string]*commandSpec
}

// A commandSpec is what `mbench help NAME` says of a command: its flags,
// true for those that take a value, and whether its usage line names
// subcommands (`mbench store copy`).
type commandSpec struct {
	flags map[string]bool
	usage string
}

var (
	cliOnce sync.Once
	cli     *mbenchCLI
	cliErr  error
	cliDir  string
)

func TestMain(m *testing.M) {
	code := m.Run()
	if cliDir != "" {
		os.RemoveAll(cliDir)
	}
	os.Exit(code)
}

// buildMbench builds cmd/mbench of this module once for the tests.
func buildMbench(t *testing.T) *mbenchCLI {
	t.Helper()
	cliOnce.Do(func() {
		if cliDir, cliErr = os.MkdirTemp("", "mbench-deploy-"); cliErr != nil {
			return
		}
		bin := filepath.Join(cliDir, "mbench")
		cmd := exec.Command("go", "build", "-o", bin, "github.com/mbench/mbench/cmd/mbench")
		if out, err := cmd.CombinedOutput(); err != nil {
			cliErr = fmt.Errorf("go build ./cmd/mbench: %v\n%s", err, out)
			return
		}
		cli = &mbenchCLI{bin: bin, specs: map[string]*commandSpec{}}
	})
	if cliErr != nil {
		t.Fatal(cliErr)
	}
	return cli
}

// flagLine matches a flag in flag.PrintDefaults output: "  -name type" for
// a flag that takes a value, "  -name" or "  -v\tusage" for a bool.
var flagLine = regexp.MustCompile(`^  -([^\s=]+)(?: ([^\s]+))?(?:\t.*)?$`)

// spec returns the help of the command path words, or an error when mbench
// has no such command.
func (c *mbenchCLI) spec(words ...string) (*commandSpec, error) {
	key := strings.Join(words, " ")
	c.mu.Lock()
	defer c.mu.Unlock()
	if s, ok := c.specs[key]; ok {
		if s == nil {
			return nil, fmt.Errorf("mbench has no command %q (mbench help %s fails)", key, key)
		}
		return s, nil
	}
	s := &commandSpec{flags: map[string]bool{}}
	var stdout, stderr bytes.Buffer
	if len(words) > 1 {
		// A subcommand parses its own flags: -h prints them with
		// flag.PrintDefaults and exits 2.
		cmd := exec.Command(c.bin, append(words, "-h")...)
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		cmd.Run()
		readFlags(s, io.MultiReader(&stdout, &stderr), "")
		c.specs[key] = s
		return s, nil
	}
	cmd := exec.Command(c.bin, "help", words[0])
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		c.specs[key] = nil
		return nil, fmt.Errorf("mbench has no command %q: mbench help %s: %v: %s", key, key, err, strings.TrimSpace(stderr.String()))
	}
	readFlags(s, &stdout, "Flags:")
	c.specs[key] = s
	return s, nil
}

// readFlags reads a command's usage line and the flags that
// flag.PrintDefaults printed after the line section ("" for anywhere).
func readFlags(s *commandSpec, r io.Reader, section string) {
	sc := bufio.NewScanner(r)
	inFlags := section == ""
	for sc.Scan() {
		line := sc.Text()
		switch {
		case s.usage == "" && strings.HasPrefix(line, "usage: "):
			s.usage = line
		case line == section:
			inFlags = true
		case inFlags:
			if m := flagLine.FindStringSubmatch(line); m != nil {
				s.flags[m[1]] = m[2] != ""
			}
		}
	}
}

// parse checks the words after "mbench" as mbench would parse them: the
// command exists (with its subcommand, when its usage line names one), and
// every flag is defined for it and stands before the first argument (Go's
// flag package takes what follows as arguments).
func (c *mbenchCLI) parse(where string, words []string) (*invocation, error) {
	if len(words) == 0 || strings.HasPrefix(words[0], "-") {
		return nil, fmt.Errorf("%s: mbench without a command: %q", where, words)
	}
	inv := &invocation{where: where, command: words[:1], flags: map[string]string{}}
	s, err := c.spec(words[0])
	if err != nil {
		return nil, fmt.Errorf("%s: %v", where, err)
	}
	rest := words[1:]
	if len(rest) > 0 && !strings.HasPrefix(rest[0], "-") && hasSubcommand(s.usage, words[0], rest[0]) {
		inv.command = words[:2]
		if s, err = c.spec(words[0], rest[0]); err != nil {
			return nil, fmt.Errorf("%s: %v", where, err)
		}
		rest = rest[1:]
	}
	name := strings.Join(inv.command, " ")
	for len(rest) > 0 {
		w := rest[0]
		if w == "--" {
			rest = rest[1:]
			break
		}
		if !strings.HasPrefix(w, "-") || w == "-" {
			break
		}
		rest = rest[1:]
		f := strings.TrimPrefix(strings.TrimPrefix(w, "-"), "-")
		f, value, hasValue := strings.Cut(f, "=")
		takesValue, ok := s.flags[f]
		if !ok {
			return nil, fmt.Errorf("%s: mbench %s: flag -%s is not defined (see mbench help %s)", where, name, f, name)
		}
		switch {
		case hasValue:
		case takesValue && len(rest) == 0:
			return nil, fmt.Errorf("%s: mbench %s: flag -%s needs a value", where, name, f)
		case takesValue:
			value, rest = rest[0], rest[1:]
		default:
			value = "true"
		}
		inv.flags[f] = value
	}
	inv.args = rest
	for _, a := range rest {
		if strings.HasPrefix(a, "-") && len(a) > 1 {
			return nil, fmt.Errorf("%s: mbench %s: %s comes after the arguments %q, where it is not parsed as a flag", where, name, a, rest)
		}
	}
	return inv, nil
}

// hasSubcommand reports whether the usage line of command name lists sub
// as one of its subcommands ("usage: mbench store copy|... ").
func hasSubcommand(usage, name, sub string) bool {
	rest, ok := strings.CutPrefix(usage, "usage: mbench "+name+" ")
	if !ok {
		return false
	}
	first, _, _ := strings.Cut(rest, " ")
	for _, alt := range strings.Split(strings.Trim(first, "[]{}()"), "|") {
		if alt == sub {
			return true
		}
	}
	return false
}

// isMbench reports whether a command's first word runs mbench.
func isMbench(word string) bool {
	return word == "mbench" || strings.HasSuffix(word, "/mbench")
}

// invocations returns the mbench commands of a shell script whose first
// line is line firstLine of file, each checked by c.parse.
func (c *mbenchCLI) invocations(file string, firstLine int, script string) ([]*invocation, []error) {
	cmds, err := shellCommands(script)
	if err != nil {
		return nil, []error{fmt.Errorf("%s:%d: %v", file, firstLine, err)}
	}
	var invs []*invocation
	var errs []error
	for _, cmd := range cmds {
		if !isMbench(cmd.words[0]) {
			continue
		}
		inv, err := c.parse(fmt.Sprintf("%s:%d", file, firstLine+cmd.line-1), cmd.words[1:])
		if err != nil {
			errs = append(errs, err)
			continue
		}
		invs = append(invs, inv)
	}
	return invs, errs
}

// markdownScripts returns the fenced code blocks of markdown marked sh,
// shell, bash or console, with the line of their first line. In console
// blocks only the lines after a "$ " prompt are kept.
func markdownScripts(src string) (scripts []string, lines []int) {
	var b strings.Builder
	in, console, start := false, false, 0
	for i, line := range strings.Split(src, "\n") {
		trimmed := strings.TrimSpace(line)
		switch {
		case !in && strings.HasPrefix(trimmed, "```"):
			lang := strings.TrimPrefix(trimmed, "```")
			if lang == "sh" || lang == "shell" || lang == "bash" || lang == "console" {
				in, console, start = true, lang == "console", i+2
				b.Reset()
			}
		case in && strings.HasPrefix(trimmed, "```"):
			in = false
			scripts, lines = append(scripts, b.String()), append(lines, start)
		case in && console:
			cmd, ok := strings.CutPrefix(line, "$ ")
			if !ok {
				cmd = ""
			}
			b.WriteString(cmd + "\n")
		case in:
			b.WriteString(line + "\n")
		}
	}
	return scripts, lines
}

func TestParseInvocation(t *testing.T) {
	c := buildMbench(t)
	inv, err := c.parse("x:1", strings.Fields("run -label a -benchmem -bench=. -v ./... ./b"))
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(inv.flags, inv.args); got != "map[bench:. benchmem:true label:a v:true] [./... ./b]" {
		t.Errorf("parsed %s", got)
	}
	for _, tc := range []struct{ args, want string }{
		{"nosuch -x", `x:1: mbench has no command "nosuch"`},
		{"run -label", "x:1: mbench run: flag -label needs a value"},
		{"run -labels x", "x:1: mbench run: flag -labels is not defined (see mbench help run)"},
		{"run --nosuch=1", "x:1: mbench run: flag -nosuch is not defined"},
		{"compare a -fail b", "x:1: mbench compare: -fail comes after the arguments"},
		{"-db x run", "x:1: mbench without a command"},
	} {
		_, err := c.parse("x:1", strings.Fields(tc.args))
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("mbench %s: error %v, want %q", tc.args, err, tc.want)
		}
	}
}

func TestMarkdownScripts(t *testing.T) {
	src := "# t\n```sh\nmbench run\n```\ntext\n```\nmbench no\n```\n```console\n$ mbench ab\noutput\n```\n"
	scripts, lines := markdownScripts(src)
	if got := fmt.Sprintf("%q %v", scripts, lines); got != `["mbench run\n" "mbench ab\n\n"] [3 10]` {
		t.Errorf("got %s", got)
	}
}
