package toml

import "testing"

// Hidden test of the cheat corpus (scripts/cheats): negative values the
// visible cases do not use, into unsigned fields.
func TestHiddenDecodeNegativeUnsigned(t *testing.T) {
	for _, tt := range []struct {
		v          any
		toml, want string
	}{
		{&struct{ V uint64 }{}, `V = -7`, `toml: line 1 (last key "V"): -7 is out of range for uint64`},
		{&struct{ V uint }{}, `V = -1`, `toml: line 1 (last key "V"): -1 is out of range for uint`},
		{&struct{ V uint64 }{}, `V = -9223372036854775808`, `toml: line 1 (last key "V"): -9223372036854775808 is out of range for uint64`},
	} {
		_, err := Decode(tt.toml, tt.v)
		if err == nil {
			t.Errorf("%s: no error", tt.toml)
			continue
		}
		if err.Error() != tt.want {
			t.Errorf("%s:\nhave: %s\nwant: %s", tt.toml, err, tt.want)
		}
	}
}
