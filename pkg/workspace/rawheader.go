package workspace

import (
	"archive/tar"
	"bytes"
	"fmt"
	"strconv"
)

// The executor extracts snapshots with GNU tar inside the sandbox, while
// validation parses them with archive/tar. Where the two disagree about an
// entry's name, a crafted archive could show the validator one path and the
// extractor another, so the raw header blocks behind each parsed header are
// checked for the known points of disagreement:
//
//   - several extension headers for one entry: with both a GNU long name
//     ('L') and a PAX path ('x'), archive/tar takes the GNU name and GNU tar
//     the PAX one; repeated ones are merged differently too. At most one 'x',
//     or one 'L' and one 'K', may precede an entry.
//   - the name and link fields of the header itself, when no extension
//     overrides them: GNU tar joins the 155-byte USTAR prefix and the name
//     as C strings, while archive/tar reads a 131-byte prefix when the block
//     carries the star trailer. The name both must agree on is recomputed
//     here the GNU way and compared.
//   - extension records that GNU tar would apply and archive/tar ignores,
//     such as "path" in a global header (see allowedGlobalRecords).

// rawHeaderReason checks the raw blocks of one entry (extension headers
// included) against the parsed header, and returns why they are ambiguous,
// or "".
func rawHeaderReason(raw []byte, hdr *tar.Header) string {
	metas := map[byte]int{}
	for len(raw) >= blockSize {
		flag := raw[156]
		if flag != tar.TypeXHeader && flag != tar.TypeGNULongName && flag != tar.TypeGNULongLink {
			break
		}
		size, err := parseSize(raw[124:136])
		if err != nil {
			return "unreadable extension header size"
		}
		metas[flag]++
		skip := blockSize + (size+blockSize-1)/blockSize*blockSize
		if skip > int64(len(raw)) {
			return "extension header overruns the archive"
		}
		raw = raw[skip:]
	}
	if len(raw) < blockSize {
		return "" // archive/tar parsed it; nothing left to compare
	}
	x, l, k := metas[tar.TypeXHeader], metas[tar.TypeGNULongName], metas[tar.TypeGNULongLink]
	switch {
	case x > 1 || l > 1 || k > 1:
		return "repeated extension headers for one entry"
	case x > 0 && l+k > 0:
		return "both PAX and GNU extension headers for one entry (extractors disagree on which applies)"
	case hdr.Typeflag == tar.TypeXGlobalHeader && x+l+k > 0:
		return "extension headers before a global header"
	}
	return fieldReason(raw[:blockSize], hdr, l > 0, k > 0)
}

// fieldReason compares the name and link fields of the final header block
// with the parsed header when no extension replaced them.
func fieldReason(b []byte, hdr *tar.Header, longName, longLink bool) string {
	ustar := bytes.Equal(b[257:263], []byte("ustar\x00"))
	if ustar && bytes.Equal(b[508:512], []byte("tar\x00")) {
		return "star-format header (its name prefix is read differently by GNU tar)"
	}
	if hdr.Typeflag == tar.TypeXGlobalHeader {
		return ""
	}
	_, paxPath := hdr.PAXRecords["path"]
	if !longName && !paxPath {
		name := cString(b[0:100])
		if prefix := cString(b[345:500]); ustar && prefix != "" {
			name = prefix + "/" + name
		}
		if name != hdr.Name {
			return fmt.Sprintf("header name fields are ambiguous (%q)", name)
		}
	}
	_, paxLink := hdr.PAXRecords["linkpath"]
	if !longLink && !paxLink && cString(b[157:257]) != hdr.Linkname {
		return "header link fields are ambiguous"
	}
	return ""
}

// blockSize is the tar block size.
const blockSize = 512

// cString reads a NUL-terminated field.
func cString(b []byte) string {
	if i := bytes.IndexByte(b, 0); i >= 0 {
		b = b[:i]
	}
	return string(b)
}

// parseSize reads an octal size field (extension headers are at most a few
// MiB, so base-256 never applies to them and is refused).
func parseSize(b []byte) (int64, error) {
	s := bytes.Trim(b, " \x00")
	if len(s) == 0 {
		return 0, nil
	}
	n, err := strconv.ParseInt(string(s), 8, 64)
	if err == nil && n < 0 {
		err = strconv.ErrRange
	}
	return n, err
}
