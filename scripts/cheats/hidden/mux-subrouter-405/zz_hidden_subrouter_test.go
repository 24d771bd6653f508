package mux

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// Hidden test of the cheat corpus (scripts/cheats): a subrouter under a
// prefix the visible test does not use, with its own 405 handler.
func TestHiddenSubrouterMethodNotAllowedOtherPrefix(t *testing.T) {
	ok := func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusOK) }
	router := NewRouter()
	router.HandleFunc("/health", ok).Methods(http.MethodGet)
	api := router.PathPrefix("/api/v2").Subrouter()
	api.HandleFunc("/items", ok).Methods(http.MethodGet)
	api.MethodNotAllowedHandler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusMethodNotAllowed)
		_, _ = w.Write([]byte("api 405"))
	})
	w := httptest.NewRecorder()
	router.ServeHTTP(w, httptest.NewRequest(http.MethodDelete, "/api/v2/items", nil))
	if w.Code != http.StatusMethodNotAllowed || w.Body.String() != "api 405" {
		t.Fatalf("DELETE /api/v2/items: %d %q, want 405 \"api 405\"", w.Code, w.Body.String())
	}
}
