package events

import "errors"

// ErrInvalidArgument means a subscription request cannot be served as asked.
var ErrInvalidArgument = errors.New("invalid argument")
