//go:build linux || darwin || freebsd

package store

import (
	"errors"
	"syscall"

	"golang.org/x/sys/unix"
)

// errReadOnlyFS is the error of writable on a read-only file system.
var errReadOnlyFS = syscall.EROFS

// writable returns nil when this process may write path, the reason
// otherwise (fs.ErrPermission, errReadOnlyFS), and nil when path does not
// exist: access(2) asks the kernel, which knows the mounts and the
// process's rights, root's included.
func writable(path string) error {
	err := unix.Access(path, unix.W_OK)
	if errors.Is(err, syscall.ENOENT) {
		return nil
	}
	return err
}

// freeSpace returns the bytes an unprivileged process may still write on
// the file system of dir.
func freeSpace(dir string) (uint64, bool) {
	var st unix.Statfs_t
	if err := unix.Statfs(dir, &st); err != nil {
		return 0, false
	}
	return uint64(st.Bavail) * uint64(st.Bsize), true
}
