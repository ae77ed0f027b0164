package main

import (
	"cmp"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/mbench/mbench/store"
)

// defaultDB is where results are stored unless -db says otherwise: the
// value of the environment variable MBENCH_DB when it is set (a path or a
// postgres:// URL, so that every shard of a CI job writes to one shared
// store without repeating -db), .mbench/mbench.db otherwise.
var defaultDB = cmp.Or(os.Getenv("MBENCH_DB"), localDB)

// localDB is the result database of a working directory.
const localDB = ".mbench/mbench.db"

// noiseDir is the directory in which doctor -noise keeps this machine's
// noise and run reads it, for the result database db: beside its file,
// or, for a PostgreSQL store, which many machines may share, beside the
// working directory's own database.
func noiseDir(db string) string {
	return cmp.Or(store.Dir(db), filepath.Dir(localDB))
}

// hideDBPassword makes the help of fs show the default of its -db flag, a
// PostgreSQL URL that MBENCH_DB may set, without the password.
func hideDBPassword(fs *flag.FlagSet) {
	if f := fs.Lookup("db"); f != nil {
		f.DefValue = store.Redact(f.DefValue)
	}
}

// openDB opens the result database at path, creating its directory, or
// the PostgreSQL store a postgres:// URL names. It fails before anything
// is measured when the server cannot be reached or is no store.
func openDB(path string) (*store.Store, error) {
	return store.Open(path) // which creates the directories on the way
}

// prefixWriter prefixes "mbench: " to what it is given, one line at a time.
type prefixWriter struct{ w io.Writer }

func (p prefixWriter) Write(b []byte) (int, error) {
	fmt.Fprintf(p.w, "mbench: %s", b)
	return len(b), nil
}
