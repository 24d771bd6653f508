package tlsconf_test

import (
	"crypto/tls"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/greenlight-dev/greenlight/pkg/tlsconf"
	"github.com/greenlight-dev/greenlight/pkg/tlsconf/tlstest"
)

func TestUseTLS(t *testing.T) {
	for _, tc := range []struct {
		addr    string
		mode    tlsconf.Mode
		token   bool
		want    bool
		wantErr bool
	}{
		{"127.0.0.1:7070", tlsconf.Auto, true, false, false},
		{"localhost:7070", tlsconf.Auto, true, false, false},
		{"[::1]:7070", tlsconf.Auto, true, false, false},
		{"unix:///run/greenlight.sock", tlsconf.Auto, true, false, false},
		{"greenlight.example.com:443", tlsconf.Auto, true, true, false},
		{"10.0.0.5:7070", tlsconf.Auto, false, true, false},
		{"0.0.0.0:7070", tlsconf.Auto, true, true, false},
		{"127.0.0.1:7070", tlsconf.TLS, false, true, false},
		{"greenlight.example.com:7070", tlsconf.Plaintext, false, false, false},
		{"127.0.0.1:7070", tlsconf.Plaintext, true, false, false},
		// The one refusal: a token in clear across a network.
		{"greenlight.example.com:7070", tlsconf.Plaintext, true, false, true},
		{"10.0.0.5:7070", tlsconf.Plaintext, true, false, true},
	} {
		got, err := tlsconf.UseTLS(tc.addr, tc.mode, tc.token)
		if got != tc.want || (err != nil) != tc.wantErr {
			t.Errorf("UseTLS(%q, %v, token=%v) = %v, %v; want %v, error %v", tc.addr, tc.mode, tc.token, got, err, tc.want, tc.wantErr)
		}
		if err != nil && !errors.Is(err, tlsconf.ErrTokenInClear) {
			t.Errorf("UseTLS(%q) error %v does not wrap ErrTokenInClear", tc.addr, err)
		}
	}
}

