package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/mbench/mbench/ab"
	"github.com/mbench/mbench/run"
	"golang.org/x/sys/unix"
)

// progress reports a suite run's progress on stderr: a live line on a
// terminal, otherwise a line per suite run (and per fork with -v).
type progress struct {
	w        io.Writer
	terminal bool
	verbose  bool
	suite    int
	lastLen  int
}

func newProgress(w io.Writer, verbose bool) *progress {
	p := &progress{w: w, verbose: verbose}
	if f, ok := w.(*os.File); ok {
		_, err := unix.IoctlGetTermios(int(f.Fd()), unix.TCGETS)
		p.terminal = err == nil
	}
	return p
}

func (p *progress) update(s run.Progress) {
	eta := "?"
	if s.ETA > 0 {
		eta = s.ETA.Round(time.Second).String()
	}
	line := fmt.Sprintf("suite run %d, fork %d of at least %d, %s, elapsed %v, ETA %s",
		s.SuiteRun, s.Done+1, s.Planned, s.Target.Key, s.Elapsed.Round(time.Second), eta)
	switch {
	case p.terminal:
		pad := max(0, p.lastLen-len(line))
		fmt.Fprintf(p.w, "\r%s%*s", line, pad, "")
		p.lastLen = len(line)
	case p.verbose:
		fmt.Fprintln(p.w, "mbench:", line)
	case s.SuiteRun != p.suite:
		fmt.Fprintf(p.w, "mbench: suite run %d, %d forks done, elapsed %v, ETA %s\n", s.SuiteRun, s.Done, s.Elapsed.Round(time.Second), eta)
	}
	p.suite = s.SuiteRun
}

func (p *progress) done() {
	if p.terminal && p.lastLen > 0 {
		fmt.Fprintf(p.w, "\r%*s\r", p.lastLen, "")
	}
}

// abProgress reports an interleaved session's progress on a terminal: a
// live line with the round, the benchmark, the verdicts decided and the
// time left of the budget. Elsewhere it says nothing (-v logs the rounds).
func (p *progress) abProgress(s ab.Progress) {
	if !p.terminal {
		return
	}
	left := ""
	if s.Budget > 0 {
		left = fmt.Sprintf(", at most %v left", max(0, s.Budget-s.Elapsed).Round(time.Second))
	}
	line := fmt.Sprintf("round %d, benchmark %d of %d: %s; %d of %d decided; %v elapsed%s",
		s.Round, s.Index, s.Active, s.Benchmark, s.Decided, s.Total, s.Elapsed.Round(time.Second), left)
	pad := max(0, p.lastLen-len(line))
	fmt.Fprintf(p.w, "\r%s%*s", line, pad, "")
	p.lastLen = len(line)
}
