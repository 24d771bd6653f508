package store

import (
	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// hashLen is the length of a lowercase hex sha256, Digest.hash.
const hashLen = 64

// digestName is the full protobuf name of glv1.Digest.
var digestName = (&glv1.Digest{}).ProtoReflect().Descriptor().FullName()

// collectDigests adds every Digest found anywhere inside m to out, by hash.
func collectDigests(m proto.Message, out map[string]*glv1.Digest) {
	walkDigests(m.ProtoReflect(), out)
}

// walkDigests recurses through populated message fields.
func walkDigests(m protoreflect.Message, out map[string]*glv1.Digest) {
	if m.Descriptor().FullName() == digestName {
		if d, ok := m.Interface().(*glv1.Digest); ok && d.GetHash() != "" {
			out[d.GetHash()] = d
		}
		return
	}
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case fd.IsList() && fd.Kind() == protoreflect.MessageKind:
			for i, l := 0, v.List(); i < l.Len(); i++ {
				walkDigests(l.Get(i).Message(), out)
			}
		case fd.IsMap() && fd.MapValue().Kind() == protoreflect.MessageKind:
			v.Map().Range(func(_ protoreflect.MapKey, mv protoreflect.Value) bool {
				walkDigests(mv.Message(), out)
				return true
			})
		case !fd.IsList() && !fd.IsMap() && fd.Kind() == protoreflect.MessageKind:
			walkDigests(v.Message(), out)
		}
		return true
	})
}

// hexRuns calls fn with the first hashLen bytes of every maximal run of
// lowercase hex digits at least hashLen long in val. In a marshalled Digest
// the hash is preceded by its length byte 0x40 ('@', not hex), so every
// stored digest reference is found this way without decoding; other long
// hex strings (a log line quoting a hash) only make the answer more
// conservative.
func hexRuns(val []byte, fn func(hash string)) {
	start := -1
	for i := 0; i <= len(val); i++ {
		if i < len(val) && isLowerHex(val[i]) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 && i-start >= hashLen {
			fn(string(val[start : start+hashLen]))
		}
		start = -1
	}
}

// hasHexRun reports whether hexRuns would find anything in val.
func hasHexRun(val []byte) bool {
	found := false
	hexRuns(val, func(string) { found = true })
	return found
}

// isLowerHex reports whether c is 0-9 or a-f.
func isLowerHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f'
}
