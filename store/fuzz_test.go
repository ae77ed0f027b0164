package store

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/mbench/mbench/bench"
)

// FuzzResolve resolves any reference a user can type against a store of a
// few runs: it names one of them or fails, never another.
func FuzzResolve(f *testing.F) {
	s, err := Open(filepath.Join(f.TempDir(), "mbench.db"))
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { s.Close() })
	ids := make(map[string]string) // id -> label
	for _, r := range []bench.Run{{ID: "a1b2c3d4e5f6", Label: "main"}, {ID: "a1b2ffffffff", Label: "a1b2c3d4e5f6"},
		{ID: "0123456789ab", Label: "new"}, {ID: "fedcba987654", Label: "main"}, {ID: "ffff00000000"}} {
		if _, err := s.CreateRun(&r); err != nil {
			f.Fatal(err)
		}
		ids[r.ID] = r.Label
	}
	for _, ref := range []string{"latest", "main", "a1b2", "a1b2c", "a1b", "new", "", "fedcba987654", "%", "a1b2c3d4e5f6"} {
		f.Add(ref)
	}
	f.Fuzz(func(t *testing.T, ref string) {
		id, err := s.Resolve(ref)
		if err != nil {
			return
		}
		label, ok := ids[id]
		if !ok {
			t.Fatalf("Resolve(%q) = %q, not a run", ref, id)
		}
		if id != ref && ref != Latest && label != ref && !(len(ref) >= minPrefix && strings.HasPrefix(id, ref)) {
			t.Fatalf("Resolve(%q) = %q (label %q): neither its id, its label nor an id prefix", ref, id, label)
		}
	})
}
