package bench

import (
	"bytes"
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
// format. It fails when the file cannot be read or holds no results; problems
// with single lines come back as warnings.
func ReadFile(path string) (*Run, []error, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	return Read(f, path)
}

// Read is ReadFile on an open reader; name is used in messages.
func Read(r io.Reader, name string) (*Run, []error, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 {
		return nil, nil, fmt.Errorf("%s: empty file: no benchmark results", name)
	}
	isJSON := trimmed[0] == '{'
	var (
		run      *Run
		warnings []error
	)
	if isJSON {
		run, warnings, err = ReadJSON(bytes.NewReader(data), name)
	} else {
		run, warnings, err = ReadBenchfmt(bytes.NewReader(data), name)
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
