package auth

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestMiddleware(t *testing.T) {
	tok, _ := New(secret)
	keys, err := NewKeys([]string{secret}, nil)
	if err != nil {
		t.Fatal(err)
	}
	h := keys.Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte("report"))
	}), "/healthz")
	cookie := &http.Cookie{Name: CookieName, Value: tok.CookieValue()}
	tests := []struct {
		name     string
		target   string
		header   string
		cookie   *http.Cookie
		want     int
		location string
	}{
		{"nothing", "/runs/r1", "", nil, http.StatusUnauthorized, ""},
		{"wrong bearer", "/runs/r1", "Bearer wrong-wrong-wrong-wrong", nil, http.StatusUnauthorized, ""},
		{"wrong bearer beats good cookie", "/runs/r1", "Bearer wrong-wrong-wrong-wrong", cookie, http.StatusUnauthorized, ""},
		{"bearer", "/runs/r1", "Bearer " + secret, nil, http.StatusOK, ""},
		{"cookie", "/runs/r1", "", cookie, http.StatusOK, ""},
		{"forged cookie", "/runs/r1", "", &http.Cookie{Name: CookieName, Value: secret}, http.StatusUnauthorized, ""},
		{"wrong query token", "/runs/r1?token=nope", "", nil, http.StatusUnauthorized, ""},
		{"query token", "/runs/r1?a=1&token=" + secret, "", nil, http.StatusSeeOther, "/runs/r1?a=1"},
		{"health open", "/healthz", "", nil, http.StatusOK, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := httptest.NewRequest(http.MethodGet, tt.target, nil)
			if tt.header != "" {
				req.Header.Set("Authorization", tt.header)
			}
			if tt.cookie != nil {
				req.AddCookie(tt.cookie)
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != tt.want {
				t.Fatalf("code = %d, want %d", rec.Code, tt.want)
			}
			body := rec.Body.String()
			if tt.want == http.StatusUnauthorized && (body != "unauthorized\n" || strings.Contains(body, "report")) {
				t.Fatalf("401 body = %q", body)
			}
			if tt.location != "" {
				if got := rec.Header().Get("Location"); got != tt.location {
					t.Fatalf("Location = %q, want %q", got, tt.location)
				}
				set := rec.Result().Cookies()
				if len(set) != 1 || set[0].Value != tok.CookieValue() || !set[0].HttpOnly || set[0].SameSite != http.SameSiteStrictMode {
					t.Fatalf("cookie = %+v", set)
				}
			}
		})
	}
}

// bodyReader fails the test when the request body is read.
type bodyReader struct{ t *testing.T }

func (b bodyReader) Read([]byte) (int, error) {
	b.t.Error("the body of an unauthenticated request was read")
	return 0, io.EOF
}

// TestRequireBearer: the API answers 401 before anything reads the body
// unless one valid bearer token is present (a session cookie is not
// enough), and hands the token's identity on.
func TestRequireBearer(t *testing.T) {
	keys, err := NewKeys([]string{secret, secretB}, []string{operator})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := New(secretB)
	var got Identity
	h := keys.RequireBearer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got, _ = IdentityFrom(r.Context())
		_, _ = io.Copy(io.Discard, r.Body)
	}), nil)
	tests := []struct {
		name    string
		headers []string
		cookie  bool
		want    int
	}{
		{"nothing", nil, false, http.StatusUnauthorized},
		{"wrong", []string{"Bearer wrong-wrong-wrong-wrong"}, false, http.StatusUnauthorized},
		{"two headers", []string{"Bearer " + secretB, "Bearer " + secretB}, false, http.StatusUnauthorized},
		{"cookie only", nil, true, http.StatusUnauthorized},
		{"tenant B", []string{"Bearer " + secretB}, false, http.StatusOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got = Identity{}
			body := io.Reader(strings.NewReader("{not json"))
			if tt.want != http.StatusOK {
				body = bodyReader{t}
			}
			req := httptest.NewRequest(http.MethodPost, "/greenlight.v1.RunService/GetRun", body)
			for _, v := range tt.headers {
				req.Header.Add("Authorization", v)
			}
			if tt.cookie {
				req.AddCookie(&http.Cookie{Name: CookieName, Value: b.CookieValue()})
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != tt.want {
				t.Fatalf("code = %d, want %d", rec.Code, tt.want)
			}
			if tt.want == http.StatusOK && got.Owner != "token:"+b.fingerprint() {
				t.Fatalf("identity = %+v", got)
			}
		})
	}
}

