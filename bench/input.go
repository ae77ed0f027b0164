package bench

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// An Input names one result set on a command line: "label=path", or just
// "path", in which case the label is the path (benchstat's convention).
type Input struct {
	Label string
	Path  string
}

// ParseInput parses one "label=path" or "path" argument. A label may not be
// empty; a path that itself contains "=" needs a label ("x=a=b.txt").
func ParseInput(arg string) (Input, error) {
	if arg == "" {
		return Input{}, errors.New("empty input: want a file, a run or label=path")
	}
	label, path, ok := strings.Cut(arg, "=")
	if !ok {
		return Input{Label: arg, Path: arg}, nil
	}
	if label == "" {
		return Input{}, fmt.Errorf("input %q: empty label before '='", arg)
	}
	if path == "" {
		return Input{}, fmt.Errorf("input %q: no path after '='", arg)
	}
	return Input{Label: label, Path: path}, nil
}

// ParseInputs parses every argument with ParseInput and rejects duplicate
// labels, which would make the output ambiguous.
func ParseInputs(args []string) ([]Input, error) {
	seen := make(map[string]string)
	var ins []Input
	for _, a := range args {
		in, err := ParseInput(a)
		if err != nil {
			return nil, err
		}
		if prev, ok := seen[in.Label]; ok {
			return nil, fmt.Errorf("inputs %q and %q have the same label %q; name them apart with label=path", prev, a, in.Label)
		}
		seen[in.Label] = a
		ins = append(ins, in)
	}
	return ins, nil
}

// ReadFile reads a result file in either format mbench reads: its JSON Lines
// format (detected by a first non-blank character '{') or the Go benchmark
// format. It fails when the file cannot be read, holds no results or is
// longer than DefaultReadOptions allow; problems with single lines come
// back as warnings.
func ReadFile(path string) (*Run, []error, error) {
	return DefaultReadOptions.ReadFile(path)
}

// ReadFile is the package's ReadFile under the limits of o.
func (o ReadOptions) ReadFile(path string) (*Run, []error, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	return o.Read(f, path)
}

// Read is ReadFile on an open reader; name is used in messages.
func Read(r io.Reader, name string) (*Run, []error, error) {
	return DefaultReadOptions.Read(r, name)
}

// Read is the package's Read under the limits of o.
func (o ReadOptions) Read(r io.Reader, name string) (*Run, []error, error) {
	// The format is told by the first byte that is not white space; the
	// white space before it is counted, not kept, and given to the reader
	// of the format as as many empty lines, so that line numbers hold.
	br := bufio.NewReaderSize(o.limit(r, name), readBuffer)
	lines := 0
	for {
		c, err := br.ReadByte()
		if err == io.EOF {
			return nil, nil, fmt.Errorf("%s: empty file: no benchmark results", name)
		} else if err != nil {
			return nil, nil, readError(name, err)
		}
		if c == '\n' {
			lines++
		}
		if !isSpace(c) {
			br.UnreadByte()
			break
		}
	}
	rest := io.MultiReader(&newlines{lines}, br)
	var (
		run      *Run
		warnings []error
		err      error
	)
	if c, _ := br.Peek(1); c[0] == '{' {
		run, warnings, err = readJSON(rest, name)
	} else {
		run, warnings, err = readBenchfmt(rest, name)
	}
	if err != nil {
		return nil, warnings, err
	}
	if len(run.Measurements) == 0 {
		msg := "no benchmark results"
		if len(warnings) > 0 {
			msg += fmt.Sprintf(" (%d malformed lines; first: %v)", len(warnings), warnings[0])
		}
		return nil, warnings, fmt.Errorf("%s: %s", name, msg)
	}
	return run, warnings, nil
}

// readBuffer is the size of the buffers through which the readers read.
const readBuffer = 64 << 10

// isSpace reports whether c is ASCII white space.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// readError is err, met reading input name, as the readers return it: a
// *SizeError as it is (it names the input), another error with the name.
func readError(name string, err error) error {
	if _, ok := err.(*SizeError); ok {
		return err
	}
	return fmt.Errorf("%s: %w", name, err)
}

// newlines reads as n newline characters.
type newlines struct{ n int }

func (nl *newlines) Read(p []byte) (int, error) {
	if nl.n == 0 {
		return 0, io.EOF
	}
	k := min(nl.n, len(p))
	for i := range k {
		p[i] = '\n'
	}
	nl.n -= k
	return k, nil
}
