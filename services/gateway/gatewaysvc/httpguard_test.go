package gatewaysvc

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

// A wrong HTTP method, a content type no protocol reads, or an unknown
// method name get a JSON error with the status that says so (405 with
// Allow: POST, 415, 404), never the pages' 404 text/plain; with or
// without the token, and before the body is read.
func TestHTTPWrongMethodOrContentType(t *testing.T) {
	g := tokenGateway(t)
	authz := "Bearer " + testToken
	tests := []struct {
		name, method, path, contentType, authz string
		status                                 int
		code, message                          string
	}{
		{"GET a unary method", http.MethodGet, "/greenlight.v1.RunService/ListRuns", "", authz, 405, "unimplemented", "takes POST, not GET"},
		{"PUT with JSON", http.MethodPut, "/greenlight.v1.RunService/GetRun", "application/json", authz, 405, "unimplemented", "takes POST, not PUT"},
		{"GET without the token", http.MethodGet, "/greenlight.v1.BlobService/Stat", "", "", 405, "unimplemented", "takes POST"},
		{"curl -d's default content type", http.MethodPost, "/greenlight.v1.RunService/ListRuns", "application/x-www-form-urlencoded", authz, 415, "invalid_argument", "send application/json"},
		{"text/plain", http.MethodPost, "/greenlight.v1.RunService/ListRuns", "text/plain", authz, 415, "invalid_argument", "Content-Type text/plain"},
		{"no content type", http.MethodPost, "/greenlight.v1.RunService/ListRuns", "", authz, 415, "invalid_argument", "Content-Type none"},
		{"unknown method", http.MethodPost, "/greenlight.v1.RunService/Nope", "application/json", authz, 404, "unimplemented", `has no method "Nope"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req, err := http.NewRequestWithContext(testContext(t), tc.method, g.httpURL+tc.path, strings.NewReader("{}"))
			if err != nil {
				t.Fatal(err)
			}
			if tc.contentType != "" {
				req.Header.Set("Content-Type", tc.contentType)
			}
			if tc.authz != "" {
				req.Header.Set("Authorization", tc.authz)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			var ce connectError
			if resp.StatusCode != tc.status || resp.Header.Get("Content-Type") != "application/json" ||
				json.Unmarshal(body, &ce) != nil || ce.Code != tc.code || !strings.Contains(ce.Message, tc.message) {
				t.Errorf("%s %s = %d %s %s; want %d application/json with code %q and %q",
					tc.method, tc.path, resp.StatusCode, resp.Header.Get("Content-Type"), body, tc.status, tc.code, tc.message)
			}
			if tc.status == 405 && resp.Header.Get("Allow") != "POST" {
				t.Errorf("405 without Allow: POST (Allow %q)", resp.Header.Get("Allow"))
			}
		})
	}
	// What the protocols send still goes through.
	if resp, body := g.postJSON(t, "RunService/ListRuns", `{}`, authz); resp.StatusCode != http.StatusOK {
		t.Errorf("ListRuns with application/json = %d %s", resp.StatusCode, body)
	}
	if resp, body := g.do(t, httpCall{path: "/greenlight.v1.RunService/ListRuns", contentType: "application/json; charset=utf-8", authz: authz, body: []byte("{}")}); resp.StatusCode != http.StatusOK {
		t.Errorf("ListRuns with a charset parameter = %d %s", resp.StatusCode, body)
	}
}
