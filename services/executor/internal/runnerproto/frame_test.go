package runnerproto

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
)

func TestFramesRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(&buf)
	big := bytes.Repeat([]byte("x"), MaxPayload)
	frames := []Frame{
		{Kind: KindStdout, ID: 7, Payload: []byte("hello\x00\xff")},
		{Kind: KindStderr, ID: 1 << 31, Payload: nil},
		{Kind: KindKill, ID: 3},
		{Kind: KindStdin, ID: 2, Payload: big},
	}
	for _, f := range frames {
		if err := w.Frame(f.Kind, f.ID, f.Payload); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.JSON(KindExit, 9, Exit{Code: 3, OOMKills: -1}); err != nil {
		t.Fatal(err)
	}
	r := NewReader(&buf)
	for i, want := range frames {
		got, err := r.Next()
		if err != nil {
			t.Fatalf("frame %d: %v", i, err)
		}
		if got.Kind != want.Kind || got.ID != want.ID || !bytes.Equal(got.Payload, want.Payload) {
			t.Fatalf("frame %d = %s/%d/%d bytes, want %s/%d/%d bytes", i, got.Kind, got.ID, len(got.Payload),
				want.Kind, want.ID, len(want.Payload))
		}
	}
	f, err := r.Next()
	if err != nil {
		t.Fatal(err)
	}
	var ex Exit
	if err := f.Decode(&ex); err != nil || f.ID != 9 || ex.Code != 3 || ex.OOMKills != -1 {
		t.Fatalf("exit frame %+v %+v %v", f, ex, err)
	}
	if _, err := r.Next(); err != io.EOF {
		t.Fatalf("after the last frame: %v, want io.EOF", err)
	}
}

func TestReaderRejectsBrokenStreams(t *testing.T) {
	frame := func(kind Kind, payload string) []byte { return AppendFrame(nil, kind, 1, []byte(payload)) }
	cases := []struct {
		name string
		in   []byte
		want error
	}{
		{"unknown kind", frame('Z', "x"), ErrMalformed},
		{"length shorter than header", []byte{0, 0, 0, 2, 'O', 0, 0, 0, 1}, ErrMalformed},
		{"huge length", []byte{0xff, 0xff, 0xff, 0xff, 'O', 0, 0, 0, 1}, ErrMalformed},
		{"cut in the header", frame(KindStdout, "abc")[:6], io.ErrUnexpectedEOF},
		{"cut in the payload", frame(KindStdout, "abc")[:10], io.ErrUnexpectedEOF},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewReader(bytes.NewReader(tc.in)).Next()
			if !errors.Is(err, tc.want) {
				t.Fatalf("Next() = %v, want %v", err, tc.want)
			}
		})
	}
}

func TestWriterRefusesOversizedPayload(t *testing.T) {
	var buf bytes.Buffer
	err := NewWriter(&buf).Frame(KindStdout, 1, make([]byte, MaxPayload+1))
	if !errors.Is(err, ErrMalformed) || buf.Len() != 0 {
		t.Fatalf("Frame() = %v with %d bytes written", err, buf.Len())
	}
}

func TestDecodeNamesTheKind(t *testing.T) {
	var s Start
	err := Frame{Kind: KindStart, Payload: []byte("{")}.Decode(&s)
	if !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), "S frame") {
		t.Fatalf("Decode() = %v", err)
	}
}

// FuzzReader: no input makes the reader panic or return a frame longer
// than the limit or of an unknown kind.
func FuzzReader(f *testing.F) {
	f.Add(AppendFrame(nil, KindStdout, 1, []byte("hi")))
	f.Add(AppendFrame(AppendFrame(nil, KindExit, 2, []byte(`{"code":0}`)), KindKill, 3, nil))
	f.Add([]byte{0, 0, 0, 5, 'H', 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, in []byte) {
		r := NewReader(bytes.NewReader(in))
		for {
			fr, err := r.Next()
			if err != nil {
				return
			}
			if !fr.Kind.valid() || len(fr.Payload) > MaxPayload {
				t.Fatalf("accepted frame %s with %d bytes", fr.Kind, len(fr.Payload))
			}
		}
	})
}
