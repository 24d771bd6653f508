module example.com/api

go 1.22
