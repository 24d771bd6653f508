package gocache

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// client speaks the go command's side of the protocol to a Serve running
// on pipes, one request at a time: each request waits for its answer
// before the next is written, as a go command with one build job does.
type client struct {
	t    *testing.T
	in   *io.PipeWriter
	out  *json.Decoder
	done chan error
	next int64
}

// newClient starts Serve on s and reads its capabilities message.
func newClient(t *testing.T, s *Store) *client {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := &client{t: t, in: inW, out: json.NewDecoder(outR), done: make(chan error, 1)}
	go func() {
		err := Serve(inR, outW, s, nil)
		outW.CloseWithError(io.EOF)
		c.done <- err
	}()
	var caps response
	if err := c.out.Decode(&caps); err != nil {
		t.Fatalf("capabilities: %v", err)
	}
	if caps.ID != 0 || strings.Join(caps.KnownCommands, ",") != "get,put,close" {
		t.Fatalf("capabilities = %+v", caps)
	}
	t.Cleanup(func() { inW.Close() })
	return c
}

// encode writes a request (and its body) exactly as the go command does
// (cmd/go/internal/cache.ProgCache.writeToChild).
func encode(w io.Writer, req request, body []byte) {
	b, _ := json.Marshal(req)
	w.Write(append(b, '\n', '\n'))
	if len(body) > 0 {
		io.WriteString(w, `"`+base64.StdEncoding.EncodeToString(body)+"\"\n")
	}
}

// do sends one request and returns its answer.
func (c *client) do(req request, body []byte) response {
	c.t.Helper()
	c.next++
	req.ID = c.next
	go encode(c.in, req, body)
	var res response
	if err := c.out.Decode(&res); err != nil {
		c.t.Fatalf("answer to %s: %v", req.Command, err)
	}
	if res.ID != req.ID {
		c.t.Fatalf("answer ID %d to request %d", res.ID, req.ID)
	}
	return res
}

// put stores body under action the way the go command does: the output ID
// is the body's sha256.
func (c *client) put(action [hashSize]byte, body []byte) response {
	out := sha256.Sum256(body)
	return c.do(request{Command: cmdPut, ActionID: action[:], OutputID: out[:], BodySize: int64(len(body))}, body)
}

func (c *client) get(action [hashSize]byte) response {
	return c.do(request{Command: cmdGet, ActionID: action[:]}, nil)
}

// close sends close and waits for Serve to return.
func (c *client) close() error {
	c.do(request{Command: cmdClose}, nil)
	return <-c.done
}

// id is a test action ID.
func id(s string) [hashSize]byte { return sha256.Sum256([]byte(s)) }

// fill puts action → body into dir as a plain cache, through a Store.
func fill(t *testing.T, dir string, action [hashSize]byte, body []byte) string {
	t.Helper()
	path, err := (&Store{Dir: dir}).Put(action, sha256.Sum256(body), int64(len(body)), bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	return path
}

// readHit reads the content a hit points at.
func readHit(t *testing.T, res response) string {
	t.Helper()
	if res.Miss || res.Err != "" || res.DiskPath == "" {
		t.Fatalf("not a hit: %+v", res)
	}
	b, err := os.ReadFile(res.DiskPath)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestPutThenGet(t *testing.T) {
	big := bytes.Repeat([]byte("0123456789abcdef\x00\xff"), 200_000) // 3.6 MB: many buffers
	cases := []struct {
		name string
		body []byte
	}{
		{"small", []byte("compiled package")},
		{"empty", nil},
		{"large", big},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			c := newClient(t, &Store{Dir: dir, VerifyMax: DefaultVerifyMax})
			a := id(tc.name)
			put := c.put(a, tc.body)
			want := fileName(dir, sha256.Sum256(tc.body), "d")
			if put.Err != "" || put.DiskPath != want {
				t.Fatalf("put = %+v, want DiskPath %s", put, want)
			}
			got := c.get(a)
			if readHit(t, got) != string(tc.body) || got.Size != int64(len(tc.body)) || got.DiskPath != want || got.Time == nil {
				t.Errorf("get = %+v", got)
			}
			if out := sha256.Sum256(tc.body); !bytes.Equal(got.OutputID, out[:]) {
				t.Errorf("OutputID %x, want %x", got.OutputID, out)
			}
			// The index entry is the go command's own.
			b, err := os.ReadFile(fileName(dir, a, "a"))
			if err != nil {
				t.Fatal(err)
			}
			if want := goEntry(a, sha256.Sum256(tc.body), int64(len(tc.body)), got.Time.UnixNano()); !bytes.Equal(b, want) {
				t.Errorf("index entry %q, want %q", b, want)
			}
			if err := c.close(); err != nil {
				t.Errorf("Serve: %v", err)
			}
		})
	}
}

