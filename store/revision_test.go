package store

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/compare"
)

// gitRepo makes a scratch git repository with three commits on branch
// main, the first tagged v1, and returns it with the commits' hashes,
// oldest first.
func gitRepo(t *testing.T) (dir string, commits []string) {
	t.Helper()
	dir = t.TempDir()
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t",
			"GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	git("init", "-q", "-b", "main")
	for i, msg := range []string{"one", "two", "three"} {
		if err := os.WriteFile(filepath.Join(dir, "f"), []byte(msg), 0o644); err != nil {
			t.Fatal(err)
		}
		git("add", "f")
		git("commit", "-qm", msg)
		commits = append(commits, git("rev-parse", "HEAD"))
		if i == 0 {
			git("tag", "v1")
		}
	}
	return dir, commits
}

// session returns the settings of an interleaved session of the versions
// old and new, of commits oldCommit and newCommit.
func session(old, new, oldCommit, newCommit string) map[string]string {
	return map[string]string{bench.SettingMode: bench.ModeInterleaved, bench.SettingOld: old, bench.SettingNew: new,
		bench.SettingOldCommit: oldCommit, bench.SettingNewCommit: newCommit}
}

func TestRevisions(t *testing.T) { eachBackend(t, testRevisions) }

// testRevisions resolves git revisions of a scratch repository to the
// newest complete result of their commits: a labelled result gathered, a
// session's version, a run with uncommitted changes only when nothing
// else measured the commit, and ids and labels before any revision.
func testRevisions(t *testing.T, open opener) {
	s, _ := open(t)
	repo, c := gitRepo(t)
	s.SetRepository(repo)
	keys := names(0, 2)
	// v1 (c[0]): two shards of label base, and a newer run that failed.
	base1 := put(t, s, stored{label: "base", commit: c[0], planned: keys, at: 0})
	base2 := put(t, s, stored{label: "base", commit: c[0], planned: keys, at: 1})
	put(t, s, stored{label: "broken", commit: c[0], planned: keys, at: 2, status: StatusFailed})
	// HEAD~1 (c[1]): a plain run, then a session of c[1] against c[2]
	// (HEAD), then an interrupted run.
	put(t, s, stored{commit: c[1], planned: keys, at: 3})
	sess := put(t, s, stored{label: "HEAD~1..HEAD", commit: c[2], planned: keys, at: 4, versions: []string{"HEAD~1", "HEAD"},
		settings: session("HEAD~1", "HEAD", c[1], c[2])})
	put(t, s, stored{commit: c[1], planned: keys, at: 5, status: StatusInterrupted})
	// HEAD with uncommitted changes, newer than the session.
	dirty := put(t, s, stored{label: "wip", commit: c[2], dirty: true, planned: keys, at: 6})

	for _, tc := range []struct {
		ref, id, label, ids string
	}{
		{"v1", base2, "base", base1 + "+" + base2},
		{"main~2", base2, "base", base1 + "+" + base2},
		{c[0][:7], base2, "base", base1 + "+" + base2},
		{"HEAD~1", sess, "HEAD~1", sess},
		{"HEAD", sess, "HEAD", sess},
		{strings.ToUpper(c[2][:10]), sess, "HEAD", sess},
		{"wip", dirty, "wip", dirty}, // a label, before any revision
		{"HEAD~1..HEAD", sess, "HEAD~1..HEAD", sess},
	} {
		id, err := s.Resolve(tc.ref)
		if err != nil || id != tc.id {
			t.Errorf("Resolve(%q) = %q, %v; want %s", tc.ref, id, err, tc.id)
			continue
		}
		r, ws, err := s.LoadRef(tc.ref)
		if err != nil {
			t.Errorf("LoadRef(%q): %v", tc.ref, err)
			continue
		}
		if len(ws) > 0 {
			t.Errorf("LoadRef(%q): warnings %v", tc.ref, ws)
		}
		if r.ID != tc.ids || r.Label != tc.label {
			t.Errorf("LoadRef(%q) = run %s labelled %q, want %s labelled %q", tc.ref, r.ID, r.Label, tc.ids, tc.label)
		}
		if vs := r.Versions(); tc.ref != "HEAD~1..HEAD" && len(vs) > 1 {
			t.Errorf("LoadRef(%q) holds versions %q, want one", tc.ref, vs)
		}
	}

	// Two revisions naming the sides of one session compare as it does.
	old, _, err := s.LoadRef("HEAD~1")
	if err != nil {
		t.Fatal(err)
	}
	new, _, err := s.LoadRef("HEAD")
	if err != nil {
		t.Fatal(err)
	}
	if !compare.Interleaved(old, new) {
		t.Errorf("HEAD~1 and HEAD are not the two versions of session %s", sess)
	}

	// Store copy names the runs of the result.
	ids, err := s.copyIDs("", []string{"v1"})
	if err != nil || !slices.Equal(ids, []string{base1, base2}) {
		t.Errorf("copyIDs(v1) = %v, %v; want %s and %s", ids, err, base1, base2)
	}

	for _, tc := range []struct {
		ref  string
		want []string
	}{
		{"nosuch", []string{"no run in", "nor a git revision of this repository", "labels: wip"}},
		{".", []string{"working tree"}},
	} {
		if _, err := s.Resolve(tc.ref); err == nil {
			t.Errorf("Resolve(%q) succeeded", tc.ref)
		} else {
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("Resolve(%q): %v; want it to say %q", tc.ref, err, w)
				}
			}
		}
	}
}

