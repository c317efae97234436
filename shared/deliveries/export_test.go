package deliveries

// AttributeNames are the attribute names conditions and updates use.
func AttributeNames() []string {
	return []string{attrEventID, attrCreatedAt, attrStatus, attrNextAt, attrAttempts, attrRetryFrom, attrLease}
}
