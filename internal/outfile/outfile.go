// Package outfile writes the files mbench is asked to write (-o, -json)
// so that nothing the user has is destroyed by them.
//
// Check runs before a command starts its work. It refuses an output that
// is one of the command's own files, given as Protected: the result
// database and its -wal and -shm files, an input, a test binary being
// measured. Files are compared by identity (os.SameFile), so that another
// name of the same file (./s.db, a link) is caught and a different file of
// the same name is not; a path that does not exist yet can be none of
// them, unless it names one that does not exist yet either (a store the
// command is about to create). Check also refuses an output mbench could
// not write, by creating and removing a file beside it: a directory, a
// folder that does not exist, a file system that is read-only or, like
// /proc, takes no new files. A failed measurement of an hour is not the
// way to learn that.
//
// Create and Write write aside: to a new file in the output's directory,
// which is synced and renamed over the output only when everything was
// written and the file closed. A full disk, an error or an interrupt
// leaves the old output as it was, never truncated; the temporary file is
// removed (only a process killed outright leaves one, named
// .NAME.mbench-*.tmp). The new file keeps the permissions of the one it
// replaces; a new output gets 0666 less the umask, as os.Create gives it.
// A link is followed: the file it points to is replaced. An output that
// is not a regular file (a device such as /dev/null or /dev/stdout, a
// named pipe) has nothing to replace and is written directly. So is a
// stream (Stream) into a file that does not exist yet: what it wrote
// before a kill is then where the user looks for it.
package outfile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Protected is a file an output must not replace, and what it is to the
// command, for the error: "the result database", "the input old.txt".
type Protected struct {
	Path, What string
}

// A ConflictError is Check's error for an output that is a protected file.
type ConflictError struct {
	Path      string
	Protected Protected
}

func (e *ConflictError) Error() string {
	if filepath.Clean(e.Path) == filepath.Clean(e.Protected.Path) {
		return fmt.Sprintf("%s is %s: writing it would destroy it", e.Path, e.Protected.What)
	}
	return fmt.Sprintf("%s is the same file as %s, %s: writing it would destroy it", e.Path, e.Protected.Path, e.Protected.What)
}

// Check reports whether a command may write its output at path: nil
// when path is none of protected and a file can be made in its directory
// (see the package doc), an error naming path and the reason otherwise.
func Check(path string, protected ...Protected) error {
	if path == "" {
		return errors.New("no file name")
	}
	if strings.HasSuffix(path, "/") || strings.HasSuffix(path, string(filepath.Separator)) {
		return fmt.Errorf("%s names a directory, not a file", path)
	}
	fi, err := os.Stat(path)
	switch {
	case err == nil && fi.IsDir():
		return fmt.Errorf("%s is a directory", path)
	case err == nil && !fi.Mode().IsRegular():
		return nil // written directly; nothing to replace
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%s: %v", path, reason(err))
	}
	for _, p := range protected {
		if p.Path != "" && same(path, fi, p.Path) {
			return &ConflictError{Path: path, Protected: p}
		}
	}
	f, err := createTemp(target(path))
	if err != nil {
		return fmt.Errorf("%s: cannot write in %s: %v", path, dirName(path), reason(err))
	}
	f.Close()
	os.Remove(f.Name())
	return nil
}

// same reports whether the output path, whose os.Stat is fi (nil when it
// does not exist), is the file other: the same file when both exist, the
// same absolute path when neither does.
func same(path string, fi fs.FileInfo, other string) bool {
	ofi, err := os.Stat(other)
	switch {
	case fi != nil && err == nil:
		return os.SameFile(fi, ofi)
	case fi != nil || !errors.Is(err, fs.ErrNotExist):
		return false
	}
	a, errA := filepath.Abs(path)
	b, errB := filepath.Abs(other)
	return errA == nil && errB == nil && a == b
}

// dirName names the directory of path in messages.
func dirName(path string) string {
	if d := filepath.Dir(path); d != "." {
		return d
	}
	return "the current directory"
}

// reason is the error of a file operation without the file name, which
// the caller's message gives: "no space left on device", "read-only file
// system".
func reason(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}

// target is the file path names: the one a link points to, and path
// itself when it is no link or a link to nothing.
func target(path string) string {
	if t, err := filepath.EvalSymlinks(path); err == nil {
		return t
	}
	return path
}

