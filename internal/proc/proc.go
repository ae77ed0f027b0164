// Package proc starts the child processes of mbench — test binaries, the go
// command, git — so that they die with it.
//
// A benchmark may start processes of its own, and a test binary or the go
// command may outlive a cancelled context if only its leader is killed. So
// each child runs in a process group of its own, which cancelling the
// context kills as a whole; on Linux the kernel also kills the child when
// mbench dies without a chance to clean up (kill -9). A process group of its
// own also keeps an interrupt typed at the terminal from reaching the child
// directly: mbench decides when its children stop, so that a cleanup is
// never cut short by the keystroke that asked for it.
package proc

import (
	"context"
	"os/exec"
	"time"
)

// WaitDelay bounds how long Wait waits for a child's output after the child
// was killed or exited: a grandchild that holds the output pipe open must
// not make Wait hang.
const WaitDelay = 5 * time.Second

// Command returns an exec.Cmd like exec.CommandContext's whose process runs
// in a group of its own: cancelling ctx kills the group, and Wait returns at
// most WaitDelay after the process ended even when a grandchild still holds
// its output open.
func Command(ctx context.Context, name string, arg ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, name, arg...)
	setGroup(cmd)
	cmd.Cancel = func() error { return Kill(cmd) }
	cmd.WaitDelay = WaitDelay
	return cmd
}

// Kill kills the process group of cmd, started by Command: its process and
// whatever that started. It may be called after Wait, to end grandchildren
// that outlived the process; it does nothing before Start.
func Kill(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	return killGroup(cmd)
}
