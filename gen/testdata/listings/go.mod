module example.com/listings

go 1.24
