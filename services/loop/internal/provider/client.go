package provider

import (
	"context"
	"fmt"
	"sync"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// Client is the provider for which the Fix stream's caller is the model.
//
// Propose hands each request to the send function (the Fix handler turns
// it into a PatchRequested event on the stream) and waits; the handler
// passes each PatchReply the client sends to Deliver, which wakes the
// Propose waiting for that attempt. A reply that arrives before its
// request (for a later attempt than any requested so far) is kept, one at
// most, and answers that attempt when it is requested; any other reply is
// refused and the wait goes on. Close ends every wait (the stream is gone).
type Client struct {
	send func(context.Context, *glv1.PatchRequest) error

	mu      sync.Mutex
	attempt int32                 // the attempt awaited
	waiting chan *glv1.PatchReply // non-nil while a request is pending
	early   *glv1.PatchReply      // a reply that came before its request
	closed  error
	done    chan struct{}
}

// NewClient returns a client provider that emits requests through send.
func NewClient(send func(context.Context, *glv1.PatchRequest) error) *Client {
	return &Client{send: send, done: make(chan struct{})}
}

// Propose sends the request and waits for the reply to its attempt.
func (c *Client) Propose(ctx context.Context, req *glv1.PatchRequest) (Proposal, error) {
	ch, err := c.expect(req.GetAttempt())
	if err != nil {
		return Proposal{}, err
	}
	defer c.stopWaiting(ch)
	if err := c.send(ctx, req); err != nil {
		return Proposal{}, fmt.Errorf("client provider: sending the patch request: %w", err)
	}
	select {
	case r := <-ch:
		return Proposal{Patch: r.GetPatch(), Usage: r.GetUsage(), GiveUp: r.GetGiveUp()}, nil
	case <-ctx.Done():
		return Proposal{}, fmt.Errorf("client provider: waiting for the patch of attempt %d: %w", req.GetAttempt(), ctx.Err())
	case <-c.done:
		return Proposal{}, c.closedErr()
	}
}

// expect registers the attempt as pending.
func (c *Client) expect(attempt int32) (chan *glv1.PatchReply, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case c.closed != nil:
		return nil, c.closed
	case c.waiting != nil:
		return nil, fmt.Errorf("client provider: attempt %d requested while attempt %d is pending", attempt, c.attempt)
	}
	ch := make(chan *glv1.PatchReply, 1)
	c.attempt, c.waiting = attempt, ch
	if e := c.early; e != nil && e.GetAttempt() <= attempt {
		c.early = nil
		if e.GetAttempt() == attempt {
			ch <- e // answered before it was asked
			c.waiting = nil
		}
	}
	return ch, nil
}

// stopWaiting clears the pending request if it is still ch.
func (c *Client) stopWaiting(ch chan *glv1.PatchReply) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.waiting == ch {
		c.waiting = nil
	}
}

// Deliver passes a client's reply to the waiting Propose. It never
// blocks. A reply for a later attempt than any requested, while none is
// pending, is kept for that attempt. A reply for another attempt than the
// pending one is refused with ErrWrongAttempt; one for an attempt already
// answered, or a second early one, with ErrUnexpectedReply; the error's
// message is meant for the client.
func (c *Client) Deliver(reply *glv1.PatchReply) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case c.closed != nil:
		return c.closed
	case c.waiting == nil && reply.GetAttempt() <= c.attempt:
		return fmt.Errorf("%w: got a reply for attempt %d, which was already answered", ErrUnexpectedReply, reply.GetAttempt())
	case c.waiting == nil && c.early != nil:
		return fmt.Errorf("%w: got a reply for attempt %d while the reply for attempt %d still waits for its request",
			ErrUnexpectedReply, reply.GetAttempt(), c.early.GetAttempt())
	case c.waiting == nil:
		c.early = reply // kept for when its attempt is requested
		return nil
	case reply.GetAttempt() != c.attempt:
		return fmt.Errorf("%w: got a reply for attempt %d, but attempt %d was requested", ErrWrongAttempt, reply.GetAttempt(), c.attempt)
	}
	c.waiting <- reply // buffered: the one reply this request gets
	c.waiting = nil
	return nil
}

// Close ends the provider: a pending or later Propose and any Deliver
// fail with an error wrapping ErrClosed and cause (if any).
func (c *Client) Close(cause error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed != nil {
		return
	}
	if cause != nil {
		c.closed = fmt.Errorf("client provider: %w: %w", ErrClosed, cause)
	} else {
		c.closed = fmt.Errorf("client provider: %w", ErrClosed)
	}
	close(c.done)
}

// closedErr returns the close error under the lock.
func (c *Client) closedErr() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.closed
}
