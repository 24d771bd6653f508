module example.com/multi/beta

go 1.22
