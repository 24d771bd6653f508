package gocache

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// The environment this program reads, besides GOCACHE.
const (
	// EnvLayers lists the read-only layers, colon-separated, searched in
	// order after $GOCACHE. The go image sets it to its seed.
	EnvLayers = "GREENLIGHT_GOCACHE_LAYERS"
	// EnvVerifyMax is the largest content, in bytes, whose sha256 a get
	// checks (DefaultVerifyMax when unset; 0 checks sizes only).
	EnvVerifyMax = "GREENLIGHT_GOCACHE_VERIFY_MAX"
	// EnvDebug, set to 1, prints why entries were passed over and why puts
	// failed on stderr (which is the go command's stderr).
	EnvDebug = "GREENLIGHT_GOCACHE_DEBUG"
)

// DefaultVerifyMax is the default of EnvVerifyMax. Test results, vet
// outputs and index files are small and hashed on every hit; compiled
// archives mostly are not: in the seed, the 534 outputs of at most 64 KiB
// hold 2.3 MB, the 152 larger ones 108 MB, which would cost ~0.1 s of
// hashing per go command on this machine (sha256 at ~300 MB/s) for damage
// the compiler and linker detect anyway.
const DefaultVerifyMax = 64 << 10

// usage is printed for any argument.
const usage = `usage: greenlight-gocache
  serves the go command's build cache over the GOCACHEPROG protocol on
  stdin/stdout: set GOCACHEPROG to this program. Puts go to $GOCACHE; gets
  look in $GOCACHE, then in the read-only layers of GREENLIGHT_GOCACHE_LAYERS
  (colon-separated directories in GOCACHE's layout).`

// Main runs the program with the given arguments and environment and
// returns its exit status.
func Main(args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		fmt.Fprintln(stderr, usage)
		return 2
	}
	s, err := NewStore(getenv)
	if err != nil {
		fmt.Fprintf(stderr, "greenlight-gocache: %v\n", err)
		return 1
	}
	var debug io.Writer
	if getenv(EnvDebug) == "1" {
		debug = stderr
		logf(debug, "cache %s, layers %q, verify up to %d bytes", s.Dir, s.Layers, s.VerifyMax)
	}
	if err := Serve(stdin, stdout, s, debug); err != nil {
		fmt.Fprintf(stderr, "greenlight-gocache: %v\n", err)
		return 1
	}
	return 0
}

// NewStore configures a store from the environment: the writable directory
// is $GOCACHE (or the go command's default when it is not exported, which
// happens when it comes from `go env -w`), the layers those of EnvLayers
// that are absolute paths to directories other than it (others are
// skipped, not errors: a missing layer only costs speed).
func NewStore(getenv func(string) string) (*Store, error) {
	dir := getenv("GOCACHE")
	if dir == "" {
		base, err := os.UserCacheDir()
		if err != nil {
			return nil, fmt.Errorf("GOCACHE is not set and %v", err)
		}
		dir = filepath.Join(base, "go-build")
	}
	if !filepath.IsAbs(dir) {
		return nil, fmt.Errorf("GOCACHE %q is not an absolute path", dir)
	}
	s := &Store{Dir: filepath.Clean(dir), VerifyMax: DefaultVerifyMax}
	for _, l := range strings.Split(getenv(EnvLayers), ":") {
		if l == "" || !filepath.IsAbs(l) || filepath.Clean(l) == s.Dir {
			continue
		}
		if fi, err := os.Stat(l); err != nil || !fi.IsDir() {
			continue
		}
		s.Layers = append(s.Layers, filepath.Clean(l))
	}
	if v := getenv(EnvVerifyMax); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			return nil, fmt.Errorf("%s=%q is not a number of bytes", EnvVerifyMax, v)
		}
		s.VerifyMax = n
	}
	return s, nil
}
