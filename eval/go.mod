module github.com/mbench/mbench/eval

go 1.26
