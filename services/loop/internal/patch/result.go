package patch

import (
	"archive/tar"
	"fmt"
	"io"
	"os"
	"strings"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/workspace"
)

// Stats measures an applied patch, for the repair loop's metrics.
type Stats struct {
	// Files lists the touched paths (the new path of a rename, the old
	// path of a deletion), in patch order.
	Files []string
	// LinesAdded and LinesRemoved count changed lines as applied (a
	// deletion counts every line of the deleted file).
	LinesAdded, LinesRemoved int
}

// add counts one file change.
func (s *Stats) add(c change) {
	s.Files = append(s.Files, c.file.Path())
	for _, l := range c.ops {
		switch l.Op {
		case LineAdd:
			s.LinesAdded++
		case LineDelete:
			s.LinesRemoved++
		}
	}
}

// Result is an applied patch: the new snapshot and what changed.
type Result struct {
	// Format is the spelling the patch arrived in.
	Format glv1.PatchFormat
	// Diff is the patch as applied, as a canonical git-style unified diff.
	Diff string
	// Digest identifies the new snapshot.
	Digest workspace.Digest
	// TarPath is the new snapshot's file, removed by Close.
	TarPath string
	// Stats measures the change.
	Stats Stats
	dir   string
}

// Open opens the new snapshot for reading (to store it in the blob store).
func (r *Result) Open() (*os.File, error) {
	f, err := os.Open(r.TarPath)
	if err != nil {
		return nil, fmt.Errorf("open patched snapshot: %w", err)
	}
	return f, nil
}

// Close removes the new snapshot's temporary directory.
func (r *Result) Close() error {
	if r == nil || r.dir == "" {
		return nil
	}
	return os.RemoveAll(r.dir)
}

// Outcome describes the applied patch for the run record; the loop fills
// in snapshot_before, the failing counts and usage.
func (r *Result) Outcome(attempt int32) *glv1.PatchOutcome {
	return &glv1.PatchOutcome{
		Attempt: attempt, Diff: r.Diff, Format: r.Format, Applied: true,
		LinesAdded: int32(r.Stats.LinesAdded), LinesRemoved: int32(r.Stats.LinesRemoved),
		Files:         append([]string(nil), r.Stats.Files...),
		SnapshotAfter: &glv1.Digest{Hash: r.Digest.Hash, SizeBytes: r.Digest.Size},
	}
}

// FailedOutcome describes a patch that was not applied: unreadable
// (p nil), refused or not matching. Reason is err's message, the
// feedback for the next request.
func FailedOutcome(attempt int32, p *Patch, raw string, err error) *glv1.PatchOutcome {
	o := &glv1.PatchOutcome{Attempt: attempt, Diff: raw, Reason: err.Error()}
	if p != nil {
		o.Diff, o.Format = p.Text, p.Format
		a, r := p.Counts()
		o.LinesAdded, o.LinesRemoved = int32(a), int32(r)
		for _, f := range p.Files {
			o.Files = append(o.Files, f.Path())
		}
	}
	return o
}

// tarNames returns the names of a tar's non-directory entries.
func tarNames(r io.Reader) (map[string]bool, error) {
	names := map[string]bool{}
	tr := tar.NewReader(r)
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			return names, nil
		}
		if err != nil {
			return nil, fmt.Errorf("reading packed snapshot: %w", err)
		}
		if hdr.Typeflag != tar.TypeDir {
			names[strings.TrimPrefix(hdr.Name, "./")] = true
		}
	}
}
