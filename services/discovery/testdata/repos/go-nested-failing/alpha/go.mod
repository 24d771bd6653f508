module example.com/multi/alpha

go 1.22
