package contract

import (
	"encoding/base64"
	"strings"
	"time"
	"unicode"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/timestamppb"
)

// Message renders any API message (capabilities, run events, runs) by the
// contract's rules, for outputs without a hand-written contract type:
// proto field names; every field present (unset messages null, empty
// lists []) except a oneof's unset members: the set one appears, and the
// oneof's own name says which (RunEvent: "kind": "step_finished"); enums by their short
// name (STEP_STATUS_OK → OK); 64-bit integers as numbers; timestamps as
// RFC 3339 UTC strings; durations as whole milliseconds under the field
// name plus "_ms"; bytes as base64.
func Message(m proto.Message) map[string]any {
	if m == nil {
		return nil
	}
	return messageValue(m.ProtoReflect())
}

func messageValue(m protoreflect.Message) map[string]any {
	out := map[string]any{}
	fields := m.Descriptor().Fields()
	for i := 0; i < fields.Len(); i++ {
		fd := fields.Get(i)
		if o := fd.ContainingOneof(); o != nil && !o.IsSynthetic() {
			if !m.Has(fd) {
				continue
			}
			out[string(o.Name())] = string(fd.Name())
		}
		name := string(fd.Name())
		if isDuration(fd) {
			name += "_ms"
		}
		out[name] = fieldValue(m, fd)
	}
	return out
}

func fieldValue(m protoreflect.Message, fd protoreflect.FieldDescriptor) any {
	switch {
	case fd.IsList():
		l := m.Get(fd).List()
		vals := make([]any, 0, l.Len())
		for i := 0; i < l.Len(); i++ {
			vals = append(vals, scalar(fd, l.Get(i)))
		}
		return vals
	case fd.IsMap():
		obj := map[string]any{}
		m.Get(fd).Map().Range(func(k protoreflect.MapKey, v protoreflect.Value) bool {
			obj[k.String()] = scalar(fd.MapValue(), v)
			return true
		})
		return obj
	case fd.Kind() == protoreflect.MessageKind && !m.Has(fd):
		return nil
	}
	return scalar(fd, m.Get(fd))
}

// scalar renders one value of field fd (a list element or a singular value).
func scalar(fd protoreflect.FieldDescriptor, v protoreflect.Value) any {
	switch fd.Kind() {
	case protoreflect.EnumKind:
		return enumName(fd.Enum(), v.Enum())
	case protoreflect.BytesKind:
		return base64.StdEncoding.EncodeToString(v.Bytes())
	case protoreflect.MessageKind, protoreflect.GroupKind:
		return wellKnown(v.Message())
	}
	return v.Interface()
}

// wellKnown renders timestamps and durations by the contract's rules and
// any other message as an object.
func wellKnown(m protoreflect.Message) any {
	switch msg := m.Interface().(type) {
	case *timestamppb.Timestamp:
		return msg.AsTime().UTC().Format(time.RFC3339Nano)
	case *durationpb.Duration:
		return msg.AsDuration().Milliseconds()
	}
	return messageValue(m)
}

func isDuration(fd protoreflect.FieldDescriptor) bool {
	return fd.Kind() == protoreflect.MessageKind && fd.Message().FullName() == "google.protobuf.Duration"
}

// enumName is an enum value's name without the enum's UPPER_SNAKE prefix.
func enumName(ed protoreflect.EnumDescriptor, n protoreflect.EnumNumber) any {
	v := ed.Values().ByNumber(n)
	if v == nil {
		return int32(n)
	}
	name := string(v.Name())
	short := strings.TrimPrefix(name, upperSnake(string(ed.Name()))+"_")
	if short == "" || unicode.IsDigit(rune(short[0])) {
		return name // TIER_0 stays TIER_0: a bare "0" reads as a number
	}
	return short
}

// upperSnake turns StepStatus into STEP_STATUS.
func upperSnake(s string) string {
	var b strings.Builder
	for i, r := range s {
		if i > 0 && unicode.IsUpper(r) {
			b.WriteByte('_')
		}
		b.WriteRune(unicode.ToUpper(r))
	}
	return b.String()
}
