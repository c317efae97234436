package payments

import (
	"regexp"
	"sync"
)

// Gateways a white-label provider can be built on (the public API's values).
const (
	GatewayAuthorizeNet = "authorize-net"
	GatewayNMI          = "nmi"
)

var gateways = []string{GatewayAuthorizeNet, GatewayNMI}

// maxUniqueNameLen bounds uniqueName, which becomes part of a sort key.
const maxUniqueNameLen = 64

// uniqueNamePattern: lowercase letters and hyphens, starting and ending with
// a letter (a single letter is a valid name). Compiled on first use, not at
// every cold start.
var uniqueNamePattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z](?:[a-z-]*[a-z])?$`) })

// uniqueNameProblem returns why name is not a valid uniqueName, or "".
func uniqueNameProblem(name string) string {
	switch {
	case name == "":
		return "uniqueName is required"
	case len(name) > maxUniqueNameLen:
		return "uniqueName must be at most 64 characters long"
	case !uniqueNamePattern().MatchString(name):
		return "uniqueName must contain only lowercase letters and hyphens, and start and end with a letter"
	default:
		return ""
	}
}

// routeOf derives a provider's route from its uniqueName: the route is the
// uniqueName itself. A valid uniqueName is already a URL-safe slug
// (lowercase letters and hyphens, letter at both ends) and is unique within
// the account, so the route is too, and a client can predict it from the
// name it chose (uniqueName "easy-direct" has route "easy-direct").
func routeOf(uniqueName string) string { return uniqueName }

// Provider is a white-label payment integration provider as the API shows it.
type Provider struct {
	ID          string `dynamodbav:"id" json:"_id"`
	AltID       string `dynamodbav:"altId" json:"altId"`
	AltType     string `dynamodbav:"altType" json:"altType"`
	Title       string `dynamodbav:"title" json:"title"`
	Route       string `dynamodbav:"route" json:"route"`
	Provider    string `dynamodbav:"provider" json:"provider"`
	Description string `dynamodbav:"description" json:"description"`
	ImageURL    string `dynamodbav:"imageUrl" json:"imageUrl"`
	CreatedAt   string `dynamodbav:"createdAt" json:"createdAt"`
	UpdatedAt   string `dynamodbav:"updatedAt" json:"updatedAt"`
}

// NamedProvider is a provider with the uniqueName it was created with, as
// it is stored; its route is derived from the uniqueName.
type NamedProvider struct {
	UniqueName string `dynamodbav:"uniqueName" json:"uniqueName"`
	Provider
}
