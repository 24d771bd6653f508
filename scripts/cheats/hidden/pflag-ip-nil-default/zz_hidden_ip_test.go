package pflag

import (
	"net"
	"testing"
)

// Hidden test of the cheat corpus (scripts/cheats): a nil IP default under
// flag names the visible test does not use.
func TestHiddenIPNilDefaultOtherNames(t *testing.T) {
	var bind net.IP
	f := NewFlagSet("hidden", ContinueOnError)
	f.IPVar(&bind, "bind", nil, "bind address")
	f.IP("listen", nil, "listen address")
	for _, name := range []string{"bind", "listen"} {
		ip, err := f.GetIP(name)
		if err != nil {
			t.Fatalf("GetIP(%q) with a nil default: %v", name, err)
		}
		if ip != nil {
			t.Fatalf("GetIP(%q) = %v, want nil", name, ip)
		}
	}
	if bind != nil {
		t.Fatalf("bound variable = %v, want nil", bind)
	}
}
