// Package term is what mbench writes for a person at a terminal and
// nowhere else: a live status line, which tells what a long command is
// doing while it says nothing else, and the choice whether output may be
// coloured. A command's results and warnings do not depend on it: on a
// pipe, in a file or in a CI log the status line is silent and output is
// plain text.
//
// Libraries never write to the terminal; they report progress through
// callbacks, and the command turns those into the status line.
package term

import (
	"io"
	"os"

	"golang.org/x/sys/unix"
)

// IsTerminal reports whether w is a terminal.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	_, err := unix.IoctlGetTermios(int(f.Fd()), unix.TCGETS)
	return err == nil
}

// width returns the number of columns of the terminal w, or 0 when it is
// not known.
func width(w io.Writer) int {
	f, ok := w.(*os.File)
	if !ok {
		return 0
	}
	ws, err := unix.IoctlGetWinsize(int(f.Fd()), unix.TIOCGWINSZ)
	if err != nil {
		return 0
	}
	return int(ws.Col)
}

// Colour reports whether output to w may be coloured: w is a terminal,
// and the environment does not ask for plain text (NO_COLOR set to
// anything but "", as https://no-color.org asks; TERM=dumb).
func Colour(w io.Writer) bool {
	return colour(IsTerminal(w), os.Getenv)
}

// colour is Colour for an output that is a terminal or not, in the
// environment getenv reads.
func colour(terminal bool, getenv func(string) string) bool {
	return terminal && getenv("NO_COLOR") == "" && getenv("TERM") != "dumb"
}
