module example.com/nested/tools

go 1.22
