package sandbox

// runtimeOf is the runtime a step's image serves.
func (r *Request) runtimeOf(s *Step) string {
	if s.Runtime != "" {
		return s.Runtime
	}
	return r.Runtime
}
