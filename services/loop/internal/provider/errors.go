package provider

import "errors"

// Sentinel errors; every error of the package wraps at most one of them.
var (
	// ErrConfig means a provider cannot be built from its configuration.
	ErrConfig = errors.New("invalid patch provider configuration")
	// ErrUpstream means the provider's source (HTTP endpoint, program)
	// failed to produce a reply.
	ErrUpstream = errors.New("patch provider failed")
	// ErrWrongAttempt means a client reply answers another attempt than
	// the one requested.
	ErrWrongAttempt = errors.New("patch reply for the wrong attempt")
	// ErrUnexpectedReply means a client reply arrived while no patch was
	// requested.
	ErrUnexpectedReply = errors.New("patch reply without a pending request")
	// ErrClosed means the client provider's stream ended.
	ErrClosed = errors.New("patch provider closed")
	// ErrReplayDiverged means a replayed run asked for something other
	// than what was recorded.
	ErrReplayDiverged = errors.New("replay diverged from the recording")
	// ErrReplayExhausted means a replayed run asked for more patches than
	// were recorded.
	ErrReplayExhausted = errors.New("replay recording exhausted")
)
