// Package display holds how greenlight shows protobuf values to a person.
// (It lives outside pkg/api: buf generate cleans that tree.)
package display

// Commanded is a step or a step result: both carry the command that ran and
// the command as a person would type it.
type Commanded interface {
	GetCommand() string
	GetDisplayCommand() string
}

// Command is the command to show a person: display_command when the command
// that ran wraps it (e.g. a tee into a report file), else the command itself.
func Command(s Commanded) string {
	if d := s.GetDisplayCommand(); d != "" {
		return d
	}
	return s.GetCommand()
}
