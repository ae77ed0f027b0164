module example.com/profiled

go 1.26
