package web

import (
	"bufio"
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/greenlight-dev/greenlight/services/gateway/internal/loopfake"
)

// sseEvent is one parsed Server-Sent Event.
type sseEvent struct{ id, name, data string }

// readSSE reads events from path until the stream ends.
func readSSE(t *testing.T, url string, lastID string) []sseEvent {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if lastID != "" {
		req.Header.Set("Last-Event-ID", lastID)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		t.Fatalf("events = %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	var evs []sseEvent
	var cur sseEvent
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if cur.name != "" {
				evs = append(evs, cur)
			}
			cur = sseEvent{}
		case strings.HasPrefix(line, "id: "):
			cur.id = strings.TrimPrefix(line, "id: ")
		case strings.HasPrefix(line, "event: "):
			cur.name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			cur.data = strings.TrimPrefix(line, "data: ")
		}
	}
	return evs
}

func TestEventStream(t *testing.T) {
	s := startSite(t)
	s.loop.Emit("run-live", loopfake.PassingEvents("run-live")...)
	evs := readSSE(t, s.srv.URL+"/runs/run-live/events", "")
	var names []string
	for _, e := range evs {
		names = append(names, e.name)
	}
	want := "note step log step_done step step_done step step_done step log step_done finished"
	if got := strings.Join(names, " "); got != want {
		t.Fatalf("events = %s\nwant     %s", got, want)
	}
	if evs[1].id != "2" || !strings.Contains(evs[1].data, `"command":"go mod download"`) {
		t.Fatalf("step event = %+v", evs[1])
	}
	if !strings.Contains(evs[3].data, `"cache_hit":true`) || !strings.Contains(evs[3].data, `"exit_code":"0"`) {
		t.Fatalf("step_done event = %+v", evs[3])
	}

	// A reconnecting browser resumes after Last-Event-ID.
	resumed := readSSE(t, s.srv.URL+"/runs/run-live/events", evs[9].id)
	if len(resumed) != 2 || resumed[0].id != evs[10].id || resumed[1].name != "finished" {
		t.Fatalf("resumed = %+v", resumed)
	}
}

func TestEventStreamOfUnknownRunIs404(t *testing.T) {
	s := startSite(t)
	resp, err := http.Get(s.srv.URL + "/runs/nope/events")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Fatalf("events of unknown run = %d, want 404", resp.StatusCode)
	}
}
