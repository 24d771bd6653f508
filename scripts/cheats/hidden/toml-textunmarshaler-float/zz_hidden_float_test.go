package toml

import "testing"

// hiddenText keeps the text a TextUnmarshaler is handed.
type hiddenText struct{ text string }

func (h *hiddenText) UnmarshalText(b []byte) error { h.text = string(b); return nil }

// Hidden test of the cheat corpus (scripts/cheats): floats the visible
// test does not use reach a TextUnmarshaler in their shortest form.
func TestHiddenDecodeTextUnmarshalerFloatOther(t *testing.T) {
	for _, tt := range []struct{ toml, want string }{
		{"v = 2.5", "2.5"},
		{"v = 1e21", "1e+21"},
		{"v = -0.25", "-0.25"},
		{"v = 6.02214076e23", "6.02214076e+23"},
	} {
		var s struct{ V hiddenText }
		if _, err := Decode(tt.toml, &s); err != nil {
			t.Fatal(err)
		}
		if s.V.text != tt.want {
			t.Errorf("%s: have %s, want %s", tt.toml, s.V.text, tt.want)
		}
	}
}
