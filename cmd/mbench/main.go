// Command mbench makes Go microbenchmark results trustworthy, cheap and
// comparable. Run `mbench help` for the list of commands.
package main

import "os"

func main() {
	os.Exit(mbench(os.Args[1:], os.Stdout, os.Stderr))
}
