package associations

import (
	"fmt"
	"strings"

	"github.com/bizplatform/api/shared/validate"
)

// Object keys as the public API writes them: the standard contact object,
// and custom objects as "custom_objects.<name>".
const (
	ContactObjectKey   = "contact"
	CustomObjectPrefix = "custom_objects."
)

// objectRef is one side of an association: the contact object, or the
// custom object named customObject.
type objectRef struct {
	customObject string // "" for the contact object
}

func (o objectRef) isContact() bool { return o.customObject == "" }

// parseObjectKey reads an object key. The custom object's name becomes part
// of a storage key, so it must be a well-formed id.
func parseObjectKey(field, key string) (objectRef, string) {
	if key == ContactObjectKey {
		return objectRef{}, ""
	}
	if name, ok := strings.CutPrefix(key, CustomObjectPrefix); ok && validate.IDProblem(field, name) == "" {
		return objectRef{customObject: name}, ""
	}
	return objectRef{}, fmt.Sprintf("%s must be %q or %q followed by the custom object's name (for example custom_objects.pet)", field, ContactObjectKey, CustomObjectPrefix)
}
