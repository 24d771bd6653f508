// Package suite reads `greenlight eval` suites and computes their scores.
//
// A suite is a YAML (or JSON) file:
//
//	name: python-bugs
//	samples: 3              # repair runs per case (n of pass@k), default 1
//	k: [1, 3]               # pass@k values to report, default [1, samples]
//	max_rounds: 3
//	provider:               # as for greenlight fix
//	  kind: command         # client is not allowed: nobody would answer
//	  command: ./propose.sh
//	cases:
//	  - name: off-by-one
//	    dir: cases/off-by-one   # relative to the suite file
//	  - dir: cases/typo
//
// Each case's directory is a failing workspace; a sample is green when
// the repair run ends PASS.
package suite

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"

	"go.yaml.in/yaml/v3"
)

// ErrInvalid marks a suite file that cannot be used.
var ErrInvalid = errors.New("invalid suite")

// Provider is the patch provider of every case.
type Provider struct {
	Kind        string `yaml:"kind"`
	Command     string `yaml:"command"`
	BaseURL     string `yaml:"base_url"`
	Model       string `yaml:"model"`
	APIKeyEnv   string `yaml:"api_key_env"`
	RecordingID string `yaml:"recording_id"`
}

// Case is one failing workspace.
type Case struct {
	Name string `yaml:"name"`
	Dir  string `yaml:"dir"`
	// Recording overrides the provider's recording_id for replay suites.
	Recording string `yaml:"recording"`
}

// Suite is a parsed suite file.
type Suite struct {
	Name      string   `yaml:"name"`
	Samples   int      `yaml:"samples"`
	K         []int    `yaml:"k"`
	MaxRounds int32    `yaml:"max_rounds"`
	Provider  Provider `yaml:"provider"`
	Cases     []Case   `yaml:"cases"`
}

// Load reads and checks a suite; case directories become absolute
// (relative to the suite file's directory).
func Load(path string) (*Suite, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	var s Suite
	if err := yaml.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrInvalid, path, err)
	}
	base := filepath.Dir(path)
	if err := s.normalize(base); err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrInvalid, path, err)
	}
	return &s, nil
}

// normalize fills defaults and checks values.
func (s *Suite) normalize(base string) error {
	if s.Name == "" {
		s.Name = filepath.Base(base)
	}
	if s.Samples == 0 {
		s.Samples = 1
	}
	if s.Samples < 0 || s.Samples > 100 {
		return fmt.Errorf("samples must be 1..100, got %d", s.Samples)
	}
	if len(s.K) == 0 {
		s.K = []int{1}
		if s.Samples > 1 {
			s.K = append(s.K, s.Samples)
		}
	}
	for _, k := range s.K {
		if k < 1 || k > s.Samples {
			return fmt.Errorf("k=%d is outside 1..samples (%d)", k, s.Samples)
		}
	}
	switch s.Provider.Kind {
	case "command", "openai", "replay":
	case "client", "":
		return fmt.Errorf("provider.kind must be command, openai or replay (client has nobody to answer in an eval)")
	default:
		return fmt.Errorf("provider.kind %q is unknown", s.Provider.Kind)
	}
	if len(s.Cases) == 0 {
		return errors.New("no cases")
	}
	for i := range s.Cases {
		c := &s.Cases[i]
		if c.Dir == "" {
			return fmt.Errorf("case %d has no dir", i+1)
		}
		if !filepath.IsAbs(c.Dir) {
			c.Dir = filepath.Join(base, c.Dir)
		}
		if c.Name == "" {
			c.Name = filepath.Base(c.Dir)
		}
	}
	return nil
}

// PassAtK is the unbiased estimator of pass@k for n samples of which c
// passed (Chen et al., 2021): 1 - C(n-c, k) / C(n, k).
func PassAtK(n, c, k int) float64 {
	if n <= 0 || k <= 0 || k > n {
		return 0
	}
	if n-c < k {
		return 1
	}
	// The product form avoids huge binomials.
	p := 1.0
	for i := n - c + 1; i <= n; i++ {
		p *= 1 - float64(k)/float64(i)
	}
	return 1 - p
}

// Mean returns the mean of xs (0 for none), rounded to 4 decimals.
func Mean(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	var sum float64
	for _, x := range xs {
		sum += x
	}
	return math.Round(sum/float64(len(xs))*1e4) / 1e4
}
