package sandbox

import (
	"context"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

func TestTailRingKeepsLastBytesAndLines(t *testing.T) {
	cases := []struct {
		name   string
		writes []string
		cap    int
		lines  int
		want   string
	}{
		{"short", []string{"a\n", "b\n"}, 16, 200, "a\nb\n"},
		{"last lines", []string{"1\n2\n3\n4\n"}, 64, 2, "3\n4\n"},
		{"wrapped drops the partial first line", []string{"first line\n", "second\n", "third\n"}, 12, 200, "third\n"},
		{"one huge write", []string{strings.Repeat("x", 100) + "\nend"}, 10, 200, "end"},
		{"no newline keeps the tail of the line", []string{strings.Repeat("é", 20)}, 9, 200, "éééé"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := newTailRing(tc.cap)
			for _, w := range tc.writes {
				_, _ = r.Write([]byte(w))
			}
			if got := r.lines(tc.lines); got != tc.want {
				t.Errorf("lines = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestIncompleteSuffix(t *testing.T) {
	cases := []struct {
		in   string
		want int
	}{
		{"abc", 0}, {"a\xc3", 1}, {"a\xe2\x82", 2}, {"a\xf0\x9f\x98", 3}, {"a€", 0}, {"a\xff", 0}, {"\x80\x80\x80", 0},
	}
	for _, tc := range cases {
		if got := incompleteSuffix([]byte(tc.in)); got != tc.want {
			t.Errorf("incompleteSuffix(%q) = %d, want %d", tc.in, got, tc.want)
		}
	}
}

// The live log cuts only at character boundaries, coalesces, keeps
// offsets, and drops (never blocks) beyond its pending budget.
func TestLiveLogChunks(t *testing.T) {
	cfg := LiveConfig{ChunkBytes: 5, FlushEvery: time.Hour, RateBytes: 1 << 30, BurstBytes: 1 << 20, MaxPendingBytes: 12}
	l := newLiveLog(cfg)
	l.write(StreamStdout, []byte("ab€"), 0)    // 5 bytes: one full chunk
	l.write(StreamStdout, []byte("cd\xe2"), 5) // ends inside a character
	l.write(StreamStderr, []byte("E"), 8)      // stream switch finishes the stdout chunk
	l.write(StreamStderr, []byte(strings.Repeat("z", 20)), 9)
	var got []chunk
	done := make(chan struct{})
	close(done)
	l.run(context.Background(), done, func(c chunk) error { got = append(got, c); return nil })
	var text []string
	for _, c := range got {
		if !utf8.Valid(c.data) && c.stream != StreamStdout {
			t.Errorf("invalid chunk %q", c.data)
		}
		text = append(text, string(c.data))
	}
	// The stream switch cuts the partial character (replaced when sent);
	// the pending budget of 12 bytes keeps 5+3+1+3 and drops 17.
	want := []string{"ab€", "cd\xe2", "Ezzz"}
	if strings.Join(text, "|") != strings.Join(want, "|") {
		t.Errorf("chunks = %q, want %q", text, want)
	}
	if len(got) != 3 || got[2].offset != 8 || got[2].stream != StreamStderr || l.dropped != 17 {
		t.Fatalf("chunks %+v dropped %d", got, l.dropped)
	}
	if validUTF8([]byte("cd\xe2")) != "cd\uFFFD" {
		t.Errorf("a trailing partial character at the end of output is replaced")
	}
}

func TestStepOutputCapsAndCounts(t *testing.T) {
	o, err := newStepOutput(t.TempDir(), 10, DefaultConfig().Live)
	if err != nil {
		t.Fatal(err)
	}
	defer o.close()
	w := o.writer(StreamStdout)
	for range 100 {
		_, _ = w.Write([]byte("0123456789\n"))
	}
	total, truncated, tail := o.summary(3)
	if total != 1100 || !truncated || tail != "0123456789\n0123456789\n0123456789\n" {
		t.Errorf("total %d truncated %v tail %q", total, truncated, tail)
	}
	rd, err := o.seal()
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 200)
	n, _ := rd.Read(buf)
	if got := string(buf[:n]); !strings.HasPrefix(got, "0123456789\n[greenlight: output truncated: stored the first 10 of 1100 bytes]") {
		t.Errorf("stored %q", got)
	}
}

// Past the per-step cap nothing more is streamed live: the bytes are
// counted and tailed, and one system note says where the stream stopped.
func TestLiveOutputStopsAtTheLogCap(t *testing.T) {
	cfg := LiveConfig{ChunkBytes: 1 << 20, FlushEvery: time.Hour, RateBytes: 1 << 30, BurstBytes: 1 << 30, MaxPendingBytes: 1 << 30}
	o, err := newStepOutput(t.TempDir(), 10, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer o.close()
	for range 100 {
		_, _ = o.writer(StreamStdout).Write([]byte("y\ny\n"))
	}
	var live, notes int
	for _, c := range o.live.take(true) {
		if c.stream == StreamSystem {
			notes++
			continue
		}
		live += len(c.data)
	}
	if live != 10 || notes != 1 {
		t.Errorf("live bytes = %d, notes = %d; want 10 and 1", live, notes)
	}
	if total, truncated, _ := o.summary(200); total != 400 || !truncated {
		t.Errorf("total = %d truncated = %v; want 400, true", total, truncated)
	}
}
