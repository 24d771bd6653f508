package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"sync"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/loop/clientprovider"
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
		return commandPatches(f.command)
	}
	return stdinPatch(a.env.Stdin), nil
}

// commandPatches runs cmd for each request exactly as the loop's command
// provider does (clientprovider): /bin/sh -c, the request as JSON on stdin,
// the patch on stdout, empty output gives up, killed with its process
// group after 5 minutes.
func commandPatches(cmd string) (patchSource, error) {
	answer, err := clientprovider.New(&glv1.ProviderConfig{Kind: glv1.ProviderKind_PROVIDER_KIND_COMMAND, Command: cmd}, clientprovider.Options{})
	if err != nil {
		return nil, usagef("--command: %v", err)
	}
	return patchSource(answer), nil
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
