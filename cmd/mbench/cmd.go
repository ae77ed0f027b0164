package main

import (
	"context"
	"embed"
	"errors"
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/mbench/mbench/compare"
	"github.com/mbench/mbench/internal/term"
	"github.com/mbench/mbench/run"
)

// Exit codes, documented in the README and in `mbench help`.
const (
	exitOK         = 0
	exitError      = 1
	exitUsage      = 2
	exitRegression = 3
)

// A command is one subcommand of mbench.
type command struct {
	name      string
	usageLine string // arguments after the command name
	short     string // one line for the command list
	long      string // the help text: what it does and its flags' meaning
	// setFlags declares the command's flags on fs and returns the function
	// that runs it with the remaining arguments.
	setFlags func(fs *flag.FlagSet) func(env *env, args []string) error
}

// env is what a running command may touch: its output streams.
type env struct {
	stdout, stderr io.Writer
}

// status opens the status line of a long command on its stderr, live on
// a terminal unless quiet, and sends the command's other output to stderr
// through it, above the line. The command calls Done when it ends.
func (e *env) status(quiet bool) *term.Status {
	s := term.Open(e.stderr, quiet)
	e.stderr = s
	s.Start(time.Second)
	return s
}

// results is where a command writes a comparison: its stdout, on which
// verdicts are coloured when it is a terminal that wants colour.
func (e *env) results() io.Writer {
	if term.Colour(e.stdout) {
		return compare.Coloured(e.stdout)
	}
	return e.stdout
}

// quietFlag binds -q, which silences the status line.
func quietFlag(fs *flag.FlagSet) *bool {
	return fs.Bool("q", false, "quiet: no progress line on a terminal")
}

// warnf prints a warning on stderr.
func (e *env) warnf(format string, args ...any) {
	fmt.Fprintf(e.stderr, "mbench: warning: "+format+"\n", args...)
}

// platform describes the machine and the module in dir and warns on
// stderr about what makes its measurements less reliable (frequency
// scaling, a dirty tree, ...).
func (e *env) platform(ctx context.Context, dir string) run.Platform {
	p := run.Detect(ctx, dir)
	for _, w := range run.PlatformWarnings(p) {
		e.warnf("%s", w)
	}
	return p
}

// usageError marks an error in how a command was called (exit code 2).
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{fmt.Sprintf(format, args...)}
}

// regressionError reports that a comparison found regressions under -fail
// (exit code 3). Its output has already been written.
type regressionError struct {
	n     int
	names string
}

func (e *regressionError) Error() string {
	if e.n == 1 {
		return "1 benchmark got worse: " + e.names
	}
	return fmt.Sprintf("%d benchmarks got worse: %s", e.n, e.names)
}

// findingsError makes mbench vet exit 3 when it found something.
type findingsError struct{ n int }

func (e *findingsError) Error() string {
	if e.n == 1 {
		return "1 finding"
	}
	return fmt.Sprintf("%d findings", e.n)
}

// The help text of each command, `mbench help NAME`, is help/NAME.txt.
//
//go:embed help/*.txt
var helpFiles embed.FS

// helpText returns the help text of command name.
func helpText(name string) string {
	b, err := helpFiles.ReadFile("help/" + name + ".txt")
	if err != nil {
		panic("mbench: no help text for " + name) // a build without help/NAME.txt
	}
	return string(b)
}

var commands []*command

func lookup(name string) *command {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	return nil
}

// mbench runs the command line args and returns the exit code.
func mbench(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		printUsage(stderr)
		return exitUsage
	}
	name := args[0]
	if name == "help" || name == "-h" || name == "-help" || name == "--help" {
		return help(args[1:], stdout, stderr)
	}
	cmd := lookup(name)
	if cmd == nil {
		fmt.Fprintf(stderr, "mbench %s: unknown command\nRun 'mbench help' for usage.\n", name)
		return exitUsage
	}
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	// The flag package calls Usage after printing a parse error and for
	// -h; both are answered below, after Parse returns.
	fs.Usage = func() {}
	shortUsage := func() {
		fmt.Fprintf(stderr, "usage: %s\nRun 'mbench help %s' for details.\n", usageLine(cmd), cmd.name)
	}
	runFn := cmd.setFlags(fs)
	args, err := parseFlags(fs, args[1:])
	if err == nil {
		err = runFn(&env{stdout: stdout, stderr: stderr}, args)
	} else if !errors.Is(err, flag.ErrHelp) {
		shortUsage()
		return exitUsage
	}
	var ue *usageError
	var re *regressionError
	var fe *findingsError
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, flag.ErrHelp):
		// -h, -help or --help, to the command or to its subcommand
		// (store copy -h): the full help, as 'mbench help NAME' prints.
		printHelp(stdout, cmd)
		return exitOK
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "mbench %s: %v\n", name, err)
		shortUsage()
		return exitUsage
	case errors.As(err, &re), errors.As(err, &fe):
		fmt.Fprintf(stderr, "mbench %s: %v\n", name, err)
		return exitRegression
	default:
		fmt.Fprintf(stderr, "mbench %s: %v\n", name, err)
		return exitError
	}
}

// parseFlags parses the flags in args with fs, also those that follow
// other arguments (mbench report RUN -o x.html), and returns the other
// arguments in order. "--" ends the flags.
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	var rest []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		if n := len(args) - fs.NArg(); fs.NArg() == 0 || n > 0 && args[n-1] == "--" {
			return append(rest, fs.Args()...), nil
		}
		rest, args = append(rest, fs.Arg(0)), fs.Args()[1:]
	}
}

func printUsage(w io.Writer) {
	fmt.Fprint(w, "mbench makes Go microbenchmark results trustworthy, cheap and comparable.\n\nUsage:\n\n\tmbench <command> [arguments]\n\nThe commands are:\n\n")
	sorted := append([]*command(nil), commands...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].name < sorted[j].name })
	for _, c := range sorted {
		fmt.Fprintf(w, "\t%-10s %s\n", c.name, c.short)
	}
	fmt.Fprint(w, "\nUse \"mbench help <command>\" for more information about a command.\n\n"+
		"A command's flags may come before or after its other arguments; \"--\" ends them.\n\n"+
		"Exit codes: 0 success, 1 error, 2 usage error, 3 regression found (ab, compare and duet with -fail) or findings (vet).\n")
}

func help(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		printUsage(stdout)
		return exitOK
	}
	if len(args) > 1 {
		fmt.Fprintln(stderr, "usage: mbench help <command>")
		return exitUsage
	}
	cmd := lookup(args[0])
	if cmd == nil {
		fmt.Fprintf(stderr, "mbench help %s: unknown command\n", args[0])
		return exitUsage
	}
	printHelp(stdout, cmd)
	return exitOK
}

// printHelp writes the full help of cmd: its usage line, its help text and
// its flags.
func printHelp(w io.Writer, cmd *command) {
	fmt.Fprintf(w, "usage: %s\n\n%s\n", usageLine(cmd), strings.TrimSpace(cmd.long))
	fs := flag.NewFlagSet(cmd.name, flag.ContinueOnError)
	cmd.setFlags(fs)
	hideDBPassword(fs)
	var hasFlags bool
	fs.VisitAll(func(*flag.Flag) { hasFlags = true })
	if hasFlags {
		fmt.Fprintf(w, "\nFlags:\n")
		fs.SetOutput(w)
		fs.PrintDefaults()
	}
}

// usageLine returns "mbench NAME ARGUMENTS" for cmd.
func usageLine(cmd *command) string {
	return strings.TrimSpace("mbench " + cmd.name + " " + cmd.usageLine)
}
