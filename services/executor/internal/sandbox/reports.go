package sandbox

import (
	"archive/tar"
	"context"
	"fmt"
	"io"
	"path"
	"slices"
	"strings"
	"time"
)

// maxReportBytes caps one collected report file.
const maxReportBytes = 16 << 20

// maxReportFiles caps the files one step's patterns may collect.
const maxReportFiles = 1000

// isReportPattern reports whether a report path has pattern characters.
func isReportPattern(p string) bool { return strings.ContainsAny(p, "*?[") }

// reportArgs are tar's operands: exact files without recursion, then the
// directories of patterns with it (paths are absolute, so none is read as
// an option). It also returns the patterns.
func reportArgs(files []string) (args, patterns []string) {
	var dirs []string
	for _, p := range files {
		if !isReportPattern(p) {
			args = append(args, p)
			continue
		}
		patterns = append(patterns, p)
		if d := path.Dir(p); !slices.Contains(dirs, d) {
			dirs = append(dirs, d)
		}
	}
	if len(dirs) > 0 {
		args = append(append(args, "--recursion"), dirs...)
	}
	return args, patterns
}

// wanted reports whether a collected path is one of the step's reports.
func wanted(files, patterns []string, p string) bool {
	if slices.Contains(files, p) {
		return true
	}
	for _, pat := range patterns {
		if ok, _ := path.Match(pat, p); ok {
			return true
		}
	}
	return false
}

// reportTimeout bounds the collection of one step's reports.
const reportTimeout = 30 * time.Second

// collectReports copies the step's report files out of the box into the
// blob store: one `tar -c` inside the container (which stores links as
// links, never following them), read entry by entry; only regular files up
// to maxReportBytes are kept, missing ones are skipped.
func (rn *run) collectReports(ctx context.Context, b *box, i int, s *Step, system func(string)) {
	if len(s.ReportFiles) == 0 || b.killed() != "" {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), reportTimeout)
	defer cancel()
	args, patterns := reportArgs(s.ReportFiles)
	pr, pw := io.Pipe()
	go func() {
		cmd := append([]string{"tar", "-c", "-f", "-", "--no-recursion"}, args...)
		// tar exits non-zero when a report is missing; what it did pack
		// is still a valid archive.
		_, err := rn.r.exec(ctx, b, ExecSpec{Cmd: cmd, User: SandboxUser, WorkDir: "/", Stdout: pw})
		pw.CloseWithError(err)
	}()
	defer func() {
		_ = pr.CloseWithError(io.ErrClosedPipe) // stop the exec if we gave up early
	}()
	tr := tar.NewReader(pr)
	for n := 0; ; {
		hdr, err := tr.Next()
		if err != nil {
			if err != io.EOF {
				system(fmt.Sprintf("collecting report files failed: %v", err))
			}
			return
		}
		p := "/" + path.Clean(hdr.Name)
		switch {
		case !wanted(s.ReportFiles, patterns, p) || hdr.Typeflag != tar.TypeReg:
			continue
		case n >= maxReportFiles:
			system(fmt.Sprintf("report file %s not collected: more than %d report files", p, maxReportFiles))
			return
		case hdr.Size > maxReportBytes:
			system(fmt.Sprintf("report file %s not collected: %d bytes, over the %d-byte cap", p, hdr.Size, maxReportBytes))
			continue
		}
		n++
		d, err := rn.r.blobs.Put(ctx, io.LimitReader(tr, hdr.Size))
		if err != nil {
			system(fmt.Sprintf("storing report file %s failed: %v", p, err))
			return
		}
		rn.mu.Lock()
		rn.reports = append(rn.reports, Report{Step: i, Path: p, Digest: d})
		rn.mu.Unlock()
	}
}
