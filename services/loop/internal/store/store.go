package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"
)

// DefaultLockTimeout is how long Open waits for another process to release
// the file before giving up.
const DefaultLockTimeout = 2 * time.Second

// Options tune Open. The zero value is production-ready.
type Options struct {
	// LockTimeout bounds the wait for the file lock; zero means
	// DefaultLockTimeout. A store is never opened by two processes at once.
	LockTimeout time.Duration
	// NoSync skips fsync on commit. Only for tests and benchmarks: a crash may
	// then lose or corrupt recent runs.
	NoSync bool
	// Now is the clock used for event times, created_at defaults and
	// recovery; nil means time.Now.
	Now func() time.Time
	// MaxRunEventBytes and MaxRunEvents cap what one run's event log may
	// hold; past either, live log chunks are refused with ErrEventCap while
	// every other event is still stored. Zero means DefaultMaxRunEventBytes
	// and DefaultMaxRunEvents; a negative value disables that cap.
	MaxRunEventBytes int64
	MaxRunEvents     int64
}

// Store is the run store. It is safe for concurrent use.
type Store struct {
	db   *bolt.DB
	path string
	now  func() time.Time

	// mu guards closed; appenders hold it shared while queueing so that
	// Close can close the queue once no one is sending on it.
	mu     sync.RWMutex
	closed bool
	// appends is the group-commit writer's queue, budget bounds the bytes
	// in it, done is closed when the writer has answered the last append
	// (see writer.go).
	appends chan *appendReq
	done    chan struct{}
	budget  *byteBudget

	counters writerCounters
	// caps is used by the writer goroutine only.
	caps *eventCap
}

// Open opens (creating if needed) the run store at path. If another process
// holds it, Open fails after Options.LockTimeout with an error wrapping
// ErrLocked rather than hanging.
func Open(path string, opts Options) (*Store, error) {
	if opts.LockTimeout <= 0 {
		opts.LockTimeout = DefaultLockTimeout
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("run store %s: create directory: %w", path, err)
	}
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: opts.LockTimeout, NoSync: opts.NoSync})
	if errors.Is(err, bolterrors.ErrTimeout) {
		return nil, fmt.Errorf("run store %s is locked by another greenlight process (waited %s; stop it or use another data directory): %w",
			path, opts.LockTimeout, ErrLocked)
	}
	if err != nil {
		return nil, fmt.Errorf("run store %s: open: %w", path, err)
	}
	if err := db.Update(initSchema); err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("run store %s: %w", path, err)
	}
	s := &Store{
		db:      db,
		path:    path,
		now:     opts.Now,
		appends: make(chan *appendReq, queueLen),
		done:    make(chan struct{}),
		budget:  newByteBudget(queueBytes),
		caps:    newEventCap(opts),
	}
	go s.writeLoop()
	return s, nil
}

// Path returns the file the store lives in.
func (s *Store) Path() string { return s.path }

// Close commits and acknowledges every queued append, stops the writer and
// releases the file. Appends after Close fail with ErrClosed.
func (s *Store) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	// No appender holds mu, so nobody sends on the queue any more.
	close(s.appends)
	s.mu.Unlock()
	<-s.done
	if err := s.db.Close(); err != nil {
		return fmt.Errorf("run store %s: close: %w", s.path, err)
	}
	return nil
}

// initSchema creates the bucket tree or checks that an existing one is ours.
func initSchema(tx *bolt.Tx) error {
	if tx.Bucket(rootBucket) == nil {
		if err := refuseForeignRoots(tx); err != nil {
			return err
		}
	}
	root, err := tx.CreateBucketIfNotExists(rootBucket)
	if err != nil {
		return fmt.Errorf("create root bucket: %w", err)
	}
	for _, name := range [][]byte{metaBucket, runsBucket, byCreatedBucket, eventsBucket, patchesBucket, recordingsBucket,
		runOwnersBucket, blobGrantsBucket} {
		if _, err := root.CreateBucketIfNotExists(name); err != nil {
			return fmt.Errorf("create bucket %s: %w", name, err)
		}
	}
	meta := root.Bucket(metaBucket)
	switch v := meta.Get(schemaKey); {
	case v == nil:
		return meta.Put(schemaKey, []byte(schemaVersion))
	case string(v) != schemaVersion:
		return fmt.Errorf("schema %q, this greenlight reads %q: %w", v, schemaVersion, ErrSchema)
	}
	return nil
}

// refuseForeignRoots rejects a file that already holds some other root
// bucket: most likely a newer schema, which this code must not scribble on.
func refuseForeignRoots(tx *bolt.Tx) error {
	var names []string
	_ = tx.ForEach(func(name []byte, _ *bolt.Bucket) error {
		names = append(names, string(name))
		return nil
	})
	if len(names) > 0 {
		return fmt.Errorf("file has root buckets %q but no %q (written by a newer greenlight?): %w", names, rootBucket, ErrSchema)
	}
	return nil
}

// buckets are the top-level buckets of the root, resolved in one transaction.
type buckets struct {
	runs, byCreated, events, patches, recordings *bolt.Bucket
	runOwners, blobGrants                        *bolt.Bucket
}

// open resolves the top-level buckets; initSchema guarantees they exist.
func open(tx *bolt.Tx) buckets {
	root := tx.Bucket(rootBucket)
	return buckets{
		runs:       root.Bucket(runsBucket),
		byCreated:  root.Bucket(byCreatedBucket),
		events:     root.Bucket(eventsBucket),
		patches:    root.Bucket(patchesBucket),
		recordings: root.Bucket(recordingsBucket),
		runOwners:  root.Bucket(runOwnersBucket),
		blobGrants: root.Bucket(blobGrantsBucket),
	}
}