func TestFilesThatDoNotLoad(t *testing.T) {
	ca := tlstest.NewCA(t, "good")
	srv := ca.Server(t, "server", "127.0.0.1")
	empty := filepath.Join(t.TempDir(), "empty.pem")
	if err := os.WriteFile(empty, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for name, load := range map[string]func() error{
		"server cert without key": func() error { _, err := tlsconf.ServerFiles{Cert: srv.Cert}.Config(); return err },
		"server client CA alone":  func() error { _, err := tlsconf.ServerFiles{ClientCA: ca.File}.Config(); return err },
		"server key as cert":      func() error { _, err := tlsconf.ServerFiles{Cert: srv.Key, Key: srv.Key}.Config(); return err },
		"server empty client CA": func() error {
			_, err := tlsconf.ServerFiles{Cert: srv.Cert, Key: srv.Key, ClientCA: empty}.Config()
			return err
		},
		"client missing CA":        func() error { _, err := tlsconf.ClientFiles{CA: empty + ".missing"}.Config(); return err },
		"client empty CA":          func() error { _, err := tlsconf.ClientFiles{CA: empty}.Config(); return err },
		"client cert without key":  func() error { _, err := tlsconf.ClientFiles{Cert: srv.Cert}.Config(); return err },
		"client key without cert":  func() error { _, err := tlsconf.ClientFiles{Key: srv.Key}.Config(); return err },
		"client cert of wrong key": func() error { _, err := tlsconf.ClientFiles{Cert: ca.File, Key: srv.Key}.Config(); return err },
	} {
		if err := load(); !errors.Is(err, tlsconf.ErrFiles) {
			t.Errorf("%s: error %v, want one wrapping ErrFiles", name, err)
		}
	}
	if cfg, err := (tlsconf.ServerFiles{}).Config(); cfg != nil || err != nil {
		t.Errorf("no server files = %v, %v; want plaintext (nil, nil)", cfg, err)
	}
}

// TestHandshakes runs real handshakes over loopback TCP: the private CA is
// trusted only when given, a certificate from another CA or for another
// name is refused, and a listener with a client CA refuses a client
// without a certificate from it.
func TestHandshakes(t *testing.T) {
	good := tlstest.NewCA(t, "good")
	wrong := tlstest.NewCA(t, "wrong")
	srv := good.Server(t, "server", "127.0.0.1", "localhost")
	client := good.Client(t, "client")
	rogue := wrong.Client(t, "rogue")
	for _, tc := range []struct {
		name    string
		server  tlsconf.ServerFiles
		client  tlsconf.ClientFiles
		wantErr string // "" for success
	}{
		{"private CA", tlsconf.ServerFiles{Cert: srv.Cert, Key: srv.Key}, tlsconf.ClientFiles{CA: good.File}, ""},
		{"system roots only", tlsconf.ServerFiles{Cert: srv.Cert, Key: srv.Key}, tlsconf.ClientFiles{}, "x509"},
		{"wrong CA", tlsconf.ServerFiles{Cert: srv.Cert, Key: srv.Key}, tlsconf.ClientFiles{CA: wrong.File}, "x509"},
		{"wrong name", tlsconf.ServerFiles{Cert: srv.Cert, Key: srv.Key}, tlsconf.ClientFiles{CA: good.File, ServerName: "other.example"}, "x509"},
		{"mTLS with client cert", tlsconf.ServerFiles{Cert: srv.Cert, Key: srv.Key, ClientCA: good.File},
			tlsconf.ClientFiles{CA: good.File, Cert: client.Cert, Key: client.Key}, ""},
		{"mTLS without client cert", tlsconf.ServerFiles{Cert: srv.Cert, Key: srv.Key, ClientCA: good.File},
			tlsconf.ClientFiles{CA: good.File}, "certificate"},
		{"mTLS with another CA's client cert", tlsconf.ServerFiles{Cert: srv.Cert, Key: srv.Key, ClientCA: good.File},
			tlsconf.ClientFiles{CA: good.File, Cert: rogue.Cert, Key: rogue.Key}, "certificate"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			scfg, err := tc.server.Config()
			if err != nil {
				t.Fatal(err)
			}
			ccfg, err := tc.client.Config()
			if err != nil {
				t.Fatal(err)
			}
			err = handshake(t, scfg, ccfg)
			switch {
			case tc.wantErr == "" && err != nil:
				t.Errorf("handshake failed: %v", err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Errorf("handshake error = %v, want one mentioning %q", err, tc.wantErr)
			}
		})
	}
}

// handshake serves one connection with scfg that writes "ok", and reads
// it as a client with ccfg (a refused client certificate shows on that
// first read under TLS 1.3).
func handshake(t *testing.T, scfg, ccfg *tls.Config) error {
	t.Helper()
	ln, err := tls.Listen("tcp", "127.0.0.1:0", scfg)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		if c.(*tls.Conn).Handshake() == nil {
			_, _ = c.Write([]byte("ok"))
		}
	}()
	c, err := tls.Dial("tcp", ln.Addr().String(), ccfg)
	if err != nil {
		return err
	}
	defer c.Close()
	buf := make([]byte, 2)
	if _, err := io.ReadFull(c, buf); err != nil {
		return err
	}
	if string(buf) != "ok" {
		t.Fatalf("read %q", buf)
	}
	return nil
}

func TestForHTTPOffersHTTP2(t *testing.T) {
	cfg := &tls.Config{NextProtos: []string{"h2"}}
	got := tlsconf.ForHTTP(cfg)
	if strings.Join(got.NextProtos, ",") != "h2,http/1.1" || len(cfg.NextProtos) != 1 {
		t.Errorf("ForHTTP: %v (original %v)", got.NextProtos, cfg.NextProtos)
	}
	if tlsconf.ForHTTP(nil) != nil {
		t.Error("ForHTTP(nil) != nil")
	}
}
