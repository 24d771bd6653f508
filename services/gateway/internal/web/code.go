package web

import (
	"archive/tar"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"path"
	"strconv"
	"strings"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// Bounds of the code view: a bigger file shows its start and says so.
const (
	maxCodeBytes = 1 << 20
	maxCodeLines = 20_000
	// binarySniffBytes is how much of a file is checked for NUL bytes.
	binarySniffBytes = 8 << 10
)

// errBadPath is a code view path that cannot name a file of a snapshot.
var errBadPath = errors.New("not a path inside the snapshot")

// errNotInSnapshot is a valid path the snapshot has no entry for.
var errNotInSnapshot = errors.New("not in the snapshot")

// codeView is a file of a run's snapshot with numbered lines.
type codeView struct {
	RunID, RunURL, Path, Snapshot, RawNote string
	Lines                                  []numberedLine
	Truncated                              bool
}

// numberedLine is one line of a file or log; N is its anchor (#L{N}).
type numberedLine struct {
	N    int
	Text string
}

// codeURL links file:line of run id's snapshot to the code view; "" when
// file cannot be in a snapshot (absolute, outside it) or nothing is known.
func codeURL(runID string, snapshot *glv1.Digest, file string, line int32) string {
	p, err := snapshotPath(file)
	if err != nil || snapshot.GetHash() == "" {
		return ""
	}
	segs := strings.Split(p, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	u := "/runs/" + url.PathEscape(runID) + "/code/" + strings.Join(segs, "/") + "?snapshot=" + url.QueryEscape(snapshot.GetHash())
	if line > 0 {
		u += "#L" + strconv.Itoa(int(line))
	}
	return u
}

// snapshotPath validates a path of a file inside a snapshot: relative,
// slash-separated, no "." or ".." elements, no empty elements. A leading
// "./" is accepted and dropped.
func snapshotPath(p string) (string, error) {
	p = strings.TrimPrefix(p, "./")
	if p == "" || strings.ContainsAny(p, "\\\x00") || !fs.ValidPath(p) || p == "." {
		return "", fmt.Errorf("%q: %w", p, errBadPath)
	}
	return p, nil
}

// serveCode shows one file of one of the run's snapshots.
func (h *handler) serveCode(w http.ResponseWriter, r *http.Request) {
	run, ok := h.getRun(w, r)
	if !ok {
		return
	}
	p, err := snapshotPath(r.PathValue("path"))
	if err != nil {
		h.renderError(w, http.StatusBadRequest, "Not a file of the snapshot",
			"The code view shows files inside the run's snapshot only; "+quote(r.PathValue("path"))+" is not a relative path within it.")
		return
	}
	snap := runSnapshot(run, r.URL.Query().Get("snapshot"))
	if snap == nil {
		h.renderError(w, http.StatusBadRequest, "Unknown snapshot",
			"Run "+quote(run.GetId())+" has no snapshot "+quote(r.URL.Query().Get("snapshot"))+".")
		return
	}
	v := codeView{RunID: run.GetId(), RunURL: urlsFor(run.GetId()).Report, Path: p, Snapshot: shortDigest(snap)}
	err = h.readSnapshotFile(r, snap, p, &v)
	switch {
	case errors.Is(err, errNotInSnapshot):
		h.renderError(w, http.StatusNotFound, "File not in the snapshot",
			quote(p)+" is not a file of snapshot "+shortDigest(snap)+" of run "+quote(run.GetId())+".")
		return
	case err != nil:
		h.blobError(w, err, run.GetId(), "snapshot", snap)
		return
	}
	h.render(w, http.StatusOK, h.code, "layout", layoutData{Title: p + " · run " + run.GetId(), Body: v})
}

// runSnapshot is the snapshot of run named by hash: the original, the
// current one or one a patch made. "" names the final one.
func runSnapshot(run *glv1.Run, hash string) *glv1.Digest {
	if hash == "" {
		return firstDigest(run.GetCurrentSnapshot(), run.GetSnapshot())
	}
	known := []*glv1.Digest{run.GetSnapshot(), run.GetCurrentSnapshot()}
	for _, p := range run.GetPatches() {
		known = append(known, p.GetSnapshotBefore(), p.GetSnapshotAfter())
	}
	for _, d := range known {
		if d.GetHash() != "" && d.GetHash() == hash {
			return d
		}
	}
	return nil
}

func firstDigest(ds ...*glv1.Digest) *glv1.Digest {
	for _, d := range ds {
		if d.GetHash() != "" {
			return d
		}
	}
	return nil
}

// readSnapshotFile finds p in the snapshot tar, streaming it, and fills
// v's lines. Reading is safe whatever the tar holds: entry names are only
// compared with the validated p, nothing is written, and at most
// maxCodeBytes of one entry are kept.
func (h *handler) readSnapshotFile(r *http.Request, snap *glv1.Digest, p string, v *codeView) error {
	if snap == nil {
		return errNotInSnapshot
	}
	blob, err := h.openBlob(h.Upstream(r.Context()), snap)
	if err != nil {
		return err
	}
	tr := tar.NewReader(blob)
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return errNotInSnapshot
		}
		if err != nil {
			return fmt.Errorf("read snapshot %s: %w", snap.GetHash(), err)
		}
		if strings.TrimSuffix(path.Clean(hdr.Name), "/") != p {
			continue
		}
		switch hdr.Typeflag {
		case tar.TypeReg:
			return fillCode(tr, v)
		case tar.TypeSymlink:
			v.RawNote = "This is a symbolic link to " + quote(hdr.Linkname) + "; the code view does not follow links."
			return nil
		}
		return errNotInSnapshot // a directory or other non-file entry
	}
}

// fillCode reads at most maxCodeBytes of a file into numbered lines.
func fillCode(r io.Reader, v *codeView) error {
	data, err := io.ReadAll(io.LimitReader(r, maxCodeBytes+1))
	if err != nil {
		return fmt.Errorf("read file: %w", err)
	}
	if len(data) > maxCodeBytes {
		data, v.Truncated = data[:maxCodeBytes], true
	}
	if bytes.IndexByte(data[:min(len(data), binarySniffBytes)], 0) >= 0 {
		v.RawNote = "Binary file: not shown."
		return nil
	}
	v.Lines, v.Truncated = splitLines(string(data), maxCodeLines, v.Truncated)
	return nil
}

// splitLines numbers the lines of text, at most max of them.
func splitLines(text string, max int, truncated bool) ([]numberedLine, bool) {
	text = strings.TrimSuffix(strings.ToValidUTF8(text, "\uFFFD"), "\n")
	if text == "" {
		return nil, truncated
	}
	raw := strings.Split(text, "\n")
	if len(raw) > max {
		raw, truncated = raw[:max], true
	}
	out := make([]numberedLine, len(raw))
	for i, l := range raw {
		out[i] = numberedLine{N: i + 1, Text: strings.TrimSuffix(l, "\r")}
	}
	return out, truncated
}
