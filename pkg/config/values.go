package config

import (
	"fmt"
	"net"
	"slices"
	"strconv"
	"strings"
	"time"
)

// durationValue is a non-negative time.Duration flag.
type durationValue time.Duration

func (d *durationValue) String() string { return time.Duration(*d).String() }

func (d *durationValue) Set(s string) error {
	v, err := time.ParseDuration(strings.TrimSpace(s))
	if err != nil {
		return fmt.Errorf("not a duration (want e.g. 500ms, 10s, 2m): %q", s)
	}
	if v < 0 {
		return fmt.Errorf("negative duration %q", s)
	}
	*d = durationValue(v)
	return nil
}

// bytesValue is a non-negative byte count with optional unit suffix.
type bytesValue int

func (b *bytesValue) String() string { return strconv.Itoa(int(*b)) }

func (b *bytesValue) Set(s string) error {
	n, err := ParseBytes(s)
	if err != nil {
		return err
	}
	*b = bytesValue(n)
	return nil
}

// byteUnits is ordered so that longer suffixes are tried before their tails.
var byteUnits = []struct {
	suffix string
	factor int64
}{
	{"kib", 1 << 10}, {"mib", 1 << 20}, {"gib", 1 << 30},
	{"kb", 1000}, {"mb", 1000 * 1000}, {"gb", 1000 * 1000 * 1000},
	{"k", 1 << 10}, {"m", 1 << 20}, {"g", 1 << 30},
	{"b", 1},
}

// ParseBytes parses a byte count such as "4096", "64KiB", "16MiB" or "1GB".
// Binary units (KiB, MiB, GiB and the short K, M, G) are powers of 1024;
// KB, MB and GB are powers of 1000.
func ParseBytes(s string) (int, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	factor := int64(1)
	for _, u := range byteUnits {
		if strings.HasSuffix(t, u.suffix) {
			t, factor = strings.TrimSpace(strings.TrimSuffix(t, u.suffix)), u.factor
			break
		}
	}
	n, err := strconv.ParseInt(t, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("not a byte size (want e.g. 4096, 64KiB, 16MiB): %q", s)
	}
	if n < 0 {
		return 0, fmt.Errorf("negative byte size %q", s)
	}
	if n > int64(maxInt)/factor {
		return 0, fmt.Errorf("byte size too large: %q", s)
	}
	return int(n * factor), nil
}

const maxInt = int(^uint(0) >> 1)

// stringsValue is a comma-separated list whose first Set replaces the default.
type stringsValue struct {
	p   *[]string
	set bool
}

func (v *stringsValue) String() string {
	if v.p == nil {
		return ""
	}
	return strings.Join(*v.p, ",")
}

func (v *stringsValue) Set(s string) error {
	if !v.set {
		*v.p, v.set = nil, true
	}
	for part := range strings.SplitSeq(s, ",") {
		if part = strings.TrimSpace(part); part != "" {
			*v.p = append(*v.p, part)
		}
	}
	return nil
}

// enumValue is a string restricted to a fixed set.
type enumValue struct {
	p       *string
	allowed []string
}

func (v *enumValue) String() string {
	if v.p == nil {
		return ""
	}
	return *v.p
}

func (v *enumValue) Set(s string) error {
	if !slices.Contains(v.allowed, s) {
		return fmt.Errorf("%q is not one of %s", s, strings.Join(v.allowed, ", "))
	}
	*v.p = s
	return nil
}

// addrValue is a host:port address.
type addrValue string

func (a *addrValue) String() string { return string(*a) }

func (a *addrValue) Set(s string) error {
	if err := ValidateAddr(s); err != nil {
		return err
	}
	*a = addrValue(s)
	return nil
}

// addrListValue is a comma-separated list of host:port addresses.
type addrListValue string

func (a *addrListValue) String() string { return string(*a) }

func (a *addrListValue) Set(s string) error {
	n := 0
	for _, part := range strings.Split(s, ",") {
		if part = strings.TrimSpace(part); part == "" {
			continue
		}
		if err := ValidateAddr(part); err != nil {
			return err
		}
		n++
	}
	if n == 0 {
		return fmt.Errorf("no address in %q", s)
	}
	*a = addrListValue(s)
	return nil
}

// ValidateAddr checks that s has the form host:port with a numeric port in
// 0..65535 (host may be empty to mean all interfaces).
func ValidateAddr(s string) error {
	_, port, err := net.SplitHostPort(s)
	if err != nil {
		return fmt.Errorf("not a host:port address: %q", s)
	}
	n, err := strconv.Atoi(port)
	if err != nil || n < 0 || n > 65535 {
		return fmt.Errorf("bad port in address %q", s)
	}
	return nil
}
