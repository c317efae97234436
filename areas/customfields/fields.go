package customfields

import (
	"slices"
	"strings"
)

// Data types of a custom field, as the public API spells them (MONETORY
// included).
const (
	TypeText            = "TEXT"
	TypeLargeText       = "LARGE_TEXT"
	TypeNumerical       = "NUMERICAL"
	TypePhone           = "PHONE"
	TypeMonetory        = "MONETORY"
	TypeCheckbox        = "CHECKBOX"
	TypeSingleOptions   = "SINGLE_OPTIONS"
	TypeMultipleOptions = "MULTIPLE_OPTIONS"
	TypeDate            = "DATE"
	TypeTextboxList     = "TEXTBOX_LIST"
	TypeFileUpload      = "FILE_UPLOAD"
	TypeRadio           = "RADIO"
)

// DataTypes are every data type.
var DataTypes = []string{
	TypeText, TypeLargeText, TypeNumerical, TypePhone, TypeMonetory, TypeCheckbox,
	TypeSingleOptions, TypeMultipleOptions, TypeDate, TypeTextboxList, TypeFileUpload, TypeRadio,
}

// optionTypes are the data types that have options.
var optionTypes = []string{TypeSingleOptions, TypeMultipleOptions, TypeRadio, TypeCheckbox, TypeTextboxList}

func hasOptions(dataType string) bool { return slices.Contains(optionTypes, dataType) }

// AcceptedFormats are the values acceptedFormats may take on a FILE_UPLOAD
// field.
var AcceptedFormats = []string{".pdf", ".docx", ".doc", ".jpg", ".jpeg", ".png", ".gif", ".csv", ".xlsx", ".xls", "all"}

// Object keys. The update serves only custom objects and the company
// object, whose standard key in the public API is "business".
const (
	customObjectPrefix = "custom_object."
	ObjectBusiness     = "business"
)

// isUpdatable reports whether fields of the object may be updated.
func isUpdatable(objectKey string) bool {
	return objectKey == ObjectBusiness ||
		(strings.HasPrefix(objectKey, customObjectPrefix) && len(objectKey) > len(customObjectPrefix))
}

// Limits of an update. The public API does not state them; they keep a field
// (one item, options included) well under DynamoDB's 400 KB item size:
// 300 options of 100-character labels and 500-character URLs stay below
// 300 KB even in 4-byte characters.
const (
	maxNameLen        = 255
	maxDescriptionLen = 2000
	maxPlaceholderLen = 255
	maxOptions        = 300
	maxLabelLen       = 100
	maxURLLen         = 500
	// MaxFileLimit is the largest maxFileLimit: files per upload.
	MaxFileLimit = 20
	// maxOptionKeyLen bounds the part of a generated option key taken from
	// the label.
	maxOptionKeyLen = 40
)
