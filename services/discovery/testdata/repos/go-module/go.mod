module example.com/hello

go 1.22

toolchain go1.22.5
