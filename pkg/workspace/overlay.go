package workspace

import (
	"archive/tar"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"
)

// ErrOverlay means a directory cannot be laid over a workspace as a diff
// (a binary or special file, a name a diff cannot carry, too large).
var ErrOverlay = errors.New("cannot make an overlay diff")

// MaxOverlayBytes caps the files of an overlay directory.
const MaxOverlayBytes = 16 << 20

// overlaySkip are directories an overlay never carries.
var overlaySkip = map[string]bool{".git": true, "__pycache__": true, ".pytest_cache": true}

// OverlayDiff returns the git-style unified diff that lays the regular
// files of dir over the workspace snapshot (an uncompressed tar), each at
// the same relative path: a new file, or a whole-file replacement of the
// snapshot's. Files equal to the snapshot's are left out, so the diff is
// empty when dir adds nothing. It is how a directory of hidden tests
// becomes FixOptions.hidden_tests. Errors wrap ErrOverlay, or are the
// file system's or the tar's.
func OverlayDiff(snapshot io.Reader, dir string) (string, error) {
	files, err := overlayFiles(dir)
	if err != nil {
		return "", err
	}
	base, err := tarFiles(snapshot, files)
	if err != nil {
		return "", err
	}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, name := range names {
		f := files[name]
		old, exists := base[name]
		if exists && bytes.Equal(old, f.data) {
			continue
		}
		writeFileDiff(&b, name, old, exists, f)
	}
	return b.String(), nil
}

// overlayFile is one file of an overlay directory.
type overlayFile struct {
	data []byte
	exec bool
}

// overlayFiles reads the regular text files under dir by slash path.
func overlayFiles(dir string) (map[string]overlayFile, error) {
	out := map[string]overlayFile{}
	var total int64
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		switch {
		case d.IsDir() && overlaySkip[d.Name()]:
			return filepath.SkipDir
		case d.IsDir():
			return nil
		case !d.Type().IsRegular():
			return fmt.Errorf("%w: %s is not a regular file (symlinks and special files cannot be laid over a workspace)", ErrOverlay, p)
		case strings.HasSuffix(rel, ".pyc"):
			return nil
		}
		if reason := overlayNameReason(rel); reason != "" {
			return fmt.Errorf("%w: %s: %s", ErrOverlay, p, reason)
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if total += info.Size(); total > MaxOverlayBytes {
			return fmt.Errorf("%w: the files under %s add up to more than %d bytes", ErrOverlay, dir, MaxOverlayBytes)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if bytes.IndexByte(data, 0) >= 0 || !utf8.Valid(data) {
			return fmt.Errorf("%w: %s is not a text file (only text files can be laid over a workspace as a diff)", ErrOverlay, p)
		}
		out[rel] = overlayFile{data: data, exec: info.Mode()&0o111 != 0}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%w: %s holds no file", ErrOverlay, dir)
	}
	return out, nil
}

// overlayNameReason says why a path cannot go in a diff unquoted ("" if
// it can).
func overlayNameReason(p string) string {
	for _, r := range p {
		if r < 0x20 || r == 0x7f || r == '"' || r == '\\' || r > 0x7e {
			return "the name holds a character a diff would have to quote; rename the file"
		}
	}
	if strings.HasPrefix(p, ".git/") || path.Clean(p) != p {
		return "the name is not a clean workspace path"
	}
	return ""
}

// tarFiles reads from a workspace tar the regular files whose paths
// want names; a path the tar holds as something else is an error.
func tarFiles(r io.Reader, want map[string]overlayFile) (map[string][]byte, error) {
	out := map[string][]byte{}
	tr := tar.NewReader(r)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("read the workspace snapshot: %w", err)
		}
		name := path.Clean(strings.TrimPrefix(h.Name, "./"))
		for p := range want {
			if h.Typeflag != tar.TypeDir && strings.HasPrefix(p, name+"/") {
				return nil, fmt.Errorf("%w: %s is a file in the workspace, but the overlay has files under it", ErrOverlay, name)
			}
		}
		if _, ok := want[name]; !ok {
			continue
		}
		if h.Typeflag != tar.TypeReg {
			return nil, fmt.Errorf("%w: %s is not a regular file in the workspace", ErrOverlay, name)
		}
		data, err := io.ReadAll(io.LimitReader(tr, MaxOverlayBytes+1))
		if err != nil {
			return nil, fmt.Errorf("read the workspace snapshot: %w", err)
		}
		out[name] = data
	}
}

// writeFileDiff writes one file's git-style diff: a new file, or the old
// content replaced whole.
func writeFileDiff(b *strings.Builder, name string, old []byte, exists bool, f overlayFile) {
	fmt.Fprintf(b, "diff --git a/%s b/%s\n", name, name)
	newLines, newEOL := splitLines(f.data)
	if !exists {
		mode := "100644"
		if f.exec {
			mode = "100755"
		}
		fmt.Fprintf(b, "new file mode %s\n", mode)
		if len(newLines) == 0 {
			return
		}
		fmt.Fprintf(b, "--- /dev/null\n+++ b/%s\n@@ -0,0 +1,%d @@\n", name, len(newLines))
		writeLines(b, '+', newLines, newEOL)
		return
	}
	oldLines, oldEOL := splitLines(old)
	fmt.Fprintf(b, "--- a/%s\n+++ b/%s\n@@ -%s +%s @@\n", name, name, hunkRange(len(oldLines)), hunkRange(len(newLines)))
	writeLines(b, '-', oldLines, oldEOL)
	writeLines(b, '+', newLines, newEOL)
}

// hunkRange is a whole-file hunk side: "1,n", or "0,0" for no lines.
func hunkRange(n int) string {
	if n == 0 {
		return "0,0"
	}
	return fmt.Sprintf("1,%d", n)
}

// splitLines splits text into lines and says whether the last one ends
// with a newline.
func splitLines(data []byte) ([]string, bool) {
	if len(data) == 0 {
		return nil, true
	}
	s := string(data)
	eol := strings.HasSuffix(s, "\n")
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n"), eol
}

// writeLines writes lines with a diff marker, and git's marker when the
// last has no newline.
func writeLines(b *strings.Builder, marker byte, lines []string, eol bool) {
	for _, l := range lines {
		b.WriteByte(marker)
		b.WriteString(l)
		b.WriteByte('\n')
	}
	if len(lines) > 0 && !eol {
		b.WriteString("\\ No newline at end of file\n")
	}
}
