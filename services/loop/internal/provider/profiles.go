package provider

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/durationpb"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// Errors of Profiles.Select; the loop maps ErrNoProfile to
// PermissionDenied and the others to InvalidArgument.
var (
	// ErrServerSetting means a request set a field only the server's
	// configuration may set (command, base_url, api_key_env).
	ErrServerSetting = errors.New("provider setting reserved to the server")
	// ErrNoProfile means the server has no profile the request may use.
	ErrNoProfile = errors.New("no such provider profile")
	// ErrProfileChoice means the request's profile selection is ambiguous
	// or asks for something the profile does not allow.
	ErrProfileChoice = errors.New("provider profile selection")
)

// Profiles are the loop's configured COMMAND and OPENAI providers.
type Profiles []Profile

// Check validates every profile, refuses duplicate names and checks that
// every named key variable is set in the loop's environment (getenv). It
// runs once, when the loop starts: a missing key is the operator's
// configuration error, never something a request can probe.
func (ps Profiles) Check(getenv func(string) string) error {
	seen := map[string]bool{}
	for _, p := range ps {
		if err := p.Validate(); err != nil {
			return err
		}
		if seen[p.Name] {
			return fmt.Errorf("%w: provider profile %q is defined twice", ErrConfig, p.Name)
		}
		seen[p.Name] = true
		if p.KeyEnv != "" && getenv(p.KeyEnv) == "" {
			return fmt.Errorf("%w: provider profile %q: its key variable %s is not set in the loop's environment", ErrConfig, p.Name, p.KeyEnv)
		}
	}
	return nil
}

// Names lists the profiles of a kind (all kinds when kind is unspecified).
func (ps Profiles) Names(kind glv1.ProviderKind) []string {
	var out []string
	for _, p := range ps {
		if kind == glv1.ProviderKind_PROVIDER_KIND_UNSPECIFIED || p.Kind == kind {
			out = append(out, p.Name)
		}
	}
	return out
}

// serverOnly is the refusal of a request that sets server-side fields.
const serverOnly = "options.provider.command, base_url and api_key_env are server configuration, not request fields: " +
	"the loop's operator defines COMMAND and OPENAI providers as named profiles (--provider-profile) and a request " +
	"selects one with options.provider.profile; to run your own program or model, use kind CLIENT and answer the " +
	"PatchRequested events on the Fix stream (greenlight fix --addr ... --provider command does that for you)"

// Select checks a request's provider configuration and returns the one to
// build: for CLIENT and REPLAY the request itself; for COMMAND and OPENAI
// the selected profile's settings (the request's timeout may only shorten
// the profile's, its model applies only when the profile allows it). The
// result's Profile names the profile chosen. Errors wrap
// ErrServerSetting, ErrProfileChoice or ErrNoProfile, and their text
// never depends on the loop's environment.
func (ps Profiles) Select(req *glv1.ProviderConfig) (*glv1.ProviderConfig, error) {
	if req.GetCommand() != "" || req.GetBaseUrl() != "" || req.GetApiKeyEnv() != "" {
		return nil, fmt.Errorf("%w: %s", ErrServerSetting, serverOnly)
	}
	kind := req.GetKind()
	if kind != glv1.ProviderKind_PROVIDER_KIND_COMMAND && kind != glv1.ProviderKind_PROVIDER_KIND_OPENAI {
		if req.GetProfile() != "" {
			return nil, fmt.Errorf("%w: options.provider.profile selects a COMMAND or OPENAI profile; kind %s takes none",
				ErrProfileChoice, kindName(kind))
		}
		return req, nil
	}
	p, err := ps.find(kind, req.GetProfile())
	if err != nil {
		return nil, err
	}
	return p.apply(req)
}

