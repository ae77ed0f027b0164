//go:build !(linux || darwin || freebsd)

package store

import "errors"

// errReadOnlyFS is never returned where read-only file systems cannot be
// told apart.
var errReadOnlyFS = errors.New("read-only file system")

// writable is unknown here: nil.
func writable(string) error { return nil }

// freeSpace is unknown here.
func freeSpace(string) (uint64, bool) { return 0, false }
