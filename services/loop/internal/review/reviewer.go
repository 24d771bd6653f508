package review

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"go.uber.org/zap"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/types/known/timestamppb"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/loop/internal/provider"
)

// Input is what a reviewer sees.
type Input struct {
	// Plan is the plan the change implements (untrusted), may be empty.
	Plan string
	// Diff is the change under review (untrusted): applied patches of a
	// fix run, or the changed files of a verify run.
	Diff string
	// Result is the finished verification; the reviewer only reads it.
	Result *glv1.Result
}

// Deps are what New needs beyond the profile.
type Deps struct {
	// HTTPClient is used by OPENAI profiles; nil means a default client.
	HTTPClient *http.Client
	// Getenv reads API keys; nil means os.Getenv.
	Getenv func(string) string
	// Log receives failures; nil means none.
	Log *zap.Logger
	// Now stamps reports; nil means time.Now.
	Now func() time.Time
}

// Reviewer writes reports with one provider profile.
type Reviewer struct {
	profile string
	ask     func(ctx context.Context, in Input) (string, *glv1.Usage, error)
	log     *zap.Logger
	now     func() time.Time
}

// New builds the reviewer of a COMMAND or OPENAI profile, with the same
// provider code that fixing uses.
func New(p provider.Profile, d Deps) (*Reviewer, error) {
	r := &Reviewer{profile: p.Name, log: d.Log, now: d.Now}
	if r.log == nil {
		r.log = zap.NewNop()
	}
	if r.now == nil {
		r.now = time.Now
	}
	switch p.Kind {
	case glv1.ProviderKind_PROVIDER_KIND_OPENAI:
		o, err := provider.NewOpenAI(provider.OpenAIConfig{
			BaseURL: p.BaseURL, Model: p.Model, APIKeyEnv: p.KeyEnv, Timeout: p.Timeout,
			CostPer1KTokens: p.CostPer1KTokens, HTTPClient: d.HTTPClient, Getenv: d.Getenv, Log: d.Log,
		})
		if err != nil {
			return nil, err
		}
		r.ask = func(ctx context.Context, in Input) (string, *glv1.Usage, error) {
			return o.Chat(ctx, systemPrompt(), userPrompt(in))
		}
	case glv1.ProviderKind_PROVIDER_KIND_COMMAND:
		c, err := provider.NewCommand(provider.CommandConfig{Command: p.Command, Timeout: p.Timeout})
		if err != nil {
			return nil, err
		}
		r.ask = func(ctx context.Context, in Input) (string, *glv1.Usage, error) {
			stdin, err := commandInput(in)
			if err != nil {
				return "", nil, err
			}
			out, err := c.Run(ctx, stdin)
			return out, nil, err
		}
	default:
		return nil, fmt.Errorf("%w: provider profile %s cannot review: a reviewer is a command or openai profile", provider.ErrConfig, p)
	}
	return r, nil
}

// commandInput is a command reviewer's stdin: the rendered prompts (what
// an OpenAI reviewer would get) and the raw evidence, as one JSON object.
func commandInput(in Input) ([]byte, error) {
	res, err := protojson.Marshal(in.Result)
	if err != nil {
		return nil, fmt.Errorf("review: %w", err)
	}
	return json.Marshal(struct {
		System string          `json:"system"`
		Prompt string          `json:"prompt"`
		Plan   string          `json:"plan"`
		Diff   string          `json:"diff"`
		Result json.RawMessage `json:"result"`
	}{systemPrompt(), userPrompt(in), in.Plan, in.Diff, res})
}

// Review asks for the report. It always returns one: a failure or a
// malformed answer is recorded in its error field.
func (r *Reviewer) Review(ctx context.Context, in Input) *glv1.Review {
	reply, usage, err := r.ask(ctx, in)
	var rev *glv1.Review
	if err == nil {
		rev, err = parse(reply)
	}
	if err != nil {
		r.log.Warn("review failed", zap.String("profile", r.profile), zap.Error(err))
		rev = &glv1.Review{Error: err.Error()}
	}
	rev.Profile, rev.Usage, rev.CreatedAt = r.profile, usage, timestamppb.New(r.now())
	return rev
}
