package engine

import (
	"context"
	"os"
	"os/user"
	"strconv"
)

// ownerCtxKey carries the owner of the runs a request starts.
type ownerCtxKey struct{}

// WithOwner returns ctx naming who the runs started with it are for: the
// identity the gateway authenticated (see server.OwnerKey). The executor
// keeps dependency-cache entries of different owners apart, so one
// repository can never install into another's verdict.
func WithOwner(ctx context.Context, owner string) context.Context {
	if owner == "" {
		return ctx
	}
	return context.WithValue(ctx, ownerCtxKey{}, owner)
}

// ownerOf is the owner of a run started with ctx: the request's, else the
// configured one (the loop's own user).
func (e *Engine) ownerOf(ctx context.Context) string {
	if o, ok := ctx.Value(ownerCtxKey{}).(string); ok && o != "" {
		return o
	}
	return e.cfg.Owner
}

// LocalOwner is the identity of the user running this process,
// "user:NAME:UID": the owner of runs no gateway vouched for (embedded
// greenlight, a loop called directly on loopback).
func LocalOwner() string {
	uid := strconv.Itoa(os.Getuid())
	name := "unknown"
	if u, err := user.Current(); err == nil && u.Username != "" {
		name = u.Username
	}
	return "user:" + name + ":" + uid
}
