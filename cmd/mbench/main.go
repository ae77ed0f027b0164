// Command mbench makes Go microbenchmark results trustworthy, cheap and
// comparable. Run `mbench help` for the list of commands.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	os.Exit(mbench(os.Args[1:], os.Stdout, os.Stderr))
}

// interruptContext returns a context that the first interrupt (SIGINT,
// SIGTERM) cancels, so that a command stops cleanly and keeps what it has;
// a second exits at once, for a user who will not wait for the cleanup.
// stop ends the handling.
func interruptContext(stderr io.Writer) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM)
	done := make(chan struct{})
	go handleInterrupts(sigs, done, cancel, func() {
		fmt.Fprintln(stderr, "mbench: interrupted twice; exiting at once")
		os.Exit(exitError)
	})
	return ctx, func() {
		signal.Stop(sigs)
		close(done)
		cancel()
	}
}

// handleInterrupts calls cancel at the first signal from sigs and exit at
// the second, until done is closed.
func handleInterrupts(sigs <-chan os.Signal, done <-chan struct{}, cancel, exit func()) {
	for n := 0; ; n++ {
		select {
		case <-done:
			return
		case <-sigs:
			if n == 0 {
				cancel()
				continue
			}
			exit()
			return
		}
	}
}
