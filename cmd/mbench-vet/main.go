// Command mbench-vet runs mbench's benchmark analyzers inside go vet:
//
//	go vet -vettool=$(which mbench-vet) ./...
//
// It speaks go vet's protocol (golang.org/x/tools/go/analysis/unitchecker);
// `mbench vet` runs the same analyzers on its own, with JSON output and fixes.
package main

import (
	"github.com/mbench/mbench/vet"
	"golang.org/x/tools/go/analysis/unitchecker"
)

func main() { unitchecker.Main(vet.Analyzers...) }
