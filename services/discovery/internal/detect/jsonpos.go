package detect

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// lineAt converts a byte offset into a 1-based line number.
func lineAt(data []byte, off int64) int {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	if off < 0 {
		off = 0
	}
	return bytes.Count(data[:off], []byte("\n")) + 1
}

// jsonProblem turns an encoding/json error into a Problem with the line.
func jsonProblem(file string, data []byte, err error) Problem {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return Problem{File: file, Line: lineAt(data, se.Offset), Msg: "invalid JSON: " + se.Error()}
	case errors.As(err, &te):
		return Problem{File: file, Line: lineAt(data, te.Offset), Msg: fmt.Sprintf("invalid value for %q: want %s, got %s", te.Field, te.Type, te.Value)}
	}
	return Problem{File: file, Msg: "invalid JSON: " + err.Error()}
}

// jsonKeyLines returns the line of every key of the top-level object's
// member named object (e.g. "scripts"), walking tokens so the positions
// are exact even when the same key appears elsewhere. A key is a string
// token inside an object that is followed by ':'.
func jsonKeyLines(data []byte, object string) map[string]int {
	out := map[string]int{}
	dec := json.NewDecoder(bytes.NewReader(data))
	var stack []json.Delim
	inside := false
	for {
		tok, err := dec.Token()
		if err != nil {
			return out
		}
		switch t := tok.(type) {
		case json.Delim:
			if t == '{' || t == '[' {
				stack = append(stack, t)
				continue
			}
			stack = stack[:len(stack)-1]
			if len(stack) == 1 {
				inside = false
			}
		case string:
			if len(stack) == 0 || stack[len(stack)-1] != '{' {
				continue
			}
			off := dec.InputOffset()
			if !followedByColon(data, off) {
				continue
			}
			switch {
			case len(stack) == 1:
				inside = t == object
			case len(stack) == 2 && inside:
				out[t] = lineAt(data, off)
			}
		}
	}
}

// followedByColon reports whether the next non-space byte at off is ':'.
func followedByColon(data []byte, off int64) bool {
	for i := off; i < int64(len(data)); i++ {
		switch data[i] {
		case ' ', '\t', '\r', '\n':
			continue
		case ':':
			return true
		default:
			return false
		}
	}
	return false
}
