package config

import (
	"os"
	"path/filepath"
)

// DefaultDataDir returns where greenlight keeps its state (run database, blob
// store) when no --data-dir is given: $XDG_DATA_HOME/greenlight, else
// ~/.local/share/greenlight, else ./greenlight-data when there is no home.
func DefaultDataDir() string {
	if d := os.Getenv("XDG_DATA_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "greenlight")
	}
	if home, err := os.UserHomeDir(); err == nil && home != "" {
		return filepath.Join(home, ".local", "share", "greenlight")
	}
	return "greenlight-data"
}
