package provider

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// streamClient wires a Client to a channel standing for the Fix stream.
func streamClient() (*Client, chan *glv1.PatchRequest) {
	sent := make(chan *glv1.PatchRequest, 1)
	return NewClient(func(ctx context.Context, r *glv1.PatchRequest) error {
		select {
		case sent <- r:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}), sent
}

type proposeResult struct {
	p   Proposal
	err error
}

// propose runs Propose in the background.
func propose(ctx context.Context, c *Client, attempt int32) chan proposeResult {
	out := make(chan proposeResult, 1)
	go func() {
		p, err := c.Propose(ctx, request(attempt))
		out <- proposeResult{p, err}
	}()
	return out
}

// TestClientRoundTrip checks request, wrong-attempt refusal, reply and
// give-up over channels.
func TestClientRoundTrip(t *testing.T) {
	c, sent := streamClient()
	res := propose(context.Background(), c, 1)
	req := <-sent
	if req.GetAttempt() != 1 || req.GetFailingCommand() == "" {
		t.Fatalf("sent %v", req)
	}
	err := c.Deliver(&glv1.PatchReply{Attempt: 2, Patch: "nope"})
	if !errors.Is(err, ErrWrongAttempt) || err.Error() != "patch reply for the wrong attempt: got a reply for attempt 2, but attempt 1 was requested" {
		t.Fatalf("wrong attempt: %v", err)
	}
	usage := &glv1.Usage{PromptTokens: 10, CompletionTokens: 5, Cost: 0.1}
	must(t, c.Deliver(&glv1.PatchReply{Attempt: 1, Patch: calcPatch, Usage: usage}))
	r := <-res
	must(t, r.err)
	if r.p.Patch != calcPatch || r.p.Usage.GetPromptTokens() != 10 || r.p.GiveUp {
		t.Errorf("proposal %+v", r.p)
	}
	if err := c.Deliver(&glv1.PatchReply{Attempt: 1, Patch: calcPatch}); !errors.Is(err, ErrUnexpectedReply) {
		t.Errorf("second reply to the same request: %v", err)
	}

	res = propose(context.Background(), c, 2)
	<-sent
	must(t, c.Deliver(&glv1.PatchReply{Attempt: 2, GiveUp: true}))
	if r := <-res; r.err != nil || !r.p.GiveUp {
		t.Errorf("give up: %+v", r)
	}
}

// TestClientKeepsAnEarlyReply: a reply sent before its PatchRequested
// answers that attempt when it comes; a second early one, or one for an
// attempt already answered, is refused with a reason.
func TestClientKeepsAnEarlyReply(t *testing.T) {
	c, sent := streamClient()
	must(t, c.Deliver(&glv1.PatchReply{Attempt: 1, Patch: calcPatch}))
	err := c.Deliver(&glv1.PatchReply{Attempt: 2, Patch: "x"})
	if !errors.Is(err, ErrUnexpectedReply) || !strings.Contains(err.Error(), "attempt 1 still waits for its request") {
		t.Fatalf("second early reply: %v", err)
	}
	res := propose(context.Background(), c, 1)
	<-sent
	if r := <-res; r.err != nil || r.p.Patch != calcPatch {
		t.Fatalf("attempt 1 answered early: %+v", r)
	}
	if err := c.Deliver(&glv1.PatchReply{Attempt: 1, Patch: calcPatch}); !errors.Is(err, ErrUnexpectedReply) ||
		!strings.Contains(err.Error(), "already answered") {
		t.Errorf("reply for an answered attempt: %v", err)
	}
	// An early reply for a later attempt waits through an earlier one.
	must(t, c.Deliver(&glv1.PatchReply{Attempt: 3, Patch: "three"}))
	res = propose(context.Background(), c, 2)
	<-sent
	must(t, c.Deliver(&glv1.PatchReply{Attempt: 2, Patch: "two"}))
	if r := <-res; r.p.Patch != "two" {
		t.Fatalf("attempt 2: %+v", r)
	}
	res = propose(context.Background(), c, 3)
	<-sent
	if r := <-res; r.p.Patch != "three" {
		t.Fatalf("attempt 3: %+v", r)
	}
}

// TestClientEnds checks cancellation, Close and send failures.
func TestClientEnds(t *testing.T) {
	c, sent := streamClient()
	ctx, cancel := context.WithCancel(context.Background())
	res := propose(ctx, c, 1)
	<-sent
	cancel()
	if r := <-res; !errors.Is(r.err, context.Canceled) {
		t.Errorf("canceled: %v", r.err)
	}

	res = propose(context.Background(), c, 2)
	<-sent
	c.Close(errors.New("stream reset"))
	select {
	case r := <-res:
		if !errors.Is(r.err, ErrClosed) || !strings.Contains(r.err.Error(), "stream reset") {
			t.Errorf("closed: %v", r.err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Propose still waiting after Close")
	}
	if _, err := c.Propose(context.Background(), request(3)); !errors.Is(err, ErrClosed) {
		t.Errorf("propose after close: %v", err)
	}
	if err := c.Deliver(&glv1.PatchReply{Attempt: 3}); !errors.Is(err, ErrClosed) {
		t.Errorf("deliver after close: %v", err)
	}

	failing := NewClient(func(context.Context, *glv1.PatchRequest) error { return errors.New("send failed") })
	if _, err := failing.Propose(context.Background(), request(1)); err == nil || !strings.Contains(err.Error(), "send failed") {
		t.Errorf("send failure: %v", err)
	}
}
