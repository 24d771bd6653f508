package sandbox

import (
	"context"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/greenlight-dev/greenlight/pkg/blob"
)

// combinedLog is the run's log of all steps, each framed by a header and a
// footer, spooled to a file and stored when the run ends.
type combinedLog struct {
	mu sync.Mutex
	f  *os.File
}

func newCombinedLog(dir string) (*combinedLog, error) {
	f, err := os.CreateTemp(dir, "greenlight-run-*.log")
	if err != nil {
		return nil, fmt.Errorf("combined log spool: %w", err)
	}
	return &combinedLog{f: f}, nil
}

// appendStep writes one step's block; concurrent steps never interleave.
func (c *combinedLog) appendStep(header string, body io.Reader, footer string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, err := io.WriteString(c.f, header); err != nil {
		return err
	}
	if body != nil {
		if _, err := io.Copy(c.f, body); err != nil {
			return err
		}
	}
	_, err := io.WriteString(c.f, footer)
	return err
}

// store puts the log into the blob store.
func (c *combinedLog) store(ctx context.Context, blobs Blobs) (blob.Digest, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, err := c.f.Seek(0, io.SeekStart); err != nil {
		return blob.Digest{}, err
	}
	return blobs.Put(ctx, c.f)
}

// close removes the spool file.
func (c *combinedLog) close() {
	name := c.f.Name()
	_ = c.f.Close()
	_ = os.Remove(name)
}
