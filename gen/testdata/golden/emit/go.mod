module example.com/emit

go 1.24
