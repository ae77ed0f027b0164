package gen

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// globalsSource decodes words in a byte order that a package-level
// variable holds and the tests switch, as bitset does.
const globalsSource = `package order

import "encoding/binary"

var byteOrder binary.ByteOrder = binary.BigEndian

// Little switches to little-endian words.
func Little() { byteOrder = binary.LittleEndian }

// Big switches to big-endian words.
func Big() { byteOrder = binary.BigEndian }

// table is only read.
var table = []uint16{1, 2, 3}

// Words decodes the 16-bit words of b in the current byte order.
func Words(b []byte) []uint16 {
	var out []uint16
	//mbench:bench Words
	for i := 0; i+1 < len(b); i += 2 {
		out = append(out, byteOrder.Uint16(b[i:])+table[0])
	}
	return out
}
`

const globalsTest = `package order

import (
	"encoding/binary"
	"testing"
)

func TestWords(t *testing.T) {
	Little()
	defer Big()
	if w := Words([]byte{1, 2}); w[0] != 0x201+1 {
		t.Errorf("Words: %#x", w[0])
	}
}

// TestRestored runs after the generated tests: they give the byte order
// back.
func TestRestored(t *testing.T) {
	if byteOrder != binary.BigEndian {
		t.Error("the byte order was left little-endian")
	}
}
`

// TestGenerateGlobals checks that the package-level state a segment reads
// is recorded with its inputs and restored for its benchmark and
// regression test, and given back afterwards: the tests decode words
// little-endian, the benchmark must too. A package-level variable no
// function assigns is read where it is.
func TestGenerateGlobals(t *testing.T) {
	if testing.Short() {
		t.Skip("records, builds and runs generated code")
	}
	dir := t.TempDir()
	write(t, filepath.Join(dir, "go.mod"), "module example.com/order\n\ngo 1.24\n")
	write(t, filepath.Join(dir, "order.go"), globalsSource)
	write(t, filepath.Join(dir, "order_test.go"), globalsTest)
	res, err := Generate(context.Background(), Options{Dir: dir, Patterns: []string{"./..."}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Segments) != 1 || res.Segments[0].Reason != Accepted {
		t.Fatalf("segments %v", res.Segments)
	}
	s := res.Segments[0]
	if len(s.Globals) != 1 || s.Globals[0].Name != "byteOrder" {
		t.Errorf("globals %v, want byteOrder alone", s.Globals)
	}
	data, err := os.ReadFile(recordedFile(s))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"name": "order.byteOrder", "type": "encoding/binary.ByteOrder", "value": {"$type":"encoding/binary.littleEndian","$v":{}}}`
	if !strings.Contains(string(data), want) {
		t.Errorf("recorded sets lack %s:\n%s", want, data)
	}
	cmd := exec.Command("go", "test", "-count=1", "-v", "-run", "^TestMbenchWords$|^TestRestored$", "-bench", "^BenchmarkWords$", "-benchtime", "10x", ".")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: TestMbenchWords") || !strings.Contains(string(out), "--- PASS: TestRestored") {
		t.Errorf("generated tests: %v\n%s", err, out)
	}
}