func TestGetFromLayers(t *testing.T) {
	a := id("action")
	cases := []struct {
		name string
		// setup fills the writable dir and two layers and returns the
		// content a get must find ("" for a miss).
		setup func(t *testing.T, dir, l1, l2 string) string
	}{
		{"miss everywhere", func(t *testing.T, dir, l1, l2 string) string { return "" }},
		{"in the second layer", func(t *testing.T, dir, l1, l2 string) string {
			fill(t, l2, a, []byte("from l2"))
			return "from l2"
		}},
		{"the first layer before the second", func(t *testing.T, dir, l1, l2 string) string {
			fill(t, l1, a, []byte("from l1"))
			fill(t, l2, a, []byte("from l2"))
			return "from l1"
		}},
		{"the writable dir before the layers", func(t *testing.T, dir, l1, l2 string) string {
			fill(t, dir, a, []byte("from dir"))
			fill(t, l1, a, []byte("from l1"))
			return "from dir"
		}},
		{"content truncated: next layer", func(t *testing.T, dir, l1, l2 string) string {
			p := fill(t, l1, a, []byte("from l1"))
			os.WriteFile(p, []byte("from"), 0o644)
			fill(t, l2, a, []byte("from l2"))
			return "from l2"
		}},
		{"content changed, same size: next layer", func(t *testing.T, dir, l1, l2 string) string {
			p := fill(t, l1, a, []byte("from l1"))
			os.WriteFile(p, []byte("FROM L1"), 0o644)
			fill(t, l2, a, []byte("from l2"))
			return "from l2"
		}},
		{"content missing: next layer", func(t *testing.T, dir, l1, l2 string) string {
			os.Remove(fill(t, l1, a, []byte("from l1")))
			fill(t, l2, a, []byte("from l2"))
			return "from l2"
		}},
		{"content a symlink to good content: next layer", func(t *testing.T, dir, l1, l2 string) string {
			p := fill(t, l1, a, []byte("from l1"))
			os.Rename(p, p+".real")
			os.Symlink(p+".real", p)
			fill(t, l2, a, []byte("from l2"))
			return "from l2"
		}},
		{"content a directory: miss", func(t *testing.T, dir, l1, l2 string) string {
			p := fill(t, l1, a, []byte("from l1"))
			os.Remove(p)
			os.Mkdir(p, 0o755)
			return ""
		}},
		{"index entry garbage: next layer", func(t *testing.T, dir, l1, l2 string) string {
			fill(t, l1, a, []byte("from l1"))
			os.WriteFile(fileName(l1, a, "a"), bytes.Repeat([]byte("x"), entrySize), 0o644)
			fill(t, l2, a, []byte("from l2"))
			return "from l2"
		}},
		{"index entry names another action: miss", func(t *testing.T, dir, l1, l2 string) string {
			b := id("other")
			fill(t, l1, b, []byte("from l1"))
			os.MkdirAll(filepath.Dir(fileName(l1, a, "a")), 0o755)
			os.Rename(fileName(l1, b, "a"), fileName(l1, a, "a"))
			return ""
		}},
		{"index entry a FIFO: next layer", func(t *testing.T, dir, l1, l2 string) string {
			fill(t, l1, a, []byte("from l1"))
			os.Remove(fileName(l1, a, "a"))
			if err := syscall.Mkfifo(fileName(l1, a, "a"), 0o644); err != nil {
				t.Fatal(err)
			}
			fill(t, l2, a, []byte("from l2"))
			return "from l2"
		}},
		{"content a FIFO: next layer", func(t *testing.T, dir, l1, l2 string) string {
			p := fill(t, l1, a, []byte("from l1"))
			os.Remove(p)
			if err := syscall.Mkfifo(p, 0o644); err != nil {
				t.Fatal(err)
			}
			fill(t, l2, a, []byte("from l2"))
			return "from l2"
		}},
		{"index entry a symlink to a good one: next layer", func(t *testing.T, dir, l1, l2 string) string {
			other := t.TempDir()
			fill(t, other, a, []byte("from elsewhere"))
			fill(t, l1, a, []byte("from elsewhere"))
			os.Remove(fileName(l1, a, "a"))
			os.Symlink(fileName(other, a, "a"), fileName(l1, a, "a"))
			fill(t, l2, a, []byte("from l2"))
			return "from l2"
		}},
		{"a test's input list in a layer: miss", func(t *testing.T, dir, l1, l2 string) string {
			fill(t, l1, a, []byte("# test log\ngetenv HOME\n"))
			return ""
		}},
		{"a test's input list in the writable dir: hit", func(t *testing.T, dir, l1, l2 string) string {
			fill(t, dir, a, []byte("# test log\ngetenv HOME\n"))
			return "# test log\ngetenv HOME\n"
		}},
		{"a layer that is not there: next layer", func(t *testing.T, dir, l1, l2 string) string {
			os.RemoveAll(l1)
			fill(t, l2, a, []byte("from l2"))
			return "from l2"
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			dir, l1, l2 := filepath.Join(root, "dir"), filepath.Join(root, "l1"), filepath.Join(root, "l2")
			want := tc.setup(t, dir, l1, l2)
			c := newClient(t, &Store{Dir: dir, Layers: []string{l1, l2}, VerifyMax: DefaultVerifyMax})
			got := c.get(a)
			if want == "" {
				if !got.Miss || got.DiskPath != "" {
					t.Errorf("get = %+v, want a miss", got)
				}
			} else if s := readHit(t, got); s != want {
				t.Errorf("get found %q, want %q", s, want)
			}
			if err := c.close(); err != nil {
				t.Errorf("Serve: %v", err)
			}
		})
	}
}

