package term

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// clock is a fake clock that moves only when told.
type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

// screen plays what was written to a terminal and returns its lines as
// they look: "\r" returns to the start of the line, and text overwrites
// what is there.
func screen(out string) []string {
	var lines []string
	var line []rune
	col := 0
	for _, r := range out {
		switch r {
		case '\n':
			lines = append(lines, strings.TrimRight(string(line), " "))
			line, col = nil, 0
		case '\r':
			col = 0
		default:
			if col < len(line) {
				line[col] = r
			} else {
				line = append(line, r)
			}
			col++
		}
	}
	return append(lines, strings.TrimRight(string(line), " "))
}

// TestStatus drives a live line on a fake terminal: it is rewritten in
// place with the elapsed time, log lines go above it, a shorter line
// leaves nothing of a longer one, and Done removes it.
func TestStatus(t *testing.T) {
	var out bytes.Buffer
	c := &clock{time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	s := New(&out, Options{Terminal: true, Now: c.now})
	s.Set("building example.com/m")
	c.t = c.t.Add(7 * time.Second)
	s.Tick()
	if got, want := screen(out.String()), []string{"0:07  building example.com/m"}; !slices.Equal(got, want) {
		t.Errorf("after a tick the terminal shows %q, want %q", got, want)
	}
	fmt.Fprintf(s, "mbench: a log line\n")
	c.t = c.t.Add(65 * time.Second)
	Show[time.Duration](s)(3 * time.Second)
	if got, want := screen(out.String()), []string{"mbench: a log line", "1:12  3s"}; !slices.Equal(got, want) {
		t.Errorf("after a log line the terminal shows %q, want %q", got, want)
	}
	s.Clear()
	fmt.Fprintf(s, "results\n")
	if got, want := screen(out.String()), []string{"mbench: a log line", "results", ""}; !slices.Equal(got, want) {
		t.Errorf("after Clear the terminal shows %q, want %q", got, want)
	}
	s.Set("again")
	s.Done()
	if got, want := screen(out.String()), []string{"mbench: a log line", "results", ""}; !slices.Equal(got, want) {
		t.Errorf("after Done the terminal shows %q, want %q", got, want)
	}
	n := out.Len()
	s.Set("after Done")
	s.Tick()
	if out.Len() != n {
		t.Errorf("a Status that is done wrote %q", out.String()[n:])
	}
}

// TestStatusNotTerminal checks that a Status that is not live writes
// nothing of its own and passes log lines through unchanged.
func TestStatusNotTerminal(t *testing.T) {
	var out bytes.Buffer
	s := New(&out, Options{Terminal: false})
	s.Set("fork 1")
	s.Tick()
	fmt.Fprintf(s, "mbench: a log line\n")
	s.Done()
	if got, want := out.String(), "mbench: a log line\n"; got != want {
		t.Errorf("output %q, want %q", got, want)
	}
	if s.Live() {
		t.Error("a Status on no terminal is live")
	}
}

// TestStatusWidth checks that a line longer than the terminal is cut
// short of its last column, so that it never wraps.
func TestStatusWidth(t *testing.T) {
	var out bytes.Buffer
	c := &clock{}
	s := New(&out, Options{Terminal: true, Width: 20, Now: c.now})
	s.Set("benchmark µ" + strings.Repeat("x", 40))
	got := screen(out.String())
	if len(got) != 1 || got[0] != "0:00  benchmark µx…" {
		t.Errorf("terminal shows %q, want one line of 19 columns", got)
	}
}

func TestElapsed(t *testing.T) {
	for _, c := range []struct {
		d    time.Duration
		want string
	}{
		{0, "0:00"},
		{-time.Second, "0:00"},
		{1499 * time.Millisecond, "0:01"},
		{59*time.Second + 600*time.Millisecond, "1:00"},
		{12*time.Minute + 30*time.Second, "12:30"},
		{time.Hour + 2*time.Minute + 3*time.Second, "1:02:03"},
	} {
		if got := Elapsed(c.d); got != c.want {
			t.Errorf("Elapsed(%v) = %q, want %q", c.d, got, c.want)
		}
	}
}

func TestColour(t *testing.T) {
	env := func(vars ...string) func(string) string {
		return func(k string) string {
			for i := 0; i+1 < len(vars); i += 2 {
				if vars[i] == k {
					return vars[i+1]
				}
			}
			return ""
		}
	}
	for _, c := range []struct {
		terminal bool
		env      []string
		want     bool
	}{
		{true, nil, true},
		{true, []string{"TERM", "xterm-256color"}, true},
		{false, nil, false},
		{true, []string{"NO_COLOR", "1"}, false},
		{true, []string{"NO_COLOR", ""}, true}, // set but empty: no-color.org leaves colour on
		{true, []string{"TERM", "dumb"}, false},
	} {
		if got := colour(c.terminal, env(c.env...)); got != c.want {
			t.Errorf("colour(terminal %v, %q) = %v, want %v", c.terminal, c.env, got, c.want)
		}
	}
	var buf bytes.Buffer
	if Colour(&buf) || IsTerminal(&buf) {
		t.Error("a buffer is taken for a terminal")
	}
}
