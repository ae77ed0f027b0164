module example.com/gengolden

go 1.24
