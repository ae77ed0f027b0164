//go:build !linux

package proc

import "os/exec"

// setGroup leaves cmd in mbench's process group where Linux's process
// attributes are not available.
func setGroup(cmd *exec.Cmd) {}

// killGroup kills cmd's process, which is all that setGroup's portable
// subset can reach.
func killGroup(cmd *exec.Cmd) error {
	return cmd.Process.Kill()
}
