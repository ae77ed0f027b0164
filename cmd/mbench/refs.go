package main

import (
	"errors"
	"io/fs"
	"os"

	"github.com/mbench/mbench/store"
)

// A storedRef is the value of a flag that names a stored run (-resume,
// -shard-basis), or, when file is set, a results file instead.
type storedRef struct {
	flag, ref string
	file      bool
}

// checkRefs checks, before anything is built or measured, that the flags'
// references name what they must: a usage error naming the flag when one
// names neither a file (where one may stand) nor a run in db. An empty
// reference, a flag not given, passes.
func checkRefs(db *store.Store, refs ...storedRef) error {
	for _, r := range refs {
		if r.ref == "" {
			continue
		}
		if _, err := os.Stat(r.ref); r.file && !errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if _, err := db.Resolve(r.ref); err != nil {
			if r.file {
				return usagef("%s %s: no such file, and %v", r.flag, r.ref, err)
			}
			return usagef("%s %s: %v", r.flag, r.ref, err)
		}
	}
	return nil
}
