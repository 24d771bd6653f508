package web

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/gateway/internal/fanout"
	"github.com/greenlight-dev/greenlight/services/gateway/internal/loopfake"
)

func secondsDur(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

// site is the pages served over a fake loop.
type site struct {
	loop *loopfake.Loop
	srv  *httptest.Server
	logs map[string]*glv1.Digest
}

func startSite(t *testing.T) *site {
	t.Helper()
	loop := loopfake.Start(t)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	runs := glv1.NewRunServiceClient(loop.Conn)
	hub := fanout.NewHub(ctx, runs, nil, fanout.Options{})
	srv := httptest.NewServer(New(Deps{Runs: runs, Blobs: glv1.NewBlobServiceClient(loop.Conn), Watch: hub}))
	t.Cleanup(srv.Close)
	s := &site{loop: loop, srv: srv, logs: map[string]*glv1.Digest{}}
	logs := loopfake.Logs()
	logs["go-test"] = loopfake.FailingTestLog
	for name, text := range logs {
		d, err := loop.Blobs.Put(ctx, strings.NewReader(text))
		if err != nil {
			t.Fatal(err)
		}
		s.logs[name] = d.Proto()
	}
	loop.Put(loopfake.PassingFixRun("run-pass", s.logs))
	loop.Put(loopfake.FailingVerifyRun("run-fail", s.logs))
	return s
}

// get fetches path and returns status, headers and body.
func (s *site) get(t *testing.T, path string, header ...string) (int, http.Header, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, s.srv.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, resp.Header, string(body)
}
