// Package provider is where the repair loop's patches come from.
//
// Every source implements Provider: given a PatchRequest (the failing
// command, its exit code, failures, code windows, log tail and the reason
// the previous patch failed), Propose returns a Proposal: the patch text,
// the model usage it cost, or a give-up. The loop parses and checks the
// text with the patch package; a provider never applies anything.
//
//   - Client: the Fix stream's caller is the model. Propose hands the
//     request to a send function (the Fix handler emits a PatchRequested
//     event) and waits for Deliver to bring back the client's PatchReply
//     for that attempt.
//   - OpenAI: any OpenAI-compatible chat-completions endpoint, with
//     retries on 429, 5xx and timeouts (Retry-After respected), none on
//     other 4xx, and token usage priced per 1000 tokens.
//   - Command: an external program run with /bin/sh -c, the request as
//     JSON on stdin, the patch on stdout, killed as a process group at
//     its timeout.
//   - Replay: plays back what a Recorder wrapped around any provider
//     stored, failing clearly when the session diverges or runs out.
package provider
