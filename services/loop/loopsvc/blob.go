package loopsvc

import (
	"fmt"
	"path/filepath"

	"github.com/greenlight-dev/greenlight/pkg/blob"
)

// blobDir is the blob store's directory under Config.DataDir.
const blobDir = "blobs"

// openBlobStore opens (creating) the content-addressed store the loop owns.
func openBlobStore(dataDir string) (*blob.Store, error) {
	store, err := blob.NewStore(filepath.Join(dataDir, blobDir))
	if err != nil {
		return nil, fmt.Errorf("open blob store: %w", err)
	}
	return store, nil
}
