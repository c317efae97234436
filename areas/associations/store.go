package associations

import (
	"context"
	"errors"
	"strings"

	"github.com/bizplatform/api/shared/storage"
)

// AssociationTypeUserDefined is the type of every association created
// through the API (SYSTEM_DEFINED ones come with the platform).
const AssociationTypeUserDefined = "USER_DEFINED"

// Association defines a link type between two object kinds, as the API
// shows it.
type Association struct {
	LocationID        string `dynamodbav:"locationId" json:"locationId"`
	ID                string `dynamodbav:"id" json:"id"`
	Key               string `dynamodbav:"key" json:"key"`
	FirstObjectLabel  string `dynamodbav:"firstObjectLabel" json:"firstObjectLabel"`
	FirstObjectKey    string `dynamodbav:"firstObjectKey" json:"firstObjectKey"`
	SecondObjectLabel string `dynamodbav:"secondObjectLabel" json:"secondObjectLabel"`
	SecondObjectKey   string `dynamodbav:"secondObjectKey" json:"secondObjectKey"`
	AssociationType   string `dynamodbav:"associationType" json:"associationType"`
}

// Symmetric reports whether the association's relations are unordered
// pairs: both sides are contacts and carry the same label ("Sibling" and
// "Sibling"), so relating a to b says the same as relating b to a. With
// distinct labels ("Parent", "Child") the order of the records carries
// meaning and (b, a) is another relation than (a, b).
func (a Association) Symmetric() bool {
	return a.FirstObjectKey == ContactObjectKey && a.SecondObjectKey == ContactObjectKey &&
		strings.EqualFold(strings.TrimSpace(a.FirstObjectLabel), strings.TrimSpace(a.SecondObjectLabel))
}

// Relation links two records under an association.
type Relation struct {
	ID             string `dynamodbav:"id" json:"id"`
	LocationID     string `dynamodbav:"locationId" json:"locationId"`
	AssociationID  string `dynamodbav:"associationId" json:"associationId"`
	FirstRecordID  string `dynamodbav:"firstRecordId" json:"firstRecordId"`
	SecondRecordID string `dynamodbav:"secondRecordId" json:"secondRecordId"`
	CreatedAt      string `dynamodbav:"createdAt" json:"createdAt"`
}

// An association is two items in its account's partition, both holding the
// whole association:
//   - the key claim (ASSOCIATIONKEY#<lower-cased key>), written first with
//     the condition that it is absent: it makes the key unique (keys compare
//     case-insensitively) and is the commit point of a creation;
//   - the id item (ASSOCIATION#<id>), written after the claim, which
//     relations look the association up by.
//
// dynalite has no transactions. A creation that stops between the two writes
// leaves a claim without its id item; the caller got an error and never saw
// the id, and the next creation with that key completes the pair from the
// claim (an idempotent absolute write) before answering that the key is
// taken. An id item therefore always has its claim.
func associationKey(accountID, id string) storage.Key {
	return storage.Key{PK: storage.AccountPK(accountID), SK: "ASSOCIATION#" + id}
}

func associationKeyClaimKey(accountID, key string) storage.Key {
	return storage.Key{PK: storage.AccountPK(accountID), SK: "ASSOCIATIONKEY#" + strings.ToLower(key)}
}

// A relation is one item keyed by its association and its two record ids,
// written with the condition that it is absent, so the same relation is
// stored once however many requests race. A symmetric association's pair is
// keyed in sorted order, so (b, a) lands on the key of (a, b).
func relationKey(accountID string, a Association, firstID, secondID string) storage.Key {
	if a.Symmetric() && secondID < firstID {
		firstID, secondID = secondID, firstID
	}
	return storage.Key{PK: storage.AccountPK(accountID), SK: "RELATION#" + a.ID + "#" + firstID + "#" + secondID}
}

func relationPrefix(associationID string) string { return "RELATION#" + associationID + "#" }

type associationItem struct {
	storage.Key
	Association
	CreatedAt string `dynamodbav:"createdAt"`
}

type relationItem struct {
	storage.Key
	Relation
}

// ErrKeyTaken is returned when the account already has an association with
// the key.
var ErrKeyTaken = errors.New("association key taken")

