package gitrev

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestPath checks the paths of a history with a merge: the first-parent
// line, every commit, and the errors for revisions not in order.
func TestPath(t *testing.T) {
	dir := repo(t) // v1, v2 on the default branch
	rev := func(r string) string { return strings.TrimSpace(run(t, dir, "rev-parse", r)) }
	v1 := rev("HEAD~1")
	run(t, dir, "checkout", "-q", "-b", "side")
	write(t, filepath.Join(dir, "side.txt"), "s")
	run(t, dir, "add", ".")
	run(t, dir, "commit", "-q", "-m", "side one")
	run(t, dir, "checkout", "-q", "-")
	write(t, filepath.Join(dir, "sub", "v.txt"), "3")
	run(t, dir, "commit", "-q", "-am", "v3")
	run(t, dir, "merge", "-q", "--no-ff", "-m", "merge side", "side")
	subjects := func(p []Commit) []string {
		var s []string
		for _, c := range p {
			s = append(s, c.Subject)
		}
		return s
	}
	ctx := context.Background()
	sub := filepath.Join(dir, "sub")
	p, err := Path(ctx, sub, "HEAD~2", "HEAD", true)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := subjects(p), []string{"v2", "v3", "merge side"}; !slices.Equal(got, want) {
		t.Errorf("first-parent path %q, want %q", got, want)
	}
	if p[2].Short() != p[2].Hash[:12] || len(p[2].Parents) != 2 || p[0].Hash != rev("HEAD~2") {
		t.Errorf("path %+v", p)
	}
	p, err = Path(ctx, dir, v1, "HEAD", false)
	if err != nil {
		t.Fatal(err)
	}
	if got := subjects(p); len(got) != 5 || got[0] != "v1" || got[4] != "merge side" || !slices.Contains(got, "side one") {
		t.Errorf("path of every commit %q", got)
	}
	for _, bad := range [][2]string{{"HEAD", "HEAD~1"}, {"HEAD", "HEAD"}, {"nosuch", "HEAD"}, {"side", "HEAD~1"}} {
		if _, err := Path(ctx, dir, bad[0], bad[1], true); err == nil {
			t.Errorf("Path(%s, %s) succeeded", bad[0], bad[1])
		}
	}
	side, err := Side(ctx, dir, "HEAD")
	if err != nil || len(side) != 1 || side[0].Subject != "side one" {
		t.Errorf("Side(HEAD) = %+v, %v; want the commit side one", side, err)
	}
	if _, err := Side(ctx, dir, "HEAD~1"); err == nil {
		t.Errorf("Side of a commit with one parent succeeded")
	}
	if c, err := CommitOf(ctx, dir, "HEAD~1"); err != nil || c.Subject != "v3" {
		t.Errorf("CommitOf(HEAD~1) = %+v, %v", c, err)
	}
	// Path only reads: the working tree and the branch are as they were.
	if b, _ := os.ReadFile(filepath.Join(dir, "sub", "v.txt")); string(b) != "3" {
		t.Errorf("v.txt holds %q", b)
	}
}
