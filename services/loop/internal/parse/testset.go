package parse

// testSet accumulates the tests one parser found: every test is counted,
// but only a bounded number of records is kept (failing ones first).
type testSet struct {
	lim     *Limits
	counts  Counts
	passing []Test
	failing []Test
	omitted int
	// summary holds counts printed by the runner itself; when set it wins
	// over counting records (records may be capped or incomplete).
	summary *Counts
	// seen is true once the parser recognized its format at all.
	seen bool
	// incomplete says why the runner's own output shows that some tests
	// never ran (a crash, an interrupted collection); "" when it does not.
	incomplete string
	// cutShort says why the runner's output shows it stopped before its
	// end (a TAP stream without its plan, a bail-out); it makes the counts
	// incomplete only when the step failed: a run that finished OK was not
	// cut short, whatever its output looks like.
	cutShort string
	// inv lists every counted test (up to Limits.MaxInventory); invCut
	// counts those beyond.
	inv    []Outcome
	invCut int
}

func newTestSet(lim *Limits) *testSet { return &testSet{lim: lim} }

// add counts a test and keeps its record while there is room.
func (s *testSet) add(t Test) {
	if s.count(t.Status) {
		s.note(t.ID, t.Status)
		s.keep(t)
	}
}

// keep keeps an already counted test's record while there is room.
func (s *testSet) keep(t Test) {
	t.Message = capString(t.Message, s.lim.MaxMessageBytes)
	if len(t.Frames) > s.lim.MaxFrames {
		t.Frames = t.Frames[:s.lim.MaxFrames]
	}
	if t.Status.failing() {
		if len(s.failing) < s.lim.MaxFailures {
			s.failing = append(s.failing, t)
			return
		}
	} else if len(s.passing) < s.lim.MaxTests {
		t.Frames = nil
		s.passing = append(s.passing, t)
		return
	}
	s.omitted++
}

// unfinished adds a test that started but never reported an outcome (its
// binary died): counted as failed and as unfinished.
func (s *testSet) unfinished(t Test) {
	t.Status = StatusFailed
	s.counts.Unfinished++
	s.add(t)
}

// countOnly counts a test without keeping its record.
func (s *testSet) countOnly(t Test) {
	if s.count(t.Status) {
		s.note(t.ID, t.Status)
		s.omitted++
	}
}

// count counts a test by status; false for a status that is not counted.
func (s *testSet) count(st Status) bool {
	s.seen = true
	switch st {
	case StatusPassed:
		s.counts.Passed++
	case StatusFailed:
		s.counts.Failed++
	case StatusSkipped:
		s.counts.Skipped++
	case StatusError:
		s.counts.Errors++
	default:
		return false
	}
	return true
}

// forgetFailing drops the kept failing records before index upto that
// drop selects, uncounting them and their inventory entries: a re-run
// replaced their outcome.
func (s *testSet) forgetFailing(upto int, drop func(Test) bool) {
	kept := s.failing[:0]
	for i, t := range s.failing {
		if i >= upto || !drop(t) {
			kept = append(kept, t)
			continue
		}
		switch t.Status {
		case StatusFailed:
			s.counts.Failed = max(0, s.counts.Failed-1)
		case StatusError:
			s.counts.Errors = max(0, s.counts.Errors-1)
		}
		for j, o := range s.inv {
			if o.ID == t.ID && o.Status == t.Status {
				s.inv = append(s.inv[:j], s.inv[j+1:]...)
				break
			}
		}
	}
	s.failing = kept
}

// keeps reports whether add would keep a record with status st rather than
// only count it.
func (s *testSet) keeps(st Status) bool {
	if st.failing() {
		return len(s.failing) < s.lim.MaxFailures
	}
	return len(s.passing) < s.lim.MaxTests
}

// setSummary records runner-printed counts, summing repeated summaries
// (cargo prints one per test binary, Maven one per module).
func (s *testSet) addSummary(c Counts) {
	s.seen = true
	if s.summary == nil {
		s.summary = &Counts{}
	}
	*s.summary = s.summary.Add(c)
}

// final returns the counts to report.
func (s *testSet) final() Counts {
	if s.summary != nil {
		return *s.summary
	}
	return s.counts
}

// records returns the kept records: failing first, then the rest.
func (s *testSet) records() []Test {
	out := make([]Test, 0, len(s.failing)+len(s.passing))
	out = append(out, s.failing...)
	return append(out, s.passing...)
}

// updateFailing finds a kept failing record by ID and applies fn; it reports
// whether one was found.
func (s *testSet) updateFailing(id string, fn func(*Test)) bool {
	for i := range s.failing {
		if s.failing[i].ID == id {
			fn(&s.failing[i])
			return true
		}
	}
	return false
}

// capString cuts s to at most n bytes on a UTF-8 boundary, marking the cut.
func capString(s string, n int) string {
	if n <= 0 || len(s) <= n {
		return s
	}
	i := n
	for i > 0 && i < len(s) && s[i]&0xC0 == 0x80 {
		i--
	}
	return s[:i] + " … [cut]"
}

// msgBuf collects message lines up to a byte cap.
type msgBuf struct {
	b   []byte
	max int
	cut bool
}

func (m *msgBuf) add(t []byte) {
	if len(m.b) >= m.max {
		m.cut = true
		return
	}
	if len(m.b) > 0 {
		m.b = append(m.b, '\n')
	}
	room := m.max - len(m.b)
	if len(t) > room {
		t = t[:room]
		m.cut = true
	}
	m.b = append(m.b, t...)
}

func (m *msgBuf) String() string {
	s := string(trimBlankLines(m.b))
	if m.cut {
		s += "\n… [cut]"
	}
	return s
}

func (m *msgBuf) reset() { m.b = m.b[:0]; m.cut = false }

// trimBlankLines drops leading and trailing blank lines.
func trimBlankLines(b []byte) []byte {
	for len(b) > 0 && (b[0] == '\n' || b[0] == ' ' || b[0] == '\t' || b[0] == '\r') {
		i := 0
		for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r') {
			i++
		}
		if i < len(b) && b[i] == '\n' {
			b = b[i+1:]
			continue
		}
		if i == len(b) {
			return nil
		}
		break
	}
	for len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == ' ' || b[len(b)-1] == '\t' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	return b
}
