package workspace

// Limits bounds what an archive (or a packed workspace) may contain.
//
// A zero field takes its value from DefaultLimits, so a forgotten field never
// means "unlimited"; a negative field means no limit.
type Limits struct {
	// MaxBytes caps the sum of regular-file sizes.
	MaxBytes int64
	// MaxFileBytes caps one regular file's size.
	MaxFileBytes int64
	// MaxFiles caps the number of entries of every kind (files,
	// directories, links): each one costs an inode when extracted.
	MaxFiles int
	// MaxDepth caps the number of path components of an entry name.
	MaxDepth int
}

// Default limit values, chosen to fit any reasonable source repository while
// keeping a hostile archive from filling the executor's disk.
const (
	DefaultMaxBytes     int64 = 1 << 30
	DefaultMaxFileBytes int64 = 256 << 20
	DefaultMaxFiles           = 100_000
	DefaultMaxDepth           = 256
)

// DefaultLimits returns the limits used when a field is zero: 1 GiB in
// total, 256 MiB per file, 100,000 entries, 256 path components.
func DefaultLimits() Limits {
	return Limits{
		MaxBytes:     DefaultMaxBytes,
		MaxFileBytes: DefaultMaxFileBytes,
		MaxFiles:     DefaultMaxFiles,
		MaxDepth:     DefaultMaxDepth,
	}
}

// withDefaults fills zero fields from DefaultLimits.
func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	if l.MaxBytes == 0 {
		l.MaxBytes = d.MaxBytes
	}
	if l.MaxFileBytes == 0 {
		l.MaxFileBytes = d.MaxFileBytes
	}
	if l.MaxFiles == 0 {
		l.MaxFiles = d.MaxFiles
	}
	if l.MaxDepth == 0 {
		l.MaxDepth = d.MaxDepth
	}
	return l
}

// over reports whether value exceeds limit, where a negative limit means
// unlimited.
func over[T int | int64](value, limit T) bool {
	return limit >= 0 && value > limit
}
