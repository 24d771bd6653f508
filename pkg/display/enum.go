package display

import (
	"strconv"
	"strings"

	"google.golang.org/protobuf/reflect/protoreflect"
)

// Enum is a greenlight enum value's name without its type's prefix:
// STEP_STATUS_TIMED_OUT → TIMED_OUT, LEVEL_L4 → L4, TIER_0 → 0; the zero
// value is UNSPECIFIED. The prefix is the zero value's name less
// UNSPECIFIED (buf lint's STANDARD rules give every enum one), so no
// caller spells it out. A number no value has is returned as the number,
// as the enum's String method does.
func Enum(e protoreflect.Enum) string {
	values := e.Descriptor().Values()
	v := values.ByNumber(e.Number())
	if v == nil {
		return strconv.Itoa(int(e.Number()))
	}
	prefix := ""
	if zero := values.ByNumber(0); zero != nil {
		prefix = strings.TrimSuffix(string(zero.Name()), "UNSPECIFIED")
	}
	return strings.TrimPrefix(string(v.Name()), prefix)
}

// EnumOr is Enum, or none for the zero value (X_UNSPECIFIED): "—" in a
// table, "none" in a sentence.
func EnumOr(e protoreflect.Enum, none string) string {
	if e.Number() == 0 {
		return none
	}
	return Enum(e)
}
