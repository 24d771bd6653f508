// Package store is loop's durable run store: runs, their append-only event
// logs, patch outcomes and provider recordings in one bbolt file.
//
// # Bucket tree
//
// Every value is a binary-marshalled protobuf message unless noted. All
// integers in keys are big-endian so that bbolt's byte order is numeric order.
//
//	v1/                                root bucket, one per schema version
//	├── meta/
//	│   └── "schema"       → "1"       schema version of this tree
//	├── runs/
//	│   └── <run id>       → Run       patches and last_seq are not stored here:
//	│                                  they are filled in on read (see below)
//	├── by_created/                    listing index, newest first = reverse order
//	│   └── <created ns, 8 bytes, sign bit flipped><run id> → <status, 4 bytes>
//	├── events/
//	│   └── <run id>/                  one bucket per run, created with the run;
//	│       │                          its bbolt sequence is the run's last_seq
//	│       └── <seq, 8 bytes> → RunEvent
//	├── patches/
//	│   └── <run id>/
//	│       └── <attempt, 4 bytes> → PatchOutcome    one outcome per attempt
//	├── recordings/
//	│   └── <run id>/
//	│       └── <seq, 8 bytes> → opaque bytes        provider exchanges (replay)
//	├── run_owners/
//	│   └── <run id>       → owner     who created the run (absent: nobody
//	│                                  recorded, only unrestricted readers see it)
//	└── blob_grants/
//	    └── <hash, 64 hex><owner> → "" the owner may read the blob: it uploaded
//	                                   it or one of its runs refers to it
//
// # Tenancy
//
// Reads through a context made with WithViewer show only the viewer's
// runs: GetRun and Events answer ErrNotFound for anyone else's, ListRuns
// leaves them out. Grants for a run's blobs are written with the record,
// event or patch outcome that names them (see owners.go).
//
// A schema change that cannot be read by this code gets a new root bucket
// (v2/...) and a migration; Open refuses a file whose only root is unknown.
//
// # Invariants
//
//   - A run is written (CreateRun) before any work starts on it.
//   - Run.last_seq equals the seq of the run's newest event; seqs start at 1
//     and have no gaps. It is derived from the events bucket's sequence, which
//     AppendEvent bumps in the same transaction that stores the event, so the
//     two can never disagree.
//   - A run is finished exactly when its status is terminal (PASSED, FAILED,
//     ERROR, CANCELED, INTERRUPTED); then finished_at is set and the last event
//     is RunFinished. The only ways to get there are appending a RunFinished
//     event (AppendEvent or Finish) and RecoverInterrupted. No event can be
//     appended after it, which is what lets watchers end their streams there.
//
// # Per-run cap
//
// Each run's event log is capped (Options.MaxRunEventBytes, MaxRunEvents).
// Past the cap, droppable events (live log chunks) are refused with
// ErrEventCap, and so is every later one (even one small enough to fit),
// so the stored output ends rather than skips; every other event is still
// stored, so a run can always finish. The usage of unfinished runs is kept in memory by the writer and
// counted from the log on a run's first droppable append after Open.
//
// # Durability
//
// bbolt fsyncs the file on every commit (Options.NoSync turns that off, for
// tests and benchmarks only), so an event is on disk when its append is
// acknowledged; the hub publishes to live watchers only after that, and a
// process killed at any point loses at most the events whose append had not
// yet been acknowledged. The price is one fsync per commit, so appends go
// through a group-commit writer (writer.go): one goroutine takes whatever is
// queued, up to maxGroup events or maxGroupBytes, stores it in one
// transaction and only then acknowledges each append, in queue order —
// AppendEvent returns, AppendEventAsync's callback runs. Appends that arrive
// while a commit is in flight share the next one: concurrent runs share an
// fsync, and a producer with a burst of events queues them with
// AppendEventAsync without waiting, so its own events share one too. The
// queue is bounded (queueLen appends, queueBytes bytes, counted until
// acknowledged) and appenders wait past that, so memory stays bounded when
// producers outrun the disk. A failed transaction fails exactly its appends:
// their events get seq 0 back and the runs' sequences roll back with it, so
// no seq is used twice or skipped. The writer never waits for a timer
// (bbolt's DB.Batch would add up to MaxBatchDelay, 10 ms, to a lone
// append, and may run a function twice). Event logs pack their pages 90 %
// full (eventLogFill): seqs only grow.
//
// Long reads are paged (Events takes a limit) because an open bbolt read
// transaction stops writers from growing the memory map.
package store
