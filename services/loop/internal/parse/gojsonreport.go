package parse

import (
	"errors"
	"fmt"
	"io"
)

// parseGoJSONReport reads a `go test -json` event stream the step teed into
// a report file (JSON Lines, ".jsonl"). It holds every event even when the
// step's log was cut at the per-step cap. Records point at no log offset.
func parseGoJSONReport(r io.Reader, name string, lim *Limits, paths *Paths, stepFailed bool) (candidate, error) {
	p := newGoJSONParser(lim, paths)
	lr := newLineReader(io.LimitReader(r, lim.MaxArtifactBytes), lim.MaxLineBytes)
	for {
		ln, err := lr.next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return candidate{}, fmt.Errorf("read %s: %w", name, err)
		}
		ln.off = -1
		p.consume(ln)
	}
	p.streamEnded(stepFailed)
	return candidate{format: FormatGoJSON, rank: 5, report: true, set: p.set, extra: p.diag.failures()}, nil
}
