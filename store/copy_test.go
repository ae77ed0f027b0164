package store

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/mbench/mbench/bench"
)

// TestCopy copies runs between every pair of backends: the copies load
// exactly as the originals, keep their status and owner, and copying
// again skips them.
func TestCopy(t *testing.T) {
	for _, from := range backends {
		for _, to := range backends {
			t.Run(from.name+"-to-"+to.name, func(t *testing.T) {
				src, _ := from.open(t)
				dst, _ := to.open(t)
				testCopy(t, src, dst)
			})
		}
	}
}

func testCopy(t *testing.T, src, dst *Store) {
	full := fullRun()
	full.Benchmarks = []bench.Key{full.Measurements[0].Key}
	a := store(t, src, full, StatusComplete)
	b := store(t, src, &bench.Run{Label: "shard", Settings: map[string]string{bench.SettingShard: "1/2"}}, StatusFailed)
	c := store(t, src, &bench.Run{Label: "shard", Measurements: full.Measurements[:2]}, "")
	// A run already in dst, by id, is left alone.
	if _, err := dst.CreateRun(&bench.Run{ID: c, Label: "other"}); err != nil {
		t.Fatal(err)
	}

	got, err := CopyLabel(src, dst, "shard")
	if err != nil {
		t.Fatal(err)
	}
	want := []Copied{
		{ID: b, Label: "shard", Status: StatusFailed},
		{ID: c, Label: "shard", Status: StatusRunning, Measurements: 2, Skipped: true},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("CopyLabel(shard) = %+v, want %+v", got, want)
	}
	got, err = Copy(src, dst)
	if err != nil {
		t.Fatal(err)
	}
	want = []Copied{
		{ID: a, Label: full.Label, Status: StatusComplete, Measurements: len(full.Measurements)},
		{ID: b, Label: "shard", Status: StatusFailed, Skipped: true},
		{ID: c, Label: "shard", Status: StatusRunning, Measurements: 2, Skipped: true},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Copy(all) = %+v, want %+v", got, want)
	}
	var sb strings.Builder
	if err := WriteCopied(&sb, got, "DST"); err != nil {
		t.Fatal(err)
	}
	if s := sb.String(); !strings.Contains(s, fmt.Sprintf("1 runs copied (%d measurements), 2 skipped", len(full.Measurements))) ||
		!strings.Contains(s, "skipped "+c+" (shard): already in DST; it has 0 measurements there, 2 here") {
		t.Errorf("WriteCopied:\n%s", s)
	}

	for _, id := range []string{a, b} {
		w, err := src.Load(id)
		if err != nil {
			t.Fatal(err)
		}
		g, err := dst.Load(id)
		if err != nil {
			t.Fatal(err)
		}
		gn, gbits := normalize(g)
		wn, wbits := normalize(w)
		if !reflect.DeepEqual(gn, wn) || !reflect.DeepEqual(gbits, wbits) {
			t.Errorf("run %s differs after the copy:\ngot  %+v\nwant %+v", id, gn, wn)
		}
		ws, wo, err := src.statusOwner(src.db, id)
		if err != nil {
			t.Fatal(err)
		}
		gs, gotOwner, err := dst.statusOwner(dst.db, id)
		if err != nil {
			t.Fatal(err)
		}
		if gs != ws || !reflect.DeepEqual(gotOwner, wo) {
			t.Errorf("run %s: status and owner %s %+v after the copy, want %s %+v", id, gs, gotOwner, ws, wo)
		}
	}
	infos, err := dst.Runs()
	if err != nil {
		t.Fatal(err)
	}
	if len(infos) != 3 || infos[0].ID != a || infos[1].ID != b || infos[2].ID != c {
		t.Errorf("runs of the destination: %+v, want %s, %s, %s newest first", infos, a, b, c)
	}
	// The copies' benchmark keys and configurations are interned in dst:
	// a new run there shares them.
	id, err := dst.CreateRun(&bench.Run{Label: "after"})
	if err != nil {
		t.Fatal(err)
	}
	if err := dst.Append(id, full.Measurements...); err != nil {
		t.Fatal(err)
	}
	var keys int
	if err := dst.db.QueryRow("SELECT COUNT(*) FROM bench_keys").Scan(&keys); err != nil {
		t.Fatal(err)
	}
	if keys != 3 {
		t.Errorf("%d benchmark keys in the destination, want the 3 of the runs", keys)
	}

	if _, err := Copy(src, dst, "nosuchrun"); err == nil || !strings.Contains(err.Error(), "nosuchrun") {
		t.Errorf("Copy of an unknown run: err = %v", err)
	}
	if _, err := CopyLabel(src, dst, "nosuchlabel"); err == nil || !strings.Contains(err.Error(), "nosuchlabel") {
		t.Errorf("CopyLabel of an unknown label: err = %v", err)
	}
}