func TestRevisionCases(t *testing.T) { eachBackend(t, testRevisionCases) }

// testRevisionCases checks the revisions that name no result or more than
// one: a commit no run measured, one whose runs did not complete, one
// only measured with uncommitted changes (a warning), both versions of an
// A/A session, and a commit prefix that starts two stored commits, also
// outside any git repository.
func testRevisionCases(t *testing.T, open opener) {
	s, _ := open(t)
	repo, c := gitRepo(t)
	s.SetRepository(repo)
	keys := names(0, 1)
	interrupted := put(t, s, stored{label: "cut", commit: c[0], planned: keys, status: StatusInterrupted})
	wip := put(t, s, stored{label: "wip", commit: c[1], dirty: true, planned: keys, at: 1})
	put(t, s, stored{label: "aa", commit: c[2], planned: keys, at: 2, versions: []string{"x", "y"},
		settings: session("x", "y", c[2], c[2])})
	// Two commits that start alike, which the repository does not hold.
	a := put(t, s, stored{label: "a", commit: "abcdef0111" + strings.Repeat("0", 30), planned: keys, at: 3})
	put(t, s, stored{label: "b", commit: "abcdef0222" + strings.Repeat("0", 30), planned: keys, at: 4})

	for _, tc := range []struct {
		ref  string
		want []string
	}{
		{"main~2", []string{"commit " + c[0][:12], "no run in", "measured to the end: " + interrupted + " (interrupted)", "by id"}},
		{"main", []string{"both versions of session", "x and y"}},
		{"abcdef0", []string{"ambiguous commit prefix abcdef0", "abcdef011100 (run " + a + ", a)", "abcdef022200 (run "}},
	} {
		_, err := s.Resolve(tc.ref)
		if err == nil {
			t.Errorf("Resolve(%q) succeeded", tc.ref)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("Resolve(%q): %v; want it to say %q", tc.ref, err, w)
			}
		}
	}
	// A commit measured only with uncommitted changes: that run, and a
	// warning saying so.
	r, ws, err := s.LoadRef("main~1")
	if err != nil || r.ID != wip {
		t.Fatalf("LoadRef(main~1) = %v; want run %s", err, wip)
	}
	wantWarnings(t, ws, "uncommitted changes")

	// Outside a repository, commit prefixes resolve against the commits
	// the store records, and HEAD is nothing.
	s.SetRepository(t.TempDir())
	t.Setenv("GIT_CEILING_DIRECTORIES", filepath.Dir(t.TempDir()))
	if id, err := s.Resolve("abcdef01"); err != nil || id != a {
		t.Errorf("Resolve(abcdef01) outside a repository = %q, %v; want %s", id, err, a)
	}
	if _, err := s.Resolve("abcdef0"); err == nil || !strings.Contains(err.Error(), "ambiguous commit prefix") {
		t.Errorf("Resolve(abcdef0) outside a repository: %v; want it ambiguous", err)
	}
	if _, err := s.Resolve("HEAD"); err == nil || !strings.Contains(err.Error(), "no git repository here") {
		t.Errorf("Resolve(HEAD) outside a repository: %v; want it to say there is no repository", err)
	}
}
