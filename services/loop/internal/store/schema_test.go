package store

import (
	"errors"
	"path/filepath"
	"testing"

	bolt "go.etcd.io/bbolt"
)

func TestOpenRefusesForeignSchema(t *testing.T) {
	tests := []struct {
		name  string
		setup func(tx *bolt.Tx) error
	}{
		{"newer root only", func(tx *bolt.Tx) error {
			_, err := tx.CreateBucket([]byte("v2"))
			return err
		}},
		{"v1 with other schema number", func(tx *bolt.Tx) error {
			root, err := tx.CreateBucket(rootBucket)
			if err != nil {
				return err
			}
			meta, err := root.CreateBucket(metaBucket)
			if err != nil {
				return err
			}
			return meta.Put(schemaKey, []byte("7"))
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "runs.db")
			db, err := bolt.Open(path, 0o600, nil)
			if err != nil {
				t.Fatal(err)
			}
			if err := db.Update(tt.setup); err != nil {
				t.Fatal(err)
			}
			if err := db.Close(); err != nil {
				t.Fatal(err)
			}
			s, err := Open(path, Options{})
			if !errors.Is(err, ErrSchema) {
				if s != nil {
					s.Close()
				}
				t.Fatalf("Open: err = %v, want ErrSchema", err)
			}
		})
	}
}
