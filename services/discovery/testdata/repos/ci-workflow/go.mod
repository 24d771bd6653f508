module example.com/ciworkflow

go 1.22
