package main

import (
	"fmt"

	"example.com/shop/internal/api"
)

func main() { fmt.Println(api.Version()) }
