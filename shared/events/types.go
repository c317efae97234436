package events

// The registry as the binaries read it: names, and the types each kind of
// receiver may choose.

// Names are the names of types, in their order.
func Names(types []Type) []string {
	out := make([]string, len(types))
	for i, typ := range types {
		out[i] = typ.Name
	}
	return out
}

// EndpointTypes are the names of the registry's types an account's own
// webhook endpoint may choose (the portal, platformctl webhooks): its
// account's events, not a company's, nor those routed to one app.
func EndpointTypes() []string {
	var out []string
	for _, typ := range Registry {
		if !typ.OfCompany && !typ.Routed {
			out = append(out, typ.Name)
		}
	}
	return out
}

// AppTypes are the names of the registry's types a marketplace app may
// choose (platformctl apps --events): all but those routed to their one
// app, which reach it whatever it chose.
func AppTypes() []string {
	var out []string
	for _, typ := range Registry {
		if !typ.Routed {
			out = append(out, typ.Name)
		}
	}
	return out
}