// createTemp creates a new file beside path, with permissions 0666 less
// the umask (os.CreateTemp's 0600 would make the output private).
func createTemp(path string) (*os.File, error) {
	dir, base := filepath.Split(path)
	for range 100 {
		name := filepath.Join(dir, "."+base+".mbench-"+strconv.FormatUint(uint64(rand.Uint32()), 36)+".tmp")
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
		if !errors.Is(err, fs.ErrExist) {
			return f, err
		}
	}
	return nil, &fs.PathError{Op: "create", Path: path, Err: errors.New("no unused temporary name")}
}

// A File is an output being written: Commit puts it in place, Abort
// drops it.
type File struct {
	f       *os.File
	path    string // the output as the caller named it
	dest    string // what Commit replaces; "" when writing directly
	created bool   // written directly into a file Stream created
	done    bool
}

// Create starts writing the output at path: aside, unless path is not a
// regular file (see the package doc). The caller must call Commit or
// Abort; Abort after Commit does nothing, so a deferred Abort is safe.
func Create(path string) (*File, error) {
	if path == "" {
		return nil, errors.New("no file name")
	}
	dest := target(path)
	fi, err := os.Stat(dest)
	switch {
	case err == nil && fi.IsDir():
		return nil, fmt.Errorf("%s is a directory", path)
	case err == nil && !fi.Mode().IsRegular():
		f, err := os.OpenFile(dest, os.O_WRONLY, 0)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", path, reason(err))
		}
		return &File{f: f, path: path}, nil
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("%s: %v", path, reason(err))
	}
	f, err := createTemp(dest)
	if err != nil {
		return nil, fmt.Errorf("%s: cannot write in %s: %v", path, dirName(path), reason(err))
	}
	if fi != nil {
		if err := f.Chmod(fi.Mode().Perm()); err != nil {
			f.Close()
			os.Remove(f.Name())
			return nil, fmt.Errorf("%s: %v", path, reason(err))
		}
	}
	return &File{f: f, path: path, dest: dest}, nil
}

// Stream starts writing the output at path as a stream whose every line
// counts, such as the JSON Lines of a run: directly into the file when
// there is none at path yet, so that a process killed midway leaves what
// it wrote there, not in a temporary file; aside, as Create, when it
// would replace a file. Abort removes a file Stream created.
func Stream(path string) (*File, error) {
	if path == "" {
		return nil, errors.New("no file name")
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
	switch {
	case err == nil:
		return &File{f: f, path: path, created: true}, nil
	case errors.Is(err, fs.ErrExist):
		return Create(path)
	}
	return nil, fmt.Errorf("%s: %v", path, reason(err))
}

// Write writes p to the file.
func (f *File) Write(p []byte) (int, error) {
	n, err := f.f.Write(p)
	if err != nil {
		err = f.failed(err)
	}
	return n, err
}

// failed is the error err of writing the file, naming the output and
// saying that what was there before is kept.
func (f *File) failed(err error) error {
	if f.dest == "" {
		return fmt.Errorf("writing %s: %v", f.path, reason(err))
	}
	return fmt.Errorf("writing %s: %v (it is left as it was)", f.path, reason(err))
}

// Commit finishes the output: the file is synced, closed and renamed over
// the output, so that it is complete on disk before it replaces anything.
// After an error the output is as it was before Create.
func (f *File) Commit() error {
	if f.done {
		return errors.New("outfile: commit after commit or abort")
	}
	f.done = true
	if f.dest == "" {
		var err error
		if f.created {
			// A file of its own is synced, as one written aside is; a
			// device or a pipe has nothing to sync.
			err = f.f.Sync()
		}
		if cerr := f.f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return f.failed(err)
		}
		return nil
	}
	err := f.f.Sync()
	if cerr := f.f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.f.Name(), f.dest)
	}
	if err != nil {
		os.Remove(f.f.Name())
		return f.failed(err)
	}
	// The rename is durable once the directory is synced; where that
	// fails (some file systems refuse it) the file is written all the same.
	if d, err := os.Open(filepath.Dir(f.dest)); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

// Abort drops the output: the file written aside is removed and what was
// at the path stays. It does nothing after Commit.
func (f *File) Abort() {
	if f == nil || f.done {
		return
	}
	f.done = true
	f.f.Close()
	if f.dest != "" || f.created {
		os.Remove(f.f.Name())
	}
}

// Write writes the output at path with write, buffered, through Create and
// Commit: the output is replaced only when write and the commit succeed.
func Write(path string, write func(w io.Writer) error) error {
	f, err := Create(path)
	if err != nil {
		return err
	}
	defer f.Abort()
	bw := bufio.NewWriter(f)
	if err := write(bw); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	return f.Commit()
}

// WriteFile writes data to the output at path, as Write does.
func WriteFile(path string, data []byte) error {
	return Write(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}
