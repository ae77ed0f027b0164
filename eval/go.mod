module github.com/mbench/mbench/eval

go 1.26.0

require github.com/mbench/mbench v0.0.0

require (
	github.com/aclements/go-moremath v0.0.0-20210112150236-f10218a38794 // indirect
	golang.org/x/perf v0.0.0-20260908200009-22c9c6c9d4da // indirect
	golang.org/x/sys v0.49.0 // indirect
	golang.org/x/tools v0.52.0 // indirect
	gonum.org/v1/gonum v0.17.0 // indirect
)

// The evaluation measures the product in this repository, not a release.
replace github.com/mbench/mbench => ../
