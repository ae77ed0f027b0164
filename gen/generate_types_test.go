package gen

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// typesSource is a package whose segments read values of other
// packages' types: structs with unexported fields, and interfaces
// holding types of the package, of other packages, unexported types an
// exported variable holds, and types nothing names; and a struct whose
// func field no test sets.
const typesSource = `package types

import (
	"bytes"
	"encoding/binary"
	"fmt"
)

// Celsius is a temperature.
type Celsius float64

func (c Celsius) String() string { return fmt.Sprint(float64(c)) + "C" }

// Lengths adds the lengths of the strings of vs.
func Lengths(vs []fmt.Stringer) int {
	n := 0
	//mbench:bench Lengths
	for _, v := range vs {
		n += len(v.String())
	}
	return n
}

// Spaces counts the spaces in buf.
func Spaces(buf *bytes.Buffer) int {
	n := 0
	//mbench:bench Spaces
	for _, c := range buf.Bytes() {
		if c == ' ' {
			n++
		}
	}
	return n
}

// Words decodes 16-bit words of b in order.
func Words(b []byte, order binary.ByteOrder) []uint16 {
	var out []uint16
	//mbench:bench Words
	for i := 0; i+1 < len(b); i += 2 {
		out = append(out, order.Uint16(b[i:]))
	}
	return out
}

// Counter counts, and calls its hook, which no test sets.
type Counter struct {
	N    int
	hook func(int)
}

// Count adds the positive xs to c.
func Count(c *Counter, xs []int) {
	//mbench:bench Hooked
	for _, x := range xs {
		if x > 0 {
			c.N++
			if c.hook != nil {
				c.hook(c.N)
			}
		}
	}
}

// Failed counts the errors in errs.
func Failed(errs []error) int {
	n := 0
	//mbench:bench Failed
	for _, err := range errs {
		if err != nil {
			n++
		}
	}
	return n
}
`

const typesTest = `package types

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/big"
	"testing"
)

func TestTypes(t *testing.T) {
	if Lengths([]fmt.Stringer{Celsius(2), big.NewInt(123)}) != 5 {
		t.Error("Lengths")
	}
	if Spaces(bytes.NewBufferString("a b c")) != 2 {
		t.Error("Spaces")
	}
	if w := Words([]byte{1, 2}, binary.BigEndian); w[0] != 0x102 {
		t.Error("Words")
	}
	c := &Counter{}
	Count(c, []int{1, -1, 2})
	if c.N != 2 {
		t.Error("Count")
	}
	if Failed([]error{nil, errors.New("x")}) != 1 {
		t.Error("Failed")
	}
}
`

// TestGenerateTypes generates benchmarks end to end for segments that
// read values of other packages' types, and checks which the recording
// could rebuild: the regression tests of the generated ones pass, and an
// interface holding a type the generated code cannot name rejects its
// segment, naming the type.
func TestGenerateTypes(t *testing.T) {
	if testing.Short() {
		t.Skip("records, builds and runs generated code")
	}
	dir := t.TempDir()
	write(t, filepath.Join(dir, "go.mod"), "module example.com/types\n\ngo 1.24\n")
	write(t, filepath.Join(dir, "types.go"), typesSource)
	write(t, filepath.Join(dir, "types_test.go"), typesTest)
	res, err := Generate(context.Background(), Options{Dir: dir, Patterns: []string{"./..."}})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"Lengths": "",
		"Spaces":  "",
		"Words":   "",
		"Hooked":  "",
		"Failed":  "reads a value that cannot be recorded: no execution the tests made (1) can be rebuilt: an input holds a value of type errors.errorString: an unexported type of another package",
	}
	for _, s := range res.Segments {
		got := string(s.Reason)
		if s.Reason != Accepted {
			got += ": " + s.Detail
		}
		if got != want[s.Name] {
			t.Errorf("%s: %s, want %s", s.Name, got, want[s.Name])
		}
	}
	gen, err := os.ReadFile(filepath.Join(dir, GeneratedFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, reg := range []string{"(*Celsius)(nil)", "(*big.Int)(nil)", "&binary.BigEndian"} {
		if !strings.Contains(string(gen), reg) {
			t.Errorf("the generated file does not register %s", reg)
		}
	}
	cmd := exec.Command("go", "test", "-count=1", "-run", "^TestMbench", "-v", ".")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil || strings.Count(string(out), "--- PASS: TestMbench") != 4 {
		t.Errorf("regression tests of the generated file: %v\n%s", err, out)
	}
}