// TestMiddlewareIdentity: pages see the identity of the token or cookie
// that opened them; the cookie a tenant's ?token= sets is that tenant's.
func TestMiddlewareIdentity(t *testing.T) {
	keys, err := NewKeys([]string{secret, secretB}, []string{operator})
	if err != nil {
		t.Fatal(err)
	}
	var got Identity
	h := keys.Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got, _ = IdentityFrom(r.Context())
	}))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/runs/r1?token="+secretB, nil))
	cookies := rec.Result().Cookies()
	if rec.Code != http.StatusSeeOther || len(cookies) != 1 {
		t.Fatalf("exchange: %d %v", rec.Code, cookies)
	}
	req := httptest.NewRequest(http.MethodGet, "/runs/r1", nil)
	req.AddCookie(cookies[0])
	h.ServeHTTP(httptest.NewRecorder(), req)
	b, _ := New(secretB)
	if got != (Identity{Owner: "token:" + b.fingerprint()}) {
		t.Fatalf("identity from B's cookie = %+v", got)
	}
	req = httptest.NewRequest(http.MethodGet, "/", nil)
	req.Header.Set("Authorization", "Bearer "+operator)
	h.ServeHTTP(httptest.NewRecorder(), req)
	if !got.Operator {
		t.Fatalf("identity from the operator token = %+v", got)
	}
}

// A browser opening a page without the token (the report URL the CLI
// prints) gets the same 401 with a form that takes the token once, to this
// page's path; a program gets the bare word.
func TestBrowserGetsTheTokenForm(t *testing.T) {
	keys, err := NewKeys([]string{secret}, nil)
	if err != nil {
		t.Fatal(err)
	}
	h := keys.Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write([]byte("the-page-itself")) }))
	tests := []struct {
		name, target, accept string
		form                 bool
	}{
		{"browser", "/runs/r_1", "text/html,application/xhtml+xml,*/*;q=0.8", true},
		{"browser with a wrong token", "/runs/r_1?token=nope", "text/html", true},
		{"curl", "/runs/r_1", "*/*", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequest(http.MethodGet, tc.target, nil)
			req.Header.Set("Accept", tc.accept)
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			body := rec.Body.String()
			if rec.Code != http.StatusUnauthorized || strings.Contains(body, "the-page-itself") {
				t.Fatalf("code %d body %q", rec.Code, body)
			}
			form := strings.Contains(body, `<form method="get" action="/runs/r_1">`) && strings.Contains(body, `name="token"`)
			if form != tc.form {
				t.Errorf("token form shown = %v, want %v:\n%s", form, tc.form, body)
			}
			if tc.form && !strings.Contains(rec.Header().Get("Content-Security-Policy"), "default-src 'none'") {
				t.Errorf("the form page has no strict CSP: %q", rec.Header().Get("Content-Security-Policy"))
			}
			if !tc.form && body != "unauthorized\n" {
				t.Errorf("a program's 401 body = %q", body)
			}
		})
	}
	// The form's answer is the ?token= exchange: a cookie and the page.
	req := httptest.NewRequest(http.MethodGet, "/runs/r_1?token="+secret, nil)
	req.Header.Set("Accept", "text/html")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != "/runs/r_1" || rec.Header().Get("Set-Cookie") == "" {
		t.Errorf("submitting the form: %d, Location %q", rec.Code, rec.Header().Get("Location"))
	}
}
