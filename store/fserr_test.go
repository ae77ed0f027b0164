package store

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mbench/mbench/bench"
)

// mount mounts a tmpfs of size (as mount -o size= reads it) on a new
// directory and returns it, unmounting it when the test ends. The test is
// skipped where this process may not mount: only root may, and not in a
// container that denies it the capability. Any other failure fails it.
func mount(t *testing.T, size string) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("only root may mount a file system")
	}
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size, "tmpfs", dir).CombinedOutput(); err != nil {
		if strings.Contains(strings.ToLower(string(out)), "permission denied") {
			t.Skipf("root may not mount a file system here: %s", bytes.TrimSpace(out))
		}
		t.Fatalf("mount a file system of %s: %v %s", size, err, out)
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", dir).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v %s", dir, err, out)
		}
	})
	return dir
}

// remountReadOnly makes the file system mounted on dir read-only.
func remountReadOnly(t *testing.T, dir string) {
	t.Helper()
	if out, err := exec.Command("mount", "-o", "remount,ro", dir).CombinedOutput(); err != nil {
		t.Fatalf("remount %s read-only: %v %s", dir, err, out)
	}
}

// sourceStore makes a store in dir holding one run with measurements, and
// returns its path and the run's id.
func sourceStore(t *testing.T, dir string) (string, string) {
	t.Helper()
	path := filepath.Join(dir, "src.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	id := store(t, s, &bench.Run{Label: "pr-1", Measurements: fullRun().Measurements}, StatusComplete)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	return path, id
}

// TestCopyFilesCreatesNothing checks that a copy that copies nothing
// leaves no store behind, nor the folders it would have made, and does not
// say that runs were copied.
func TestCopyFilesCreatesNothing(t *testing.T) {
	dir := t.TempDir()
	src, _ := sourceStore(t, dir)
	dst := filepath.Join(dir, "new", "dst.db")
	for _, tc := range []struct {
		label string
		refs  []string
		want  string
	}{
		{"", []string{"nosuchrun"}, `resolve "nosuchrun": no run in`},
		{"nosuchlabel", nil, `no run has label "nosuchlabel"`},
	} {
		var out strings.Builder
		err := CopyFiles(&out, src, dst, tc.label, tc.refs...)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "nothing copied") {
			t.Errorf("CopyFiles(%q, %q) = %v, want an error saying %q and that nothing was copied", tc.label, tc.refs, err, tc.want)
		}
		if err != nil && strings.Contains(err.Error(), "listed as copied") {
			t.Errorf("CopyFiles(%q, %q) = %v, which speaks of runs copied", tc.label, tc.refs, err)
		}
		if _, err := os.Stat(filepath.Dir(dst)); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("CopyFiles(%q, %q) created %s", tc.label, tc.refs, filepath.Dir(dst))
		}
	}
	// An empty store copies nothing, successfully, and creates nothing.
	empty := filepath.Join(dir, "empty.db")
	s, err := Open(empty)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	var out strings.Builder
	if err := CopyFiles(&out, empty, dst, ""); err != nil || out.String() != "0 runs copied (0 measurements), 0 skipped\n" {
		t.Errorf("CopyFiles of an empty store: %v, wrote %q", err, out.String())
	}
	if _, err := os.Stat(filepath.Dir(dst)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("CopyFiles of an empty store created %s", filepath.Dir(dst))
	}
}

// TestCopyFilesDiskFull copies into a file system too small for the run:
// the error says that the disk is full, and no empty store stays.
func TestCopyFilesDiskFull(t *testing.T) {
	src, _ := sourceStore(t, t.TempDir())
	small := mount(t, "48k")
	// Fill what the store's first pages leave, as a disk with other
	// files on it would be.
	fill, err := os.Create(filepath.Join(small, "fill"))
	if err != nil {
		t.Fatal(err)
	}
	fill.Write(make([]byte, 36<<10))
	fill.Close()
	dst := filepath.Join(small, "dst.db")
	var out strings.Builder
	err = CopyFiles(&out, src, dst, "")
	if err == nil || !strings.Contains(err.Error(), "the disk is full") {
		t.Fatalf("CopyFiles onto a full disk: %v, want it to say the disk is full", err)
	}
	if strings.Contains(err.Error(), "disk I/O error") || strings.Contains(err.Error(), "(13)") {
		t.Errorf("CopyFiles onto a full disk: %v, in SQLite's words", err)
	}
	for _, f := range Files(dst) {
		if _, err := os.Stat(f); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("CopyFiles onto a full disk left %s", f)
		}
	}
}

// TestReadOnlyFileSystem opens a store on a file system mounted read-only:
// the commands that read open it, those that write say why they cannot.
func TestReadOnlyFileSystem(t *testing.T) {
	dir := mount(t, "1m")
	path, id := sourceStore(t, dir)
	remountReadOnly(t, dir)
	s, err := OpenReadOnly(path)
	if err != nil {
		t.Fatalf("OpenReadOnly on a read-only file system: %v", err)
	}
	r, err := s.Load(id)
	if err != nil || len(r.Measurements) != len(fullRun().Measurements) {
		t.Errorf("Load on a read-only file system: %v", err)
	}
	s.Close()
	for _, p := range []string{path, filepath.Join(dir, "new.db")} {
		if _, err := Open(p); err == nil || !strings.Contains(err.Error(), p+" is on a read-only file system") {
			t.Errorf("Open(%s) on a read-only file system: %v, want it to say so", p, err)
		}
	}
}

// TestReadOnlyFolder opens a store in a folder this process may not
// write, as a user who is not root: the read-only open reads it, though
// SQLite cannot create the -shm file it reads through.
func TestReadOnlyFolder(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root writes any folder; TestReadOnlyFileSystem covers a read-only mount")
	}
	dir := filepath.Join(t.TempDir(), "ro")
	if err := os.Mkdir(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	path, id := sourceStore(t, dir)
	if err := os.Chmod(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(dir, 0o777) })
	s, err := OpenReadOnly(path)
	if err != nil {
		t.Fatalf("OpenReadOnly in a read-only folder: %v", err)
	}
	if _, err := s.Load(id); err != nil {
		t.Errorf("Load in a read-only folder: %v", err)
	}
	s.Close()
	if _, err := Open(path); err == nil || !strings.Contains(err.Error(), "the folder "+dir+" is read-only") {
		t.Errorf("Open in a read-only folder: %v, want it to say so", err)
	}
}
