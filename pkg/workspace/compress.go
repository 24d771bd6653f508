package workspace

import "bytes"

// magics are the leading bytes of compressed (or non-tar archive) formats
// someone might send instead of a plain tar.
var magics = []struct {
	format string
	magic  []byte
}{
	{"gzip", []byte{0x1f, 0x8b}},
	{"bzip2", []byte("BZh")},
	{"xz", []byte{0xfd, '7', 'z', 'X', 'Z', 0x00}},
	{"zstd", []byte{0x28, 0xb5, 0x2f, 0xfd}},
	{"lz4", []byte{0x04, 0x22, 0x4d, 0x18}},
	{"compress (.Z)", []byte{0x1f, 0x9d}},
	{"lzip", []byte("LZIP")},
	{"zip", []byte("PK\x03\x04")},
}

// compression names the compressed format data starts with, or "".
func compression(data []byte) string {
	for _, m := range magics {
		if bytes.HasPrefix(data, m.magic) {
			return m.format
		}
	}
	return ""
}
