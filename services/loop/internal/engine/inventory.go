package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sort"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/blob"
	"github.com/greenlight-dev/greenlight/services/loop/internal/score"
)

// inventoryLine is one test of a stored inventory (Result.inventory).
type inventoryLine struct {
	Step   string `json:"step"`
	ID     string `json:"id"`
	Status string `json:"status"`
	Flaky  bool   `json:"flaky,omitempty"`
}

// storeInventory writes every test of a verification's steps, sorted by
// step then id, as JSON lines to the blob store: tests[] keeps a capped
// number of records, the inventory keeps them all, so a harness can
// compare two verifications without running them again. nil when no step
// counted tests.
func (r *run) storeInventory(ctx context.Context, steps []score.StepOutcome) (*glv1.TestInventory, error) {
	var lines []inventoryLine
	complete, any := true, false
	for _, o := range steps {
		rep := o.Report
		if rep == nil || !rep.HasTests {
			continue
		}
		any = true
		complete = complete && rep.InventoryComplete
		for _, t := range rep.Inventory {
			st := t.Status.String()
			if t.Flaky {
				st = "passed"
			}
			lines = append(lines, inventoryLine{Step: o.Step.GetName(), ID: t.ID, Status: st, Flaky: t.Flaky})
		}
	}
	if !any {
		return nil, nil
	}
	sort.SliceStable(lines, func(i, j int) bool {
		if lines[i].Step != lines[j].Step {
			return lines[i].Step < lines[j].Step
		}
		return lines[i].ID < lines[j].ID
	})
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	for _, l := range lines {
		if err := enc.Encode(l); err != nil {
			return nil, fmt.Errorf("encode test inventory: %w", err)
		}
	}
	d, err := r.e.d.Blobs.Put(ctx, &buf)
	if err != nil {
		return nil, fmt.Errorf("%w: store test inventory: %w", errInfra, err)
	}
	return &glv1.TestInventory{Blob: blob.Digest{Hash: d.Hash, Size: d.Size}.Proto(), Tests: int32(len(lines)), Complete: complete}, nil
}
