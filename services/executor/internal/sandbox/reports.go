package sandbox

import (
	"archive/tar"
	"context"
	"fmt"
	"io"
	"path"
	"slices"
	"time"
)

// maxReportBytes caps one collected report file.
const maxReportBytes = 16 << 20

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
	pr, pw := io.Pipe()
	go func() {
		cmd := append([]string{"tar", "-c", "-f", "-", "--no-recursion", "--"}, s.ReportFiles...)
		// tar exits non-zero when a report is missing; what it did pack
		// is still a valid archive.
		_, err := rn.r.exec(ctx, b, ExecSpec{Cmd: cmd, User: SandboxUser, WorkDir: "/", Stdout: pw})
		pw.CloseWithError(err)
	}()
	defer func() {
		_ = pr.CloseWithError(io.ErrClosedPipe) // stop the exec if we gave up early
	}()
	tr := tar.NewReader(pr)
	for {
		hdr, err := tr.Next()
		if err != nil {
			if err != io.EOF {
				system(fmt.Sprintf("collecting report files failed: %v", err))
			}
			return
		}
		p := "/" + path.Clean(hdr.Name)
		switch {
		case !slices.Contains(s.ReportFiles, p) || hdr.Typeflag != tar.TypeReg:
			continue
		case hdr.Size > maxReportBytes:
			system(fmt.Sprintf("report file %s not collected: %d bytes, over the %d-byte cap", p, hdr.Size, maxReportBytes))
			continue
		}
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
