package discoverysvc

import (
	"container/list"
	"sync"

	"github.com/greenlight-dev/greenlight/pkg/blob"
	"github.com/greenlight-dev/greenlight/services/discovery/internal/snapshot"
)

// indexCache keeps the indices of recently seen snapshots. Snapshots are
// immutable (named by content digest), so an entry never goes stale; a
// verification asks Discover then Plan for the same snapshot, and a repair
// loop re-plans it, so the tar is read once.
type indexCache struct {
	mu    sync.Mutex
	max   int
	order *list.List
	items map[blob.Digest]*list.Element
}

type cacheEntry struct {
	key blob.Digest
	ix  *snapshot.Index
}

func newIndexCache(max int) *indexCache {
	return &indexCache{max: max, order: list.New(), items: map[blob.Digest]*list.Element{}}
}

func (c *indexCache) get(d blob.Digest) (*snapshot.Index, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.items[d]; ok {
		c.order.MoveToFront(el)
		return el.Value.(*cacheEntry).ix, true
	}
	return nil, false
}

func (c *indexCache) put(d blob.Digest, ix *snapshot.Index) {
	if c.max <= 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.items[d]; ok {
		c.order.MoveToFront(el)
		return
	}
	c.items[d] = c.order.PushFront(&cacheEntry{key: d, ix: ix})
	for c.order.Len() > c.max {
		last := c.order.Back()
		c.order.Remove(last)
		delete(c.items, last.Value.(*cacheEntry).key)
	}
}
