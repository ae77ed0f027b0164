package proc

import (
	"errors"
	"os/exec"
	"syscall"
)

// setGroup puts cmd's process in a new process group and has the kernel
// kill it when mbench dies. Pdeathsig fires when the thread that started the
// child exits; the Go runtime does not end threads while the program runs,
// except a locked one whose goroutine exits, which StartPinned avoids.
func setGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

func killGroup(cmd *exec.Cmd) error {
	err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	if errors.Is(err, syscall.ESRCH) {
		return nil // the group has ended
	}
	return err
}
