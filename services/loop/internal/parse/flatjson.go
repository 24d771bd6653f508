package parse

import (
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// flatField is one key/value of a flat JSON object. val aliases the input
// unless the string had escapes, in which case it aliases scratch.
type flatField struct {
	key []byte
	val []byte
	str bool
}

// flatDecoder decodes single-level JSON objects of strings, numbers, bools
// and null — the shape of `go test -json` (test2json) events — without
// reflection or allocation per event. It rejects anything nested.
type flatDecoder struct {
	fields  []flatField
	scratch []byte
}

// decode parses b; it returns false when b is not a flat JSON object.
func (d *flatDecoder) decode(b []byte) bool {
	d.fields = d.fields[:0]
	d.scratch = d.scratch[:0]
	i := skipWS(b, 0)
	if i >= len(b) || b[i] != '{' {
		return false
	}
	i = skipWS(b, i+1)
	if i < len(b) && b[i] == '}' {
		return skipWS(b, i+1) == len(b)
	}
	for {
		key, j, ok := d.str(b, i, false)
		if !ok {
			return false
		}
		j = skipWS(b, j)
		if j >= len(b) || b[j] != ':' {
			return false
		}
		j = skipWS(b, j+1)
		if j >= len(b) {
			return false
		}
		var f flatField
		f.key = key
		if b[j] == '"' {
			v, k, ok := d.str(b, j, true)
			if !ok {
				return false
			}
			f.val, f.str, j = v, true, k
		} else {
			k := j
			for k < len(b) && b[k] != ',' && b[k] != '}' && b[k] != ' ' && b[k] != '\t' {
				c := b[k]
				if c == '{' || c == '[' || c == '"' {
					return false
				}
				k++
			}
			if !validLiteral(b[j:k]) {
				return false
			}
			f.val, j = b[j:k], k
		}
		d.fields = append(d.fields, f)
		j = skipWS(b, j)
		if j >= len(b) {
			return false
		}
		if b[j] == '}' {
			return skipWS(b, j+1) == len(b)
		}
		if b[j] != ',' {
			return false
		}
		i = skipWS(b, j+1)
	}
}

// get returns the value of key (nil when absent).
func (d *flatDecoder) get(key string) []byte {
	for i := range d.fields {
		if string(d.fields[i].key) == key {
			return d.fields[i].val
		}
	}
	return nil
}

// str reads a JSON string starting at b[i] == '"'; unescape selects whether
// escapes are decoded (keys are compared raw).
func (d *flatDecoder) str(b []byte, i int, unescape bool) ([]byte, int, bool) {
	if i >= len(b) || b[i] != '"' {
		return nil, 0, false
	}
	start := i + 1
	j := start
	for j < len(b) && b[j] != '"' && b[j] != '\\' {
		if b[j] < 0x20 {
			return nil, 0, false // control characters must be escaped
		}
		j++
	}
	if j < len(b) && b[j] == '"' {
		return b[start:j], j + 1, true
	}
	// Escapes: find the end, then decode into scratch.
	k := j
	for k < len(b) && b[k] != '"' {
		if b[k] < 0x20 {
			return nil, 0, false
		}
		if b[k] == '\\' {
			k++
		}
		k++
	}
	if k >= len(b) {
		return nil, 0, false
	}
	if !unescape {
		// Raw, but the escapes must still be valid JSON.
		if !validEscapes(b[start:k]) {
			return nil, 0, false
		}
		return b[start:k], k + 1, true
	}
	from := len(d.scratch)
	out, ok := appendUnescaped(d.scratch, b[start:k])
	if !ok {
		return nil, 0, false
	}
	d.scratch = out
	return d.scratch[from:], k + 1, true
}

// validEscapes reports whether every backslash escape in s (a JSON string's
// body) is one JSON allows.
func validEscapes(s []byte) bool {
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' {
			continue
		}
		i++
		if i >= len(s) {
			return false
		}
		switch s[i] {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		case 'u':
			if i+4 >= len(s) {
				return false
			}
			if _, err := strconv.ParseUint(string(s[i+1:i+5]), 16, 32); err != nil {
				return false
			}
			i += 4
		default:
			return false
		}
	}
	return true
}

// validLiteral accepts true, false, null and JSON numbers.
func validLiteral(v []byte) bool {
	switch string(v) {
	case "true", "false", "null":
		return true
	}
	i := 0
	if i < len(v) && v[i] == '-' {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(v) && v[i] >= '0' && v[i] <= '9' {
			i++
			n++
		}
		return n
	}
	if i < len(v) && v[i] == '0' {
		i++
	} else if digits() == 0 {
		return false
	}
	if i < len(v) && v[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(v) && (v[i] == 'e' || v[i] == 'E') {
		i++
		if i < len(v) && (v[i] == '+' || v[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(v)
}

func skipWS(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	return i
}

// appendUnescaped decodes the body of a JSON string.
func appendUnescaped(dst, s []byte) ([]byte, bool) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' {
			dst = append(dst, c)
			continue
		}
		i++
		if i >= len(s) {
			return dst, false
		}
		switch s[i] {
		case '"', '\\', '/':
			dst = append(dst, s[i])
		case 'n':
			dst = append(dst, '\n')
		case 't':
			dst = append(dst, '\t')
		case 'r':
			dst = append(dst, '\r')
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'u':
			if i+4 >= len(s) {
				return dst, false
			}
			r, err := strconv.ParseUint(string(s[i+1:i+5]), 16, 32)
			if err != nil {
				return dst, false
			}
			i += 4
			ru := rune(r)
			if utf16.IsSurrogate(ru) && i+6 < len(s) && s[i+1] == '\\' && s[i+2] == 'u' {
				// Only a valid pair is consumed; otherwise the lone
				// surrogate becomes U+FFFD and the next escape stands on
				// its own, as encoding/json decodes it.
				if r2, err := strconv.ParseUint(string(s[i+3:i+7]), 16, 32); err == nil {
					if dec := utf16.DecodeRune(ru, rune(r2)); dec != utf8.RuneError {
						ru = dec
						i += 6
					}
				}
			}
			dst = utf8.AppendRune(dst, ru)
		default:
			return dst, false
		}
	}
	return dst, true
}
