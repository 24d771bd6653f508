module example.com/nested/examples/demo

go 1.22
