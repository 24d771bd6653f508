package auth

import (
	"fmt"
	"html"
	"net/http"
	"net/url"
	"slices"
	"strings"
)

// CookieName is the browser session cookie set by ?token=.
const CookieName = "greenlight_session"

// TokenParam is the query parameter a browser may carry the token in once.
const TokenParam = "token"

// Middleware guards next: a request passes with a valid "Authorization:
// Bearer" header or session cookie, and next sees its Identity in the
// request's context (IdentityFrom). A request carrying a valid ?token=
// gets that token's session cookie (HttpOnly, SameSite=Strict, Secure over
// TLS) and a 303 redirect to the same URL without the parameter, so the
// secret leaves the address bar and history. Everything else gets a bare
// 401. open lists paths that need no token (a health probe).
func (k *Keys) Middleware(next http.Handler, open ...string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if slices.Contains(open, r.URL.Path) {
			next.ServeHTTP(w, r)
			return
		}
		if !k.Enabled() {
			next.ServeHTTP(w, r.WithContext(WithIdentity(r.Context(), anonymous)))
			return
		}
		q := r.URL.Query()
		if q.Has(TokenParam) {
			k.exchange(w, r, q)
			return
		}
		if h := r.Header.Get("Authorization"); h != "" {
			if id, ok := k.Bearer(h); ok {
				next.ServeHTTP(w, r.WithContext(WithIdentity(r.Context(), id)))
				return
			}
			refuse(w)
			return
		}
		if c, err := r.Cookie(CookieName); err == nil {
			if id, ok := k.Cookie(c.Value); ok {
				next.ServeHTTP(w, r.WithContext(WithIdentity(r.Context(), id)))
				return
			}
		}
		refusePage(w, r)
	})
}

// RequireBearer guards the HTTP/JSON API: a request passes only with a
// valid "Authorization: Bearer" header (the session cookie does not open
// the API), checked before anything reads the body, so a malformed body
// without a token, or with a wrong one, is refused and never decoded.
// refused writes the refusal in the request's protocol (nil: a bare 401).
func (k *Keys) RequireBearer(next http.Handler, refused func(http.ResponseWriter, *http.Request)) http.Handler {
	if refused == nil {
		refused = func(w http.ResponseWriter, _ *http.Request) { refuse(w) }
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !k.Enabled() {
			next.ServeHTTP(w, r.WithContext(WithIdentity(r.Context(), anonymous)))
			return
		}
		if h := r.Header.Values("Authorization"); len(h) == 1 {
			if id, ok := k.Bearer(h[0]); ok {
				next.ServeHTTP(w, r.WithContext(WithIdentity(r.Context(), id)))
				return
			}
		}
		refused(w, r)
	})
}

// exchange turns a valid ?token= into its session cookie and redirects to
// the URL without it.
func (k *Keys) exchange(w http.ResponseWriter, r *http.Request, q url.Values) {
	id, ok := k.Secret(q.Get(TokenParam))
	if !ok {
		refusePage(w, r)
		return
	}
	http.SetCookie(w, &http.Cookie{
		Name: CookieName, Value: k.cookieFor(id), Path: "/",
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

// tokenForm is the 401 page a browser gets: it says what the page needs
// and takes the token once, as ?token= (exchange turns it into the session
// cookie and takes it out of the address). No script, no style: nothing
// the strict CSP would have to allow.
const tokenForm = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>greenlight: token needed</title></head>
<body>
<h1>greenlight: token needed</h1>
<p>This greenlight gateway requires its access token (the one it was started
with: <code>--token</code>, <code>GREENLIGHT_TOKEN</code>, or the token file).
Enter it once: the browser then keeps a session cookie that opens the report
pages (never the API), and the token leaves the address bar.</p>
<form method="get" action="%s">
<label>Token <input type="password" name="token" autocomplete="current-password" required autofocus></label>
<button type="submit">Open</button>
</form>
</body></html>
`

// refusePage is refuse for a browser asking for a page (GET or HEAD
// accepting HTML): the same 401, with the token form instead of a bare
// word. It says nothing about why the request was refused either.
func refusePage(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead || !strings.Contains(r.Header.Get("Accept"), "text/html") {
		refuse(w)
		return
	}
	w.Header().Set("WWW-Authenticate", `Bearer realm="greenlight"`)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Referrer-Policy", "no-referrer")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Content-Security-Policy", "default-src 'none'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
	w.WriteHeader(http.StatusUnauthorized)
	_, _ = fmt.Fprintf(w, tokenForm, html.EscapeString(r.URL.Path))
}
