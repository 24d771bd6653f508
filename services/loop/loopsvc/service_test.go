package loopsvc_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"go.uber.org/zap"

	"github.com/greenlight-dev/greenlight/services/loop/loopsvc"
)

func TestNewOpensBlobStoreUnderDataDir(t *testing.T) {
	dir := t.TempDir()
	notDir := filepath.Join(dir, "file")
	if err := os.WriteFile(notDir, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		dataDir string
		wantErr bool
	}{
		{"fresh directory", filepath.Join(dir, "data"), false},
		{"data dir is a file", notDir, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := loopsvc.DefaultConfig()
			cfg.DataDir = tt.dataDir
			svc, err := loopsvc.New(context.Background(), cfg, zap.NewNop())
			if (err != nil) != tt.wantErr {
				t.Fatalf("New = %v, wantErr %v", err, tt.wantErr)
			}
			if err != nil {
				return
			}
			defer svc.Close()
			if got := svc.Blobs().Root(); got != filepath.Join(tt.dataDir, "blobs") {
				t.Errorf("blob root = %q", got)
			}
		})
	}
}

func TestConfigValidate(t *testing.T) {
	cfg := loopsvc.DefaultConfig()
	if err := cfg.Validate(); err != nil {
		t.Fatalf("defaults invalid: %v", err)
	}
	cfg.DataDir = ""
	if err := cfg.Validate(); !errors.Is(err, loopsvc.ErrConfig) {
		t.Fatalf("empty data dir: %v, want ErrConfig", err)
	}
}
