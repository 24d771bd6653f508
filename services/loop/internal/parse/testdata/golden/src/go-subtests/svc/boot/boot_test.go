package boot

import (
	"fmt"
	"os"
	"testing"
)

// TestMain fails the package after its tests pass when CASE=main.
func TestMain(m *testing.M) {
	code := m.Run()
	if os.Getenv("CASE") == "main" {
		fmt.Println("boot: leaked goroutine check failed")
		code = 1
	}
	os.Exit(code)
}

func TestBoot(t *testing.T) {
	t.Run("config/load", func(t *testing.T) {})
}
