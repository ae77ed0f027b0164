package main

import (
	"fmt"
	"io"

	"github.com/mbench/mbench/store"
)

// defaultDB is where results are stored unless -db says otherwise.
const defaultDB = ".mbench/mbench.db"

// openDB opens the result database at path, creating its directory.
func openDB(path string) (*store.Store, error) {
	return store.Open(path) // which creates the directories on the way
}

// prefixWriter prefixes "mbench: " to what it is given, one line at a time.
type prefixWriter struct{ w io.Writer }

func (p prefixWriter) Write(b []byte) (int, error) {
	fmt.Fprintf(p.w, "mbench: %s", b)
	return len(b), nil
}
