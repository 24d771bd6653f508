package repoconfig

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"gopkg.in/yaml.v3"
)

// parseJSON reads a JSON document into a yaml.Node tree with the line of
// every key and value, so JSON files share the YAML decoder and report
// unknown keys and bad values with their exact line. (encoding/json's
// DisallowUnknownFields names an unknown field but not where it is.)
func parseJSON(file string, data []byte) (*yaml.Node, error) {
	p := &jparser{file: file, data: data, dec: json.NewDecoder(bytes.NewReader(data))}
	p.dec.UseNumber()
	tok, err := p.dec.Token()
	if err != nil {
		return nil, p.syntax(err)
	}
	n, err := p.value(tok)
	if err != nil {
		return nil, err
	}
	if _, err := p.dec.Token(); !errors.Is(err, io.EOF) {
		return nil, &Error{File: file, Line: p.line(), Msg: "invalid JSON: unexpected data after the top-level value"}
	}
	return n, nil
}

type jparser struct {
	file string
	data []byte
	dec  *json.Decoder
}

func (p *jparser) line() int {
	off := p.dec.InputOffset()
	if off > int64(len(p.data)) {
		off = int64(len(p.data))
	}
	return bytes.Count(p.data[:off], []byte("\n")) + 1
}

func (p *jparser) syntax(err error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		off := min(se.Offset, int64(len(p.data)))
		return &Error{File: p.file, Line: bytes.Count(p.data[:off], []byte("\n")) + 1, Msg: "invalid JSON: " + se.Error()}
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return &Error{File: p.file, Line: bytes.Count(p.data, []byte("\n")) + 1, Msg: "invalid JSON: unexpected end of file"}
	}
	return &Error{File: p.file, Line: p.line(), Msg: "invalid JSON: " + err.Error()}
}

func (p *jparser) next() (json.Token, error) {
	tok, err := p.dec.Token()
	if err != nil {
		return nil, p.syntax(err)
	}
	return tok, nil
}

func (p *jparser) value(tok json.Token) (*yaml.Node, error) {
	line := p.line()
	switch t := tok.(type) {
	case json.Delim:
		if t == '{' {
			return p.object(line)
		}
		return p.array(line)
	case string:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: t, Line: line}, nil
	case json.Number:
		tag := "!!int"
		if strings.ContainsAny(t.String(), ".eE") {
			tag = "!!float"
		}
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: t.String(), Line: line}, nil
	case bool:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: fmt.Sprint(t), Line: line}, nil
	case nil:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null", Line: line}, nil
	}
	return nil, &Error{File: p.file, Line: line, Msg: fmt.Sprintf("invalid JSON token %v", tok)}
}

func (p *jparser) object(line int) (*yaml.Node, error) {
	n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: line}
	for p.dec.More() {
		kt, err := p.next()
		if err != nil {
			return nil, err
		}
		key := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: fmt.Sprint(kt), Line: p.line()}
		vt, err := p.next()
		if err != nil {
			return nil, err
		}
		v, err := p.value(vt)
		if err != nil {
			return nil, err
		}
		n.Content = append(n.Content, key, v)
	}
	_, err := p.next() // '}'
	return n, err
}

func (p *jparser) array(line int) (*yaml.Node, error) {
	n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Line: line}
	for p.dec.More() {
		t, err := p.next()
		if err != nil {
			return nil, err
		}
		v, err := p.value(t)
		if err != nil {
			return nil, err
		}
		n.Content = append(n.Content, v)
	}
	_, err := p.next() // ']'
	return n, err
}
