package bench

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// ReadOptions bound what the readers take from one input. The readers
// stream: they hold one line at a time, and the measurements read so far,
// never the whole input, and stop at MaxBytes, so that a path given by
// mistake (/dev/zero, a disk image, a pipe that never ends) fails with an
// error naming it instead of exhausting memory.
//
// Lines have limits of their own, which are not options: a line of the Go
// benchmark format longer than 64 KiB less one byte (what
// golang.org/x/perf/benchfmt reads) and a JSON Lines record longer than
// 64 MiB are skipped with a warning, without being held.
type ReadOptions struct {
	// MaxBytes is the most bytes read from one input; an input that goes
	// on longer is an error (a *SizeError). Zero or less means the
	// default, DefaultMaxBytes.
	MaxBytes int64
}

// DefaultMaxBytes is the default ReadOptions.MaxBytes: 1 GiB, several
// times the largest result file a long run writes (a million iterations
// take some 300 MB of JSON Lines), yet small enough that reading a device
// by mistake fails within seconds.
const DefaultMaxBytes = 1 << 30

// DefaultReadOptions are the options of ReadFile, Read, ReadBenchfmt and
// ReadJSON.
var DefaultReadOptions = ReadOptions{MaxBytes: DefaultMaxBytes}

// maxBytes is o.MaxBytes, or its default.
func (o ReadOptions) maxBytes() int64 {
	if o.MaxBytes <= 0 {
		return DefaultMaxBytes
	}
	return o.MaxBytes
}

// A SizeError reports an input longer than ReadOptions.MaxBytes.
type SizeError struct {
	File string
	Max  int64
}

func (e *SizeError) Error() string {
	return fmt.Sprintf("%s: longer than %s, the most read from an input", e.File, FormatSize(e.Max))
}

// limit returns r capped at o's MaxBytes: it reads at most MaxBytes+1
// bytes from r, and fails with a *SizeError naming name when the last of
// them arrives.
func (o ReadOptions) limit(r io.Reader, name string) io.Reader {
	max := o.maxBytes()
	return &capReader{r: r, left: max, err: &SizeError{File: name, Max: max}}
}

// A capReader passes on at most left bytes of r, then fails with err when
// r has more.
type capReader struct {
	r    io.Reader
	left int64
	err  *SizeError
}

func (c *capReader) Read(p []byte) (int, error) {
	if c.left < 0 {
		return 0, c.err
	}
	// Ask for one byte more than may pass, to see whether r goes on.
	if int64(len(p)) > c.left+1 {
		p = p[:c.left+1]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	if c.left < 0 {
		return n - 1, c.err
	}
	return n, err
}

// sizeUnits are the suffixes ParseSize takes and FormatSize writes, largest
// first.
var sizeUnits = []struct {
	suffix string
	bytes  int64
}{
	{"TiB", 1 << 40}, {"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10},
	{"TB", 1e12}, {"GB", 1e9}, {"MB", 1e6}, {"kB", 1e3},
	{"B", 1},
}

// ParseSize parses a positive size in bytes: a whole number, optionally
// followed by a unit, binary (KiB, MiB, GiB, TiB) or decimal (kB, MB, GB,
// TB), such as "2GiB" or "500 MB".
func ParseSize(s string) (int64, error) {
	num := strings.TrimSpace(s)
	unit := int64(1)
	for _, u := range sizeUnits {
		if rest, ok := strings.CutSuffix(num, u.suffix); ok {
			num, unit = strings.TrimSpace(rest), u.bytes
			break
		}
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n <= 0 || strings.HasPrefix(num, "+") {
		return 0, fmt.Errorf("size %q: want a positive whole number of bytes, or one of KiB, MiB, GiB, TiB, kB, MB, GB, TB", s)
	}
	if n > math.MaxInt64/unit {
		return 0, errors.New("size " + strconv.Quote(s) + ": too large")
	}
	return n * unit, nil
}

// FormatSize writes n bytes in the largest binary unit that divides it:
// "1 GiB", "1536 KiB", "1000 bytes".
func FormatSize(n int64) string {
	for _, u := range sizeUnits {
		if strings.HasSuffix(u.suffix, "iB") && n >= u.bytes && n%u.bytes == 0 {
			return strconv.FormatInt(n/u.bytes, 10) + " " + u.suffix
		}
	}
	return strconv.FormatInt(n, 10) + " bytes"
}
