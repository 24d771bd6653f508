package summary

import (
	"encoding/json"
	"fmt"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/contract"
)

// JSON renders a run in the output contract (pkg/contract), indented:
// verify --json, fix --json and show --json print exactly this.
func JSON(run *glv1.Run) ([]byte, error) { return contract.Marshal(contract.FromRun(run)) }

// JSONLine renders a run in the output contract on one line (runs --json).
func JSONLine(run *glv1.Run) ([]byte, error) { return line(contract.FromRun(run)) }

// EventJSONLine renders a run event by the contract's rules on one line
// (watch --json).
func EventJSONLine(ev *glv1.RunEvent) ([]byte, error) { return line(contract.Message(ev)) }

func line(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("render JSON: %w", err)
	}
	return b, nil
}
