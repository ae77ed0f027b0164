module example.com/vetgolden

go 1.26