// Reviewer returns the profile a review request names (any kind), or the
// only profile when the name is empty and there is exactly one. Errors
// wrap ErrNoProfile or ErrProfileChoice.
func (ps Profiles) Reviewer(name string) (Profile, error) {
	for _, p := range ps {
		if p.Name == name || (name == "" && len(ps) == 1) {
			return p, nil
		}
	}
	names := ps.Names(glv1.ProviderKind_PROVIDER_KIND_UNSPECIFIED)
	switch {
	case len(names) == 0:
		return Profile{}, fmt.Errorf("%w: this server has no provider profile to review with (the operator enables one with --provider-profile on the loop)", ErrNoProfile)
	case name == "":
		return Profile{}, fmt.Errorf("%w: this server has several provider profiles: set the reviewer's profile to one of %s", ErrProfileChoice, strings.Join(names, ", "))
	}
	return Profile{}, fmt.Errorf("%w: this server has no provider profile %q; its profiles: %s", ErrNoProfile, name, strings.Join(names, ", "))
}

// find returns the profile a request names, or the only one of its kind.
func (ps Profiles) find(kind glv1.ProviderKind, name string) (Profile, error) {
	names := ps.Names(kind)
	for _, p := range ps {
		if p.Kind == kind && (p.Name == name || (name == "" && len(names) == 1)) {
			return p, nil
		}
	}
	k := strings.ToUpper(kindName(kind))
	switch {
	case len(names) == 0:
		return Profile{}, fmt.Errorf("%w: this server has no %s provider profile (the operator enables one with --provider-profile "+
			"on the loop); use kind CLIENT to propose patches yourself over the Fix stream", ErrNoProfile, k)
	case name == "":
		return Profile{}, fmt.Errorf("%w: this server has several %s provider profiles: set options.provider.profile to one of %s",
			ErrProfileChoice, k, strings.Join(names, ", "))
	}
	return Profile{}, fmt.Errorf("%w: this server has no %s provider profile %q; its %s profiles: %s",
		ErrNoProfile, k, name, k, strings.Join(names, ", "))
}

// apply builds the provider configuration of a request that selected p.
func (p Profile) apply(req *glv1.ProviderConfig) (*glv1.ProviderConfig, error) {
	out := proto.Clone(req).(*glv1.ProviderConfig)
	out.Profile, out.Command, out.BaseUrl, out.ApiKeyEnv = p.Name, p.Command, p.BaseURL, p.KeyEnv
	switch m := req.GetModel(); {
	case m != "" && p.Kind == glv1.ProviderKind_PROVIDER_KIND_COMMAND:
		return nil, fmt.Errorf("%w: options.provider.model applies to OPENAI profiles; %q is a COMMAND profile", ErrProfileChoice, p.Name)
	case m != "" && m != p.Model && !p.AllowModel:
		return nil, fmt.Errorf("%w: provider profile %q uses model %q and does not let requests choose another "+
			"(leave options.provider.model empty, or ask the operator to add allow-model=true to the profile)", ErrProfileChoice, p.Name, p.Model)
	case m == "":
		out.Model = p.Model
	}
	if t := req.GetTimeout(); t != nil {
		if err := t.CheckValid(); err != nil || t.AsDuration() < 0 {
			return nil, fmt.Errorf("%w: options.provider.timeout is not a valid positive duration", ErrProfileChoice)
		}
	}
	if limit := p.timeout(); req.GetTimeout().AsDuration() <= 0 || req.GetTimeout().AsDuration() > limit {
		out.Timeout = durationpb.New(limit)
	}
	if p.CostPer1KTokens > 0 {
		out.CostPer_1KTokens = p.CostPer1KTokens
	}
	return out, nil
}

// timeout is the profile's bound on one proposal.
func (p Profile) timeout() time.Duration {
	switch {
	case p.Timeout > 0:
		return p.Timeout
	case p.Kind == glv1.ProviderKind_PROVIDER_KIND_COMMAND:
		return DefaultCommandTimeout
	}
	return DefaultOpenAITimeout
}
