package auth

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestMiddleware(t *testing.T) {
	tok, _ := New(secret)
	h := tok.Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
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
