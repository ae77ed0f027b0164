package outfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o640); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestCheckProtected checks that an output is refused when it is a
// protected file under any name, and accepted when it is another file.
func TestCheckProtected(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	writeFile(t, "s.db", "store")
	writeFile(t, "other.txt", "x")
	if err := os.Mkdir("sub", 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "s.db"), "link.db"); err != nil {
		t.Fatal(err)
	}
	if err := os.Link("s.db", filepath.Join("sub", "hard.db")); err != nil {
		t.Fatal(err)
	}
	db := Protected{"s.db", "the result database"}
	wal := Protected{"s.db-wal", "the result database's log"}
	for _, tc := range []struct {
		path string
		want string // "" for no error
	}{
		{"s.db", "s.db is the result database"},
		{"./s.db", "./s.db is the result database"},
		{filepath.Join(dir, "s.db"), "is the same file as s.db"},
		{"link.db", "link.db is the same file as s.db"},
		{"sub/hard.db", "sub/hard.db is the same file as s.db"},
		{"sub/../s.db", "sub/../s.db is the result database"},
		// Neither exists: the same path is the same file to be.
		{"./s.db-wal", "./s.db-wal is the result database's log"},
		{"other.txt", ""},
		{"new.txt", ""},
		{"sub/s.db", ""},
	} {
		err := Check(tc.path, db, wal)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("Check(%q) = %v, want nil", tc.path, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("Check(%q) = %v, want an error containing %q", tc.path, err, tc.want)
		case tc.want != "" && !errors.As(err, new(*ConflictError)):
			t.Errorf("Check(%q) = %v, not a *ConflictError", tc.path, err)
		}
	}
	if got := readFile(t, "s.db"); got != "store" {
		t.Errorf("s.db holds %q after the checks", got)
	}
	if ents, _ := os.ReadDir("."); len(ents) != 4 {
		t.Errorf("the checks left files: %v", ents)
	}
}

// TestCheckUnwritable checks that an output that cannot be written is
// refused before any work, naming the reason.
func TestCheckUnwritable(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "file"), "")
	for _, tc := range []struct{ path, want string }{
		{dir, "is a directory"},
		{dir + "/", "names a directory"},
		{filepath.Join(dir, "missing", "x.txt"), "cannot write in " + filepath.Join(dir, "missing") + ": no such file or directory"},
		{filepath.Join(dir, "file", "x.txt"), "not a directory"},
		{"/proc/x.txt", "cannot write in /proc"},
		{"", "no file name"},
	} {
		if err := Check(tc.path); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Check(%q) = %v, want an error containing %q", tc.path, err, tc.want)
		}
	}
	// Devices are written directly.
	if err := Check(os.DevNull, Protected{os.DevNull, "an input"}); err != nil {
		t.Errorf("Check(%s) = %v", os.DevNull, err)
	}
}

// TestWriteReplaces checks that Write replaces a file whole, keeping its
// permissions, and writes through a link to the file it points to.
func TestWriteReplaces(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out.txt")
	writeFile(t, out, "old contents, longer than the new")
	if err := os.Chmod(out, 0o640); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.txt")
	if err := os.Symlink(out, link); err != nil {
		t.Fatal(err)
	}
	if err := Write(link, func(w io.Writer) error { _, err := io.WriteString(w, "new"); return err }); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, out); got != "new" {
		t.Errorf("out.txt holds %q, want %q", got, "new")
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("link.txt is no longer a link: %v %v", fi.Mode(), err)
	}
	if fi, _ := os.Stat(out); fi.Mode().Perm() != 0o640 {
		t.Errorf("out.txt has mode %v, want 0640 as before", fi.Mode().Perm())
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 2 {
		t.Errorf("Write left files: %v", ents)
	}
}

// TestWriteFailureKeepsOld checks that a failed write leaves the old file
// as it was and removes what it wrote aside.
func TestWriteFailureKeepsOld(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "report.html")
	writeFile(t, out, "a good report")
	boom := errors.New("boom")
	err := Write(out, func(w io.Writer) error {
		io.WriteString(w, strings.Repeat("half a report ", 1000))
		return boom
	})
	if !errors.Is(err, boom) {
		t.Errorf("Write = %v, want %v", err, boom)
	}
	if got := readFile(t, out); got != "a good report" {
		t.Errorf("report.html holds %q after a failed write", got)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("a failed Write left files: %v", ents)
	}
}

// TestWriteDiskFull checks that an error of the disk comes back in
// words, naming the output. /dev/full, a device whose every write fails
// with ENOSPC, stands in for a full disk (as a device it is written
// directly; TestWriteFailureKeepsOld covers a failure of a file written
// aside).
func TestWriteDiskFull(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full")
	}
	err := Write("/dev/full", func(w io.Writer) error { _, err := io.WriteString(w, "x"); return err })
	if !errors.Is(err, syscall.ENOSPC) && (err == nil || !strings.Contains(err.Error(), "no space left on device")) {
		t.Errorf("Write(/dev/full) = %v, want no space left on device", err)
	}
	if err == nil || !strings.Contains(err.Error(), "/dev/full") {
		t.Errorf("Write(/dev/full) = %v, want it to name /dev/full", err)
	}
}

// TestCreateNewFileMode checks that a new output gets the permissions
// os.Create gives, not os.CreateTemp's 0600.
func TestCreateNewFileMode(t *testing.T) {
	dir := t.TempDir()
	ref, err := os.Create(filepath.Join(dir, "ref"))
	if err != nil {
		t.Fatal(err)
	}
	ref.Close()
	f, err := Create(filepath.Join(dir, "new"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Abort()
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	want, _ := os.Stat(filepath.Join(dir, "ref"))
	got, _ := os.Stat(filepath.Join(dir, "new"))
	if got.Mode() != want.Mode() {
		t.Errorf("new output has mode %v, os.Create gives %v", got.Mode(), want.Mode())
	}
}

// TestAbort checks that an aborted output leaves nothing, and the old
// file untouched.
func TestAbort(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "s.jsonl")
	writeFile(t, out, "kept")
	f, err := Create(out)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write([]byte("stream")); err != nil {
		t.Fatal(err)
	}
	f.Abort()
	f.Abort()
	if got := readFile(t, out); got != "kept" {
		t.Errorf("s.jsonl holds %q after Abort", got)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("Abort left files: %v", ents)
	}
	if err := f.Commit(); err == nil {
		t.Error("Commit after Abort succeeded")
	}
}

// TestStream checks that a stream goes straight into a new file, so that
// what it wrote is there before it ends, and aside when it would replace
// one; an aborted stream leaves neither.
func TestStream(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "new.jsonl")
	f, err := Stream(out)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write([]byte("line 1\n")); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, out); got != "line 1\n" {
		t.Errorf("a stream into a new file holds %q before it ends", got)
	}
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	// Into an existing file: aside, the old file whole until the end.
	f, err = Stream(out)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("line A\n"))
	if got := readFile(t, out); got != "line 1\n" {
		t.Errorf("a stream replacing a file changed it to %q before it ended", got)
	}
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, out); got != "line A\n" {
		t.Errorf("after the stream: %q", got)
	}
	// Aborted, a new stream leaves no file.
	other := filepath.Join(dir, "other.jsonl")
	if f, err = Stream(other); err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("x\n"))
	f.Abort()
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("files after an aborted stream: %v", ents)
	}
}
