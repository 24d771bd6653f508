package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"

	"google.golang.org/protobuf/encoding/protojson"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// patchSource answers one patch request for the client provider.
type patchSource func(ctx context.Context, req *glv1.PatchRequest) (*glv1.PatchReply, error)

// maxPatchBytes caps a patch read from stdin or a local command.
const maxPatchBytes = 4 << 20

// patchSource returns how this CLI answers patch requests: nil unless the
// provider is client; then a local command, or one patch from stdin.
func (a *app) patchSource(f *fixFlags, prov *glv1.ProviderConfig) (patchSource, error) {
	if prov.GetKind() != glv1.ProviderKind_PROVIDER_KIND_CLIENT {
		return nil, nil
	}
	if f.command != "" {
		return commandPatches(f.command), nil
	}
	return stdinPatch(a.env.Stdin), nil
}

// commandPatches runs cmd with /bin/sh -c for each request: the request as
// JSON on stdin, the patch on stdout; empty output gives up.
func commandPatches(cmd string) patchSource {
	return func(ctx context.Context, req *glv1.PatchRequest) (*glv1.PatchReply, error) {
		in, err := protojson.MarshalOptions{UseProtoNames: true}.Marshal(req)
		if err != nil {
			return nil, err
		}
		c := exec.CommandContext(ctx, "/bin/sh", "-c", cmd)
		c.Stdin = bytes.NewReader(in)
		var out, errOut bytes.Buffer
		c.Stdout, c.Stderr = &limitedBuffer{buf: &out, max: maxPatchBytes}, &limitedBuffer{buf: &errOut, max: 64 << 10}
		if err := c.Run(); err != nil {
			return nil, fmt.Errorf("%s: %w: %s", cmd, err, lastLines(errOut.String(), 3))
		}
		patch := out.String()
		return &glv1.PatchReply{Patch: patch, GiveUp: strings.TrimSpace(patch) == ""}, nil
	}
}

// stdinPatch answers the first request with everything on stdin and gives
// up on later ones.
func stdinPatch(r io.Reader) patchSource {
	var once sync.Once
	return func(_ context.Context, _ *glv1.PatchRequest) (*glv1.PatchReply, error) {
		var patch []byte
		var err error
		first := false
		once.Do(func() {
			first = true
			if r != nil {
				patch, err = io.ReadAll(io.LimitReader(r, maxPatchBytes))
			}
		})
		if err != nil {
			return nil, fmt.Errorf("read patch from stdin: %w", err)
		}
		if !first || len(bytes.TrimSpace(patch)) == 0 {
			return &glv1.PatchReply{GiveUp: true}, nil
		}
		return &glv1.PatchReply{Patch: string(patch)}, nil
	}
}

// limitedBuffer keeps the first max bytes written and discards the rest.
type limitedBuffer struct {
	buf *bytes.Buffer
	max int
}

func (l *limitedBuffer) Write(p []byte) (int, error) {
	if room := l.max - l.buf.Len(); room > 0 {
		l.buf.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}

// lastLines returns the last n lines of s, joined with " / ".
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " / ")
}
