package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/mbench/mbench/store"
)

// defaultDB is where results are stored unless -db says otherwise.
const defaultDB = ".mbench/mbench.db"

// openDB opens the result database at path, creating its directory.
func openDB(path string) (*store.Store, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o777); err != nil {
		return nil, err
	}
	return store.Open(path)
}

// prefixWriter prefixes "mbench: " to what it is given, one line at a time.
type prefixWriter struct{ w io.Writer }

func (p prefixWriter) Write(b []byte) (int, error) {
	fmt.Fprintf(p.w, "mbench: %s", b)
	return len(b), nil
}