// Content above VerifyMax is checked by size only: a same-size change goes
// unseen (the compiler and linker check their own inputs), a size change
// does not.
func TestVerifyMax(t *testing.T) {
	a := id("big")
	body := bytes.Repeat([]byte("x"), 100)
	cases := []struct {
		name      string
		verifyMax int64
		change    []byte
		hit       bool
	}{
		{"hashed: same-size change is a miss", 100, bytes.Repeat([]byte("y"), 100), false},
		{"above the limit: same-size change is served", 99, bytes.Repeat([]byte("y"), 100), true},
		{"above the limit: size change is a miss", 99, bytes.Repeat([]byte("y"), 101), false},
		{"unchanged above the limit", 0, body, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			layer := t.TempDir()
			os.WriteFile(fill(t, layer, a, body), tc.change, 0o644)
			c := newClient(t, &Store{Dir: t.TempDir(), Layers: []string{layer}, VerifyMax: tc.verifyMax})
			if got := c.get(a); got.Miss == tc.hit {
				t.Errorf("get = %+v, want hit=%v", got, tc.hit)
			}
			c.close()
		})
	}
}

func TestPutFailures(t *testing.T) {
	a := id("action")
	body := []byte("the body")
	out := sha256.Sum256(body)
	cases := []struct {
		name  string
		dir   func(t *testing.T) string
		req   request
		store bool // whether a get afterwards hits
	}{
		{"output ID not the body's hash", func(t *testing.T) string { return t.TempDir() },
			request{Command: cmdPut, ActionID: a[:], OutputID: make([]byte, hashSize), BodySize: int64(len(body))}, false},
		{"short action ID", func(t *testing.T) string { return t.TempDir() },
			request{Command: cmdPut, ActionID: a[:5], OutputID: out[:], BodySize: int64(len(body))}, false},
		{"unwritable cache directory", func(t *testing.T) string {
			f := filepath.Join(t.TempDir(), "file")
			os.WriteFile(f, nil, 0o644)
			return filepath.Join(f, "cache")
		}, request{Command: cmdPut, ActionID: a[:], OutputID: out[:], BodySize: int64(len(body))}, false},
		{"a good put, for contrast", func(t *testing.T) string { return t.TempDir() },
			request{Command: cmdPut, ActionID: a[:], OutputID: out[:], BodySize: int64(len(body))}, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := tc.dir(t)
			c := newClient(t, &Store{Dir: dir, VerifyMax: DefaultVerifyMax})
			res := c.do(tc.req, body)
			if tc.store != (res.Err == "") {
				t.Errorf("put = %+v", res)
			}
			// The body was read whole: the next request is understood.
			if got := c.get(a); got.Miss == tc.store {
				t.Errorf("get after put = %+v, want hit=%v", got, tc.store)
			}
			if !tc.store {
				if leftovers, _ := filepath.Glob(filepath.Join(dir, "*", "*")); len(leftovers) > 0 {
					t.Errorf("a failed put left %q", leftovers)
				}
			}
			if err := c.close(); err != nil {
				t.Errorf("Serve: %v", err)
			}
		})
	}
}

