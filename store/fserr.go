package store

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"modernc.org/sqlite"
)

// SQLite result codes of the file system (primary codes) that explain
// turns into words.
const (
	sqliteReadOnly = 8
	sqliteIOErr    = 10
	sqliteFull     = 13
	sqliteCantOpen = 14
)

// fullBelow is the free space under which a failed write is put down to
// a full disk: a transaction of the store needs a few pages of the file
// and of the write-ahead log.
const fullBelow = 1 << 20

// A fileError is an error of SQLite on a store's file, said in words the
// user can act on; it wraps SQLite's.
type fileError struct {
	msg string
	err error
}

func (e *fileError) Error() string { return e.msg }
func (e *fileError) Unwrap() error { return e.err }

// explain returns err, an error of SQLite on the store file at path, in
// words when its cause is one the user can mend: the disk is full, or the
// file, its folder or its file system is read-only. SQLite's own words
// ("disk I/O error (4874)", "unable to open database file (14)") name
// neither. Other errors come back as they are.
func explain(path string, err error) error {
	var e *sqlite.Error
	if !errors.As(err, &e) {
		return err
	}
	code := e.Code() & 0xff
	if code != sqliteReadOnly && code != sqliteIOErr && code != sqliteFull && code != sqliteCantOpen {
		return err
	}
	if why := readOnly(path); why != "" {
		return &fileError{why, err}
	}
	dir := filepath.Dir(path)
	free, ok := freeSpace(dir)
	switch {
	case ok && free < fullBelow:
		return &fileError{fmt.Sprintf("the disk is full: %d kB left on the file system of %s", free/1024, dir), err}
	case code == sqliteFull:
		return &fileError{fmt.Sprintf("the disk is full (the file system of %s)", dir), err}
	}
	return err
}

// readOnly says why the store at path cannot be written, "" when it can
// be or the reason is not known: its file system is mounted read-only,
// its folder or the file is not writable.
func readOnly(path string) string {
	dir := filepath.Dir(path)
	switch err := writable(dir); {
	case errors.Is(err, errReadOnlyFS):
		return fmt.Sprintf("%s is on a read-only file system", path)
	case errors.Is(err, fs.ErrPermission):
		return fmt.Sprintf("the folder %s is read-only, and SQLite keeps files beside %s", dir, filepath.Base(path))
	}
	if err := writable(path); errors.Is(err, fs.ErrPermission) || errors.Is(err, errReadOnlyFS) {
		return fmt.Sprintf("%s is read-only", path)
	}
	return ""
}