// TestCopyRunFinishing copies a run that another process appends to and
// finishes while the copy reads it: the copy is of one moment, a run still
// running with the measurements it had then, not a complete run that lacks
// its last measurements.
func TestCopyRunFinishing(t *testing.T) { eachBackend(t, testCopyRunFinishing) }

func testCopyRunFinishing(t *testing.T, open opener) {
	src, path := open(t)
	dst, _ := openTemp(t)
	full := fullRun()
	id := store(t, src, &bench.Run{Label: "shard", Measurements: full.Measurements[:2]}, "")
	other, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	copyRead = func() {
		if err := other.Append(id, full.Measurements[2]); err != nil {
			t.Error(err)
		}
		if err := other.Finish(id, full.End, StatusComplete); err != nil {
			t.Error(err)
		}
	}
	defer func() { copyRead = nil }()
	got, err := Copy(src, dst, id)
	if err != nil {
		t.Fatal(err)
	}
	want := []Copied{{ID: id, Label: "shard", Status: StatusRunning, Measurements: 2}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Copy = %+v, want %+v", got, want)
	}
	status, _, err := dst.statusOwner(dst.db, id)
	if err != nil {
		t.Fatal(err)
	}
	r, err := dst.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	if status != StatusRunning || len(r.Measurements) != 2 {
		t.Errorf("copy of run %s: %s with %d measurements, want %s with 2", id, status, len(r.Measurements), StatusRunning)
	}
}

// TestCopyLabelRef copies a label named among the runs: like Gather, it
// names every run with that label, not only the newest.
func TestCopyLabelRef(t *testing.T) {
	src, _ := openTemp(t)
	dst, _ := openTemp(t)
	a := store(t, src, &bench.Run{Label: "pr-42", Settings: map[string]string{bench.SettingShard: "1/2"}}, StatusComplete)
	b := store(t, src, &bench.Run{Label: "main"}, StatusComplete)
	c := store(t, src, &bench.Run{Label: "pr-42", Settings: map[string]string{bench.SettingShard: "2/2"}}, StatusComplete)
	got, err := Copy(src, dst, "pr-42", b)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, c := range got {
		ids = append(ids, c.ID)
	}
	if want := []string{a, c, b}; !reflect.DeepEqual(ids, want) {
		t.Errorf("Copy(pr-42, %s) copied %v, want %v", b, ids, want)
	}
}

// TestCopyFiles copies between two SQLite files by name, as mbench store
// copy does, and checks its bad inputs.
func TestCopyFiles(t *testing.T) {
	dir := t.TempDir()
	srcPath, dstPath := dir+"/src.db", dir+"/dst.db"
	src, err := Open(srcPath)
	if err != nil {
		t.Fatal(err)
	}
	id := store(t, src, &bench.Run{Label: "pr-1", Measurements: fullRun().Measurements[:2]}, StatusComplete)
	src.Close()

	var out strings.Builder
	if err := CopyFiles(&out, srcPath, dstPath, "pr-1"); err != nil {
		t.Fatal(err)
	}
	if want := "copied  " + id + " (pr-1): complete, 2 measurements\n1 runs copied (2 measurements), 0 skipped\n"; out.String() != want {
		t.Errorf("CopyFiles wrote %q, want %q", out.String(), want)
	}
	out.Reset()
	if err := CopyFiles(&out, srcPath, dstPath, ""); err != nil || !strings.Contains(out.String(), "skipped "+id) {
		t.Errorf("CopyFiles again: %v, wrote %q, want the run skipped", err, out.String())
	}
	if err := CopyFiles(&out, dir+"/none.db", dstPath, ""); err == nil || !strings.Contains(err.Error(), "no result database at "+dir+"/none.db") {
		t.Errorf("CopyFiles from a missing file: err = %v", err)
	}
	if err := CopyFiles(&out, srcPath, dstPath, "pr-1", id); err == nil {
		t.Error("CopyFiles with a label and a run: no error")
	}
}
