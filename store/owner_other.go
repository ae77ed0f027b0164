//go:build !linux

package store

import (
	"errors"
	"os"
	"runtime"
	"syscall"
)

// processToken returns "": without /proc there is no portable way to tell
// a process from a later one with the same pid.
func processToken(pid int) string { return "" }

// processGone reports whether no process with the pid exists. Where
// signal 0 cannot probe a process (Windows), it reports false.
func processGone(pid int, token string) bool {
	if runtime.GOOS == "windows" {
		return false
	}
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	return errors.Is(p.Signal(syscall.Signal(0)), os.ErrProcessDone)
}
