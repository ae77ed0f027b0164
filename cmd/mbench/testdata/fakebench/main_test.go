package main

import (
	"os"
	"testing"
)

// TestMain makes fakebench a test binary when go test -c builds it, as the
// golden tests do, so that mbench doctor takes it for one: the testing
// package's main calls this, and this the fake, which reads the -test.*
// flags itself.
func TestMain(*testing.M) {
	os.Exit(fakebench(os.Args[0], os.Args[1:]))
}
