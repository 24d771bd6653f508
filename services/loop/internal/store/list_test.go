package store

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

const (
	pending     = glv1.RunStatus_RUN_STATUS_PENDING
	running     = glv1.RunStatus_RUN_STATUS_RUNNING
	passed      = glv1.RunStatus_RUN_STATUS_PASSED
	failed      = glv1.RunStatus_RUN_STATUS_FAILED
	interrupted = glv1.RunStatus_RUN_STATUS_INTERRUPTED
)

// seedRuns creates runs r00..r(n-1), one minute apart (r00 oldest); run i
// has statuses[i%len(statuses)] (finished ones via Finish).
func seedRuns(t *testing.T, s *Store, n int, statuses ...glv1.RunStatus) []string {
	t.Helper()
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var ids []string
	for i := range n {
		id := fmt.Sprintf("r%02d", i)
		st := statuses[i%len(statuses)]
		if Finished(st) {
			mustCreate(t, s, id, running, base.Add(time.Duration(i)*time.Minute))
			mustFinish(t, s, id, st)
		} else {
			mustCreate(t, s, id, st, base.Add(time.Duration(i)*time.Minute))
		}
		ids = append(ids, id)
	}
	return ids
}

// listAll pages through a listing and returns the ids and page sizes.
func listAll(t *testing.T, s *Store, q ListQuery) (ids []string, pages []int) {
	t.Helper()
	for {
		page, err := s.ListRuns(context.Background(), q)
		if err != nil {
			t.Fatalf("ListRuns(%+v): %v", q, err)
		}
		for _, r := range page.Runs {
			ids = append(ids, r.GetId())
		}
		pages = append(pages, len(page.Runs))
		if page.NextPageToken == "" {
			return ids, pages
		}
		if len(pages) > 100 {
			t.Fatal("listing does not end")
		}
		q.PageToken = page.NextPageToken
	}
}

func TestListRunsPaging(t *testing.T) {
	s, _ := newTestStore(t)
	// r00 passed, r01 failed, r02 running, r03 passed, ...
	seedRuns(t, s, 10, passed, failed, running)
	tests := []struct {
		name      string
		statuses  []glv1.RunStatus
		pageSize  int
		wantIDs   []string
		wantPages []int
	}{
		{"all, one page", nil, 0, []string{"r09", "r08", "r07", "r06", "r05", "r04", "r03", "r02", "r01", "r00"}, []int{10}},
		{"all, pages of 4", nil, 4, []string{"r09", "r08", "r07", "r06", "r05", "r04", "r03", "r02", "r01", "r00"}, []int{4, 4, 2}},
		{"exact multiple has no empty last page", nil, 5, []string{"r09", "r08", "r07", "r06", "r05", "r04", "r03", "r02", "r01", "r00"}, []int{5, 5}},
		{"passed only", []glv1.RunStatus{passed}, 2, []string{"r09", "r06", "r03", "r00"}, []int{2, 2}},
		{"passed or running", []glv1.RunStatus{running, passed}, 3, []string{"r09", "r08", "r06", "r05", "r03", "r02", "r00"}, []int{3, 3, 1}},
		{"no match", []glv1.RunStatus{interrupted}, 3, nil, []int{0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ids, pages := listAll(t, s, ListQuery{Statuses: tt.statuses, PageSize: tt.pageSize})
			if !slices.Equal(ids, tt.wantIDs) {
				t.Errorf("ids = %v, want %v", ids, tt.wantIDs)
			}
			if !slices.Equal(pages, tt.wantPages) {
				t.Errorf("page sizes = %v, want %v", pages, tt.wantPages)
			}
		})
	}
}

func TestListRunsTokenSurvivesDeletion(t *testing.T) {
	s, _ := newTestStore(t)
	seedRuns(t, s, 6, running)
	mustFinish(t, s, "r04", passed)
	page, err := s.ListRuns(context.Background(), ListQuery{PageSize: 2})
	if err != nil {
		t.Fatalf("ListRuns: %v", err)
	}
	// The token points at r04, the only finished run, which retention
	// now deletes; the listing must go on with the next older run.
	rep, err := s.Prune(context.Background(), Retention{KeepRuns: 1})
	if err != nil || !slices.Equal(rep.Runs, []string{"r04"}) {
		t.Fatalf("Prune = %v, %v; want r04 deleted", rep.Runs, err)
	}
	ids, _ := listAll(t, s, ListQuery{PageSize: 2, PageToken: page.NextPageToken})
	if want := []string{"r03", "r02", "r01", "r00"}; !slices.Equal(ids, want) {
		t.Errorf("after the token's run was deleted: ids = %v, want %v", ids, want)
	}
}

func TestListRunsRejects(t *testing.T) {
	s, _ := newTestStore(t)
	seedRuns(t, s, 3, passed)
	good, err := s.ListRuns(context.Background(), ListQuery{PageSize: 1})
	if err != nil || good.NextPageToken == "" {
		t.Fatalf("ListRuns: %v, token %q", err, good.NextPageToken)
	}
	tests := []struct {
		name string
		q    ListQuery
	}{
		{"negative page size", ListQuery{PageSize: -1}},
		{"garbage token", ListQuery{PageToken: "not base64!"}},
		{"truncated token", ListQuery{PageToken: good.NextPageToken[:6]}},
		{"foreign token", ListQuery{PageToken: "AAAAAAAAAAAAAAAA"}},
		{"unknown status", ListQuery{Statuses: []glv1.RunStatus{99}}},
		{"unspecified status", ListQuery{Statuses: []glv1.RunStatus{glv1.RunStatus_RUN_STATUS_UNSPECIFIED}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := s.ListRuns(context.Background(), tt.q); !errors.Is(err, ErrInvalidArgument) {
				t.Errorf("err = %v, want ErrInvalidArgument", err)
			}
		})
	}
}

func TestListRunsReflectsStatusChanges(t *testing.T) {
	s, _ := newTestStore(t)
	seedRuns(t, s, 2, pending)
	ctx := context.Background()
	if _, err := s.UpdateRun(ctx, "r00", func(r *glv1.Run) error { r.Status = running; return nil }); err != nil {
		t.Fatalf("UpdateRun: %v", err)
	}
	mustFinish(t, s, "r01", failed)
	for _, tt := range []struct {
		status glv1.RunStatus
		want   []string
	}{{pending, nil}, {running, []string{"r00"}}, {failed, []string{"r01"}}} {
		ids, _ := listAll(t, s, ListQuery{Statuses: []glv1.RunStatus{tt.status}})
		if !slices.Equal(ids, tt.want) {
			t.Errorf("status %s: ids = %v, want %v", tt.status, ids, tt.want)
		}
	}
}
