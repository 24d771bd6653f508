package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/greenlight-dev/greenlight/pkg/config"
	"github.com/greenlight-dev/greenlight/pkg/image"
	"github.com/greenlight-dev/greenlight/services/discovery/discoverysvc"
)

// settings are discovery's own flags (GREENLIGHT_DISCOVERY_* variables,
// config file keys).
type settings struct {
	// BlobDir is a local blob store directory; when set, BlobAddr is unused.
	BlobDir string
	// BlobAddr is the BlobService to read snapshots from (loop by default).
	BlobAddr string
	// Images are "runtime=image" overrides of the default image table.
	Images []string
	// AllowedImages are the images a repository's greenlight.yaml or a
	// request may select besides the table's.
	AllowedImages []string
	MaxFiles      int
	CacheEntries  int
	// Maxima of what a repository's greenlight.yaml may ask for: set them
	// to the executor's --max-* values.
	MaxCPUs       float64
	MaxMemory     int
	MaxPids       int64
	MaxRunTimeout time.Duration

	images map[string]string
}

func defaultSettings() *settings {
	m := discoverysvc.DefaultMaxima()
	return &settings{BlobAddr: config.DefaultLoopAddr, MaxFiles: 500_000, CacheEntries: 32, AllowedImages: image.DefaultAllowed(),
		MaxCPUs: m.CPUs, MaxMemory: int(m.MemoryBytes), MaxPids: m.Pids, MaxRunTimeout: m.RunTimeout}
}

// maxima are the discoverysvc form of the --max-* settings.
func (s *settings) maxima() discoverysvc.Maxima {
	return discoverysvc.Maxima{CPUs: s.MaxCPUs, MemoryBytes: int64(s.MaxMemory), Pids: s.MaxPids, RunTimeout: s.MaxRunTimeout}
}

// RegisterFlags binds the settings.
func (s *settings) RegisterFlags(fs *config.FlagSet) {
	fs.String(&s.BlobDir, "blob-dir", "local blob store `dir` holding snapshots (shared with loop); overrides blob-addr")
	fs.String(&s.BlobAddr, "blob-addr", "BlobService `host:port` to read snapshots from")
	fs.Strings(&s.Images, "images", "sandbox image overrides, comma-separated `runtime=image` pairs, or one image set: "+
		"offline (default) or upstream (public images; give the executor the same)")
	fs.Strings(&s.AllowedImages, "allowed-images", "`images` a repository's greenlight.yaml or a request may select besides those of the image table (\"\": only the table's)")
	fs.Int(&s.MaxFiles, "max-files", "largest number of files a snapshot may hold")
	fs.Int(&s.CacheEntries, "cache-entries", "snapshot indices kept in memory (negative: none)")
	fs.Var(positiveFloat{&s.MaxCPUs}, "max-cpus", "largest `CPUs` a repository's greenlight.yaml limits may ask for (match the executor's --max-cpus)")
	fs.Bytes(&s.MaxMemory, "max-memory", "largest memory greenlight.yaml limits may ask for, a `size` (match the executor's --max-memory)")
	fs.Int64(&s.MaxPids, "max-pids", "largest process limit greenlight.yaml limits may ask for (match the executor's --max-pids)")
	fs.Duration(&s.MaxRunTimeout, "max-run-timeout", "largest time budget or timeout greenlight.yaml may ask for (match the executor's --max-run-timeout)")
}

// positiveFloat binds a positive float64 flag.
type positiveFloat struct{ p *float64 }

func (f positiveFloat) String() string {
	if f.p == nil {
		return ""
	}
	return fmt.Sprint(*f.p)
}

func (f positiveFloat) Set(s string) error {
	var v float64
	if _, err := fmt.Sscan(s, &v); err != nil || v <= 0 {
		return fmt.Errorf("%q is not a positive number", s)
	}
	*f.p = v
	return nil
}

// Validate checks the parsed values.
func (s *settings) Validate() error {
	if s.BlobDir == "" {
		if err := config.ValidateAddr(s.BlobAddr); err != nil {
			return fmt.Errorf("blob-addr: %w", err)
		}
	}
	if s.MaxMemory <= 0 || s.MaxPids <= 0 || s.MaxRunTimeout <= 0 {
		return fmt.Errorf("max-memory, max-pids and max-run-timeout must be positive")
	}
	if s.MaxFiles <= 0 {
		return fmt.Errorf("max-files: must be positive, got %d", s.MaxFiles)
	}
	var err error
	if s.images, err = parseImages(s.Images); err != nil {
		return err
	}
	for _, ref := range s.AllowedImages {
		if ref = strings.TrimSpace(ref); ref != "" {
			if err := image.ValidateReference(ref); err != nil {
				return fmt.Errorf("allowed-images: %w", err)
			}
		}
	}
	return nil
}

// parseImages reads --images: runtime=image pairs, or one image set name
// ("upstream" selects pkg/image.Upstream for every runtime).
func parseImages(entries []string) (map[string]string, error) {
	if len(entries) == 1 && !strings.Contains(entries[0], "=") {
		t, err := image.Set(strings.TrimSpace(entries[0]))
		if err != nil {
			return nil, fmt.Errorf("images: %w", err)
		}
		return t, nil
	}
	m := map[string]string{}
	for _, pair := range entries {
		rt, img, ok := strings.Cut(pair, "=")
		if !ok || strings.TrimSpace(rt) == "" || strings.TrimSpace(img) == "" {
			return nil, fmt.Errorf("images: %q is not runtime=image", pair)
		}
		m[strings.TrimSpace(rt)] = strings.TrimSpace(img)
	}
	if err := image.Table(m).Validate(); err != nil {
		return nil, fmt.Errorf("images: %w", err)
	}
	return m, nil
}

// nonNil keeps an emptied list (--allowed-images "") empty: a nil list
// would mean the defaults to discoverysvc.
func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
