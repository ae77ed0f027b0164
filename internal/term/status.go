package term

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// A Status is a line at the bottom of a terminal that says what a long
// command is doing: the time since it started, then the text of the last
// Set, rewritten in place. Lines written through it (log lines, warnings)
// go above it. Where it is not live (the output is no terminal, or the
// user asked for quiet) it shows nothing and passes what is written
// through. Its methods may be called from several goroutines.
type Status struct {
	mu    sync.Mutex
	w     io.Writer
	live  bool
	width int
	now   func() time.Time
	start time.Time
	text  string
	shown int // the columns of the line on the terminal, 0 when none

	stop chan struct{}
	done sync.WaitGroup
}

// Options describe where a Status writes.
type Options struct {
	// Terminal says the output is a terminal: only then is the line
	// shown.
	Terminal bool
	// Width is the terminal's width in columns: a longer line is cut so
	// that it never wraps, which would leave its first part behind. 0
	// is no limit.
	Width int
	// Now is the clock of the elapsed time; nil is time.Now.
	Now func() time.Time
}

// New returns a Status on w.
func New(w io.Writer, o Options) *Status {
	if o.Now == nil {
		o.Now = time.Now
	}
	return &Status{w: w, live: o.Terminal, width: o.Width, now: o.Now, start: o.Now()}
}

// Open returns a Status on w, live when w is a terminal and quiet is not
// set.
func Open(w io.Writer, quiet bool) *Status {
	live := !quiet && IsTerminal(w)
	o := Options{Terminal: live}
	if live {
		o.Width = width(w)
	}
	return New(w, o)
}

// Live reports whether s shows its line.
func (s *Status) Live() bool { return s.live }

// Set makes text the status and shows it.
func (s *Status) Set(text string) {
	if !s.live {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.text = text
	s.draw()
}

// Show returns a function that shows each value it is given as the
// status, for a library's progress callback.
func Show[T fmt.Stringer](s *Status) func(T) {
	return func(v T) { s.Set(v.String()) }
}

// Clear removes the line until the next Set, so that the terminal can
// show something else: the results of a command on its standard output.
func (s *Status) Clear() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.clear()
	s.text = ""
}

// Tick shows the line again with the time elapsed now.
func (s *Status) Tick() {
	if !s.live {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.text != "" {
		s.draw()
	}
}

// Start ticks every interval, until Done, so that the elapsed time moves
// while a long step reports nothing.
func (s *Status) Start(every time.Duration) {
	if !s.live || s.stop != nil {
		return
	}
	s.stop = make(chan struct{})
	s.done.Add(1)
	go func() {
		defer s.done.Done()
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-s.stop:
				return
			case <-t.C:
				s.Tick()
			}
		}
	}()
}

// Done stops the ticks and removes the line; s shows nothing more.
func (s *Status) Done() {
	if s.stop != nil {
		close(s.stop)
		s.done.Wait()
		s.stop = nil
	}
	s.Clear()
	s.live = false
}

// Write writes p above the line: the line is removed, p written, and the
// line shown again after p's last newline.
func (s *Status) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.clear()
	n, err := s.w.Write(p)
	if err == nil && s.live && s.text != "" && bytes.HasSuffix(p, []byte("\n")) {
		s.draw()
	}
	return n, err
}

// draw shows the line in place of the one shown. s.mu is held.
func (s *Status) draw() {
	line := Elapsed(s.now().Sub(s.start)) + "  " + s.text
	if i := strings.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	if s.width > 1 {
		line = cut(line, s.width-1)
	}
	n := utf8.RuneCountInString(line)
	fmt.Fprintf(s.w, "\r%s%s", line, strings.Repeat(" ", max(0, s.shown-n)))
	s.shown = n
}

// clear removes the line shown. s.mu is held.
func (s *Status) clear() {
	if s.shown > 0 {
		fmt.Fprintf(s.w, "\r%s\r", strings.Repeat(" ", s.shown))
		s.shown = 0
	}
}

// cut returns the first n runes of line, the last of them "…" when it
// is longer.
func cut(line string, n int) string {
	if utf8.RuneCountInString(line) <= n {
		return line
	}
	r := []rune(line)
	return string(r[:n-1]) + "…"
}

// Elapsed writes a duration as a clock does, to the second: "0:07",
// "12:30", "1:02:03".
func Elapsed(d time.Duration) string {
	sec := int64(max(0, d.Round(time.Second)) / time.Second)
	h, m, s := sec/3600, sec/60%60, sec%60
	if h > 0 {
		return fmt.Sprintf("%d:%02d:%02d", h, m, s)
	}
	return fmt.Sprintf("%d:%02d", m, s)
}
