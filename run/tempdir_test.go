package run

import "os"

// tempDir makes a directory that outlives a single test, for the binary
// shared by the tests of this package; the OS cleans its temp directory.
func tempDir() (string, error) { return os.MkdirTemp("", "mbench-run-test") }