// ErrRelationExists is returned when the relation is already stored.
var ErrRelationExists = errors.New("relation exists")

// Graph reads and writes associations, relations and custom objects.
type Graph struct {
	table *storage.Table
}

// NewGraph returns the graph on table.
func NewGraph(table *storage.Table) *Graph { return &Graph{table: table} }

// CreateAssociation stores a new association; ErrKeyTaken when its key is in
// use in the account.
func (s *Graph) CreateAssociation(ctx context.Context, a Association, createdAt string) error {
	claim := associationItem{Key: associationKeyClaimKey(a.LocationID, a.Key), Association: a, CreatedAt: createdAt}
	err := s.table.Put(ctx, claim, storage.ItemAbsent())
	if storage.IsConditionFailed(err) {
		if err := s.completeClaim(ctx, a.LocationID, a.Key); err != nil {
			return err
		}
		return ErrKeyTaken
	}
	if err != nil {
		return err
	}
	return s.table.Put(ctx, associationItem{Key: associationKey(a.LocationID, a.ID), Association: a, CreatedAt: createdAt}, nil)
}

// completeClaim writes the id item of the association holding the key claim,
// in case its creation stopped half-way. Writing it again is harmless: it
// holds the same content.
func (s *Graph) completeClaim(ctx context.Context, accountID, key string) error {
	claim, err := storage.Get[associationItem](ctx, s.table, associationKeyClaimKey(accountID, key))
	if err != nil || claim == nil {
		return err
	}
	claim.Key = associationKey(accountID, claim.ID)
	return s.table.Put(ctx, claim, nil)
}

// Association returns the account's association with that id, or nil.
func (s *Graph) Association(ctx context.Context, accountID, id string) (*Association, error) {
	item, err := storage.Get[associationItem](ctx, s.table, associationKey(accountID, id))
	if err != nil || item == nil {
		return nil, err
	}
	return &item.Association, nil
}

// AssociationByKey returns the account's association with that key
// (compared case-insensitively), or nil.
func (s *Graph) AssociationByKey(ctx context.Context, accountID, key string) (*Association, error) {
	item, err := storage.Get[associationItem](ctx, s.table, associationKeyClaimKey(accountID, key))
	if err != nil || item == nil {
		return nil, err
	}
	return &item.Association, nil
}

// Associations returns every association of the account (by id).
func (s *Graph) Associations(ctx context.Context, accountID string) ([]Association, error) {
	items, err := storage.QueryPartition[associationItem](ctx, s.table, storage.AccountPK(accountID), "ASSOCIATION#")
	if err != nil {
		return nil, err
	}
	out := make([]Association, len(items))
	for i, it := range items {
		out[i] = it.Association
	}
	return out, nil
}

// CreateRelation stores a relation under a; ErrRelationExists when the same
// relation is already stored.
func (s *Graph) CreateRelation(ctx context.Context, a Association, r Relation) error {
	item := relationItem{Key: relationKey(r.LocationID, a, r.FirstRecordID, r.SecondRecordID), Relation: r}
	err := s.table.Put(ctx, item, storage.ItemAbsent())
	if storage.IsConditionFailed(err) {
		return ErrRelationExists
	}
	return err
}

// Relation returns the relation of the two records under a, or nil. Under a
// symmetric association the order of the ids does not matter.
func (s *Graph) Relation(ctx context.Context, accountID string, a Association, firstID, secondID string) (*Relation, error) {
	item, err := storage.Get[relationItem](ctx, s.table, relationKey(accountID, a, firstID, secondID))
	if err != nil || item == nil {
		return nil, err
	}
	return &item.Relation, nil
}

// Relations returns every relation of the account under the association.
func (s *Graph) Relations(ctx context.Context, accountID, associationID string) ([]Relation, error) {
	items, err := storage.QueryPartition[relationItem](ctx, s.table, storage.AccountPK(accountID), relationPrefix(associationID))
	if err != nil {
		return nil, err
	}
	out := make([]Relation, len(items))
	for i, it := range items {
		out[i] = it.Relation
	}
	return out, nil
}
