package auth

import (
	"net/http"
	"net/url"
	"slices"
)

// CookieName is the browser session cookie set by ?token=.
const CookieName = "greenlight_session"

// TokenParam is the query parameter a browser may carry the token in once.
const TokenParam = "token"

// Middleware guards next: a request passes with a valid "Authorization:
// Bearer" header or session cookie. A request carrying a valid ?token= gets
// the session cookie (HttpOnly, SameSite=Strict, Secure over TLS) and a 303
// redirect to the same URL without the parameter, so the secret leaves the
// address bar and history. Everything else gets a bare 401. open lists
// paths that need no token (a health probe).
func (t *Token) Middleware(next http.Handler, open ...string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !t.Enabled() || slices.Contains(open, r.URL.Path) {
			next.ServeHTTP(w, r)
			return
		}
		q := r.URL.Query()
		if q.Has(TokenParam) {
			t.exchange(w, r, q)
			return
		}
		if h := r.Header.Get("Authorization"); h != "" {
			if t.CheckBearer(h) {
				next.ServeHTTP(w, r)
				return
			}
			refuse(w)
			return
		}
		if c, err := r.Cookie(CookieName); err == nil && t.CheckCookie(c.Value) {
			next.ServeHTTP(w, r)
			return
		}
		refuse(w)
	})
}

// exchange turns a valid ?token= into the session cookie and redirects to
// the URL without it.
func (t *Token) exchange(w http.ResponseWriter, r *http.Request, q url.Values) {
	if !t.Check(q.Get(TokenParam)) {
		refuse(w)
		return
	}
	http.SetCookie(w, &http.Cookie{
		Name: CookieName, Value: t.CookieValue(), Path: "/",
		HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil,
	})
	q.Del(TokenParam)
	u := *r.URL
	u.RawQuery = q.Encode()
	w.Header().Set("Referrer-Policy", "no-referrer")
	http.Redirect(w, r, u.RequestURI(), http.StatusSeeOther)
}

// refuse answers 401 with nothing that tells a wrong token from a missing one.
func refuse(w http.ResponseWriter) {
	w.Header().Set("WWW-Authenticate", `Bearer realm="greenlight"`)
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusUnauthorized)
	_, _ = w.Write([]byte("unauthorized\n"))
}