func TestRequestsServeAnswers(t *testing.T) {
	cases := []struct {
		name string
		req  request
		want func(response) bool
	}{
		{"unknown command", request{Command: "get2"}, func(r response) bool { return strings.Contains(r.Err, "get2") }},
		{"get with a short action ID", request{Command: cmdGet, ActionID: []byte{1, 2}}, func(r response) bool { return r.Miss }},
		{"get without an action ID", request{Command: cmdGet}, func(r response) bool { return r.Miss }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := newClient(t, &Store{Dir: t.TempDir()})
			if got := c.do(tc.req, nil); !tc.want(got) {
				t.Errorf("answer %+v", got)
			}
			if err := c.close(); err != nil {
				t.Errorf("Serve: %v", err)
			}
		})
	}
}

// Input that breaks the protocol ends Serve with errProtocol instead of
// guessing where the next request starts.
func TestProtocolErrors(t *testing.T) {
	a, body := id("a"), []byte("body")
	out := sha256.Sum256(body)
	put := func(size int64) string {
		b, _ := json.Marshal(request{ID: 1, Command: cmdPut, ActionID: a[:], OutputID: out[:], BodySize: size})
		return string(b) + "\n\n"
	}
	b64 := base64.StdEncoding.EncodeToString(body)
	cases := []struct {
		name, in string
	}{
		{"not JSON", "{\"ID\": 1, \"Command\": \n"},
		{"body shorter than BodySize", put(5) + `"` + b64 + "\"\n"},
		{"body longer than BodySize", put(3) + `"` + b64 + "\"\n"},
		{"body not a string", put(4) + b64 + "\n"},
		{"body not base64", put(4) + "\"!!!!\"\n"},
		{"body cut off", put(4) + `"` + b64[:4]},
		{"body missing", put(4)},
		{"line too long", strings.Repeat(" ", 2*maxRequestLine) + "x\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var outBuf bytes.Buffer
			err := Serve(strings.NewReader(tc.in), &outBuf, &Store{Dir: t.TempDir()}, nil)
			if !errors.Is(err, errProtocol) {
				t.Errorf("Serve = %v, want a protocol error", err)
			}
		})
	}
}

// A whole session written at once, as a go command with many build jobs
// does: every request is answered, each get sees the put before it.
func TestPipelinedSession(t *testing.T) {
	var in bytes.Buffer
	const n = 50
	for i := range n {
		body := []byte(strings.Repeat("x", i))
		a, out := id(string(rune('A'+i))), sha256.Sum256(body)
		encode(&in, request{ID: int64(2*i + 1), Command: cmdPut, ActionID: a[:], OutputID: out[:], BodySize: int64(len(body))}, body)
		encode(&in, request{ID: int64(2*i + 2), Command: cmdGet, ActionID: a[:]}, nil)
	}
	encode(&in, request{ID: 2*n + 1, Command: cmdClose}, nil)
	var out bytes.Buffer
	if err := Serve(&in, &out, &Store{Dir: t.TempDir(), VerifyMax: DefaultVerifyMax}, nil); err != nil {
		t.Fatal(err)
	}
	seen := map[int64]response{}
	sc := bufio.NewScanner(&out)
	for sc.Scan() {
		var r response
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("%q: %v", sc.Text(), err)
		}
		seen[r.ID] = r
	}
	for i := range n {
		if r := seen[int64(2*i+2)]; r.Miss || r.Size != int64(i) {
			t.Errorf("get %d = %+v", i, r)
		}
	}
	if len(seen) != 2*n+2 { // + capabilities
		t.Errorf("%d answers, want %d", len(seen), 2*n+2)
	}
}
