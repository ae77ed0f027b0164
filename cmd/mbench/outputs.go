package main

import (
	"os"

	"github.com/mbench/mbench/bench"
	"github.com/mbench/mbench/internal/outfile"
	"github.com/mbench/mbench/store"
)

// checkOutput checks, before a command does any work, that it may write
// its output at path, which flag names: a usage error naming the flag
// when path is one of protected or cannot be written (outfile.Check). An
// empty path, no output, passes.
func checkOutput(flag, path string, protected ...outfile.Protected) error {
	if path == "" {
		return nil
	}
	if err := outfile.Check(path, protected...); err != nil {
		return usagef("%s %v", flag, err)
	}
	return nil
}

// storeFiles are the files of the result database db that no output may
// replace: an SQLite file and the -wal and -shm files beside it, which
// hold its newest commits. A PostgreSQL store has none.
func storeFiles(db string) []outfile.Protected {
	files := store.Files(db)
	if len(files) == 0 {
		return nil
	}
	return []outfile.Protected{
		{Path: files[0], What: "the result database"},
		{Path: files[1], What: "the result database's write-ahead log"},
		{Path: files[2], What: "the result database's shared-memory index"},
	}
}

// argFiles are the files named by args, "path" or "label=path" each, as
// what: "the input", "the test binary". An argument that names no file
// that exists (a stored run, a package) is left out.
func argFiles(what string, args ...string) []outfile.Protected {
	var ps []outfile.Protected
	for _, a := range args {
		in, err := bench.ParseInput(a)
		if err != nil {
			continue
		}
		if _, err := os.Stat(in.Path); err == nil {
			ps = append(ps, outfile.Protected{Path: in.Path, What: what + " " + in.Path})
		}
	}
	return ps
}
