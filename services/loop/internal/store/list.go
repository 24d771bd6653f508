package store

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	bolt "go.etcd.io/bbolt"
)

// Page size bounds for ListRuns.
const (
	DefaultPageSize = 50
	MaxPageSize     = 1000
)

// pageTokenVersion prefixes page tokens so their format can change later.
const pageTokenVersion = 1

// ListQuery selects a page of runs.
type ListQuery struct {
	// Statuses keeps runs with one of these statuses; empty keeps all.
	Statuses []glv1.RunStatus
	// PageSize is the most runs returned; zero means DefaultPageSize, larger
	// than MaxPageSize is clamped.
	PageSize int
	// PageToken continues a previous listing (its NextPageToken).
	PageToken string
}

// RunPage is one page of a listing, newest run first.
type RunPage struct {
	// Runs carry last_seq but not patches (GetRun has those).
	Runs []*glv1.Run
	// NextPageToken is empty on the last page.
	NextPageToken string
}

// ListRuns lists runs newest first (by created_at, then id). Filtering reads
// only the small index and owner entries, so skipping non-matching runs is
// cheap. Runs ctx's viewer may not see (WithViewer) are left out.
func (s *Store) ListRuns(ctx context.Context, q ListQuery) (RunPage, error) {
	if err := ctx.Err(); err != nil {
		return RunPage{}, err
	}
	size, after, err := q.normalize()
	if err != nil {
		return RunPage{}, fmt.Errorf("list runs: %w", err)
	}
	keep := statusSet(q.Statuses)
	var page RunPage
	err = s.db.View(func(tx *bolt.Tx) error {
		b := open(tx)
		c := b.byCreated.Cursor()
		var lastKey []byte
		for k, v := startBefore(c, after); k != nil; k, v = c.Prev() {
			if !keep(statusOf(v)) {
				continue
			}
			_, id, ok := createdKeyParts(k)
			if !ok {
				return fmt.Errorf("corrupt index key %x", k)
			}
			if !visible(ctx, runOwner(b, id)) {
				continue
			}
			if len(page.Runs) == size {
				// One more match exists, so a next page is worth offering.
				page.NextPageToken = encodePageToken(lastKey)
				return nil
			}
			run, err := loadRun(b, id, false)
			if err != nil {
				return fmt.Errorf("run %s: %w", id, err)
			}
			page.Runs = append(page.Runs, run)
			lastKey = bytes.Clone(k)
		}
		return nil
	})
	if err != nil {
		return RunPage{}, fmt.Errorf("list runs: %w", err)
	}
	return page, nil
}

// normalize validates a query and returns the page size and the decoded
// position (nil = from the newest).
func (q ListQuery) normalize() (size int, after []byte, err error) {
	switch {
	case q.PageSize < 0:
		return 0, nil, fmt.Errorf("page_size %d is negative: %w", q.PageSize, ErrInvalidArgument)
	case q.PageSize == 0:
		size = DefaultPageSize
	default:
		size = min(q.PageSize, MaxPageSize)
	}
	for _, st := range q.Statuses {
		if _, ok := glv1.RunStatus_name[int32(st)]; !ok || st == glv1.RunStatus_RUN_STATUS_UNSPECIFIED {
			return 0, nil, fmt.Errorf("status filter %d is not a run status: %w", st, ErrInvalidArgument)
		}
	}
	if q.PageToken == "" {
		return size, nil, nil
	}
	after, err = decodePageToken(q.PageToken)
	return size, after, err
}

// startBefore positions c on the newest key strictly older than after
// (or the newest key of all when after is nil). The key after names may
// have been deleted since (retention), which is why this seeks.
func startBefore(c *bolt.Cursor, after []byte) ([]byte, []byte) {
	if after == nil {
		return c.Last()
	}
	if k, _ := c.Seek(after); k == nil {
		return c.Last()
	}
	return c.Prev()
}

// statusSet returns a predicate for the status filter.
func statusSet(statuses []glv1.RunStatus) func(int32) bool {
	if len(statuses) == 0 {
		return func(int32) bool { return true }
	}
	set := make(map[int32]bool, len(statuses))
	for _, st := range statuses {
		set[int32(st)] = true
	}
	return func(st int32) bool { return set[st] }
}

// encodePageToken turns an index key into an opaque token.
func encodePageToken(key []byte) string {
	return base64.RawURLEncoding.EncodeToString(append([]byte{pageTokenVersion}, key...))
}

// decodePageToken reverses encodePageToken.
func decodePageToken(tok string) ([]byte, error) {
	raw, err := base64.RawURLEncoding.DecodeString(tok)
	if err != nil || len(raw) < 2 || raw[0] != pageTokenVersion {
		return nil, fmt.Errorf("page_token %q was not issued by ListRuns (start again with an empty token): %w", tok, ErrInvalidArgument)
	}
	if _, _, ok := createdKeyParts(raw[1:]); !ok {
		return nil, fmt.Errorf("page_token %q is truncated (start again with an empty token): %w", tok, ErrInvalidArgument)
	}
	return raw[1:], nil
}
