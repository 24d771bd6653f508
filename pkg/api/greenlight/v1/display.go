// Hand-written, next to the generated code: buf generate leaves this file
// alone (check-generate compares the generated files only by regenerating).

package greenlightv1

// ShownCommand is the command to show a person: display_command when the
// command that ran wraps it (e.g. a tee into a report file), else command.
func (x *Step) ShownCommand() string {
	if d := x.GetDisplayCommand(); d != "" {
		return d
	}
	return x.GetCommand()
}

// ShownCommand is the command to show a person: display_command when the
// command that ran wraps it (e.g. a tee into a report file), else command.
func (x *StepResult) ShownCommand() string {
	if d := x.GetDisplayCommand(); d != "" {
		return d
	}
	return x.GetCommand()
}
