package associations

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/events"
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

// A relation is one item keyed by its association and its two record ids,
// written with the condition that it is absent, so the same relation is
// stored once however many requests race. A symmetric association's pair is
// keyed in sorted order, so (b, a) lands on the key of (a, b).
func relationID(a Association, firstID, secondID string) string {
	if a.Symmetric() && secondID < firstID {
		firstID, secondID = secondID, firstID
	}
	return a.ID + "#" + firstID + "#" + secondID
}

// storedAssociation is an association and when it was created, as stored.
//
// An association is two items in its account's partition, both holding
// the whole association, written in one transaction, each on condition that
// it is absent:
//   - the key claim (ASSOCIATIONKEY#<lower-cased key>): it makes the key
//     unique (keys compare case-insensitively);
//   - the id item (ASSOCIATION#<id>), which relations look the association
//     up by.
//
// So an id item always has its claim and a claim its id item: of concurrent
// creations with one key exactly one commits, and the others fail on the
// claim's condition.
type storedAssociation struct {
	Association
	CreatedAt string `dynamodbav:"createdAt"`
}

// ErrKeyTaken is returned when the account already has an association with
// the key.
var ErrKeyTaken = errors.New("association key taken")

// ErrRelationExists is returned when the relation is already stored.
var ErrRelationExists = errors.New("relation exists")

// Graph reads and writes associations, relations and custom objects.
type Graph struct {
	table *storage.Table
	// byID are the associations by id; byKey, the key claims, by lower-cased
	// key.
	byID, byKey   *storage.AccountItems[storedAssociation]
	relations     *storage.AccountItems[Relation]
	customObjects *storage.AccountItems[CustomObject]
	customRecords *storage.AccountItems[CustomRecord]
}

// NewGraph returns the graph on table.
func NewGraph(table *storage.Table) *Graph {
	return &Graph{
		table: table,
		byID:  storage.NewAccountItems(table, "ASSOCIATION#", func(a storedAssociation) (string, string) { return a.LocationID, a.ID }),
		byKey: storage.NewAccountItems(table, "ASSOCIATIONKEY#", func(a storedAssociation) (string, string) {
			return a.LocationID, strings.ToLower(a.Key)
		}),
		// Relations are keyed through relationID, which needs their
		// association: they are written as Keyed items.
		relations: storage.NewAccountItems[Relation](table, "RELATION#", nil),
		customObjects: storage.NewAccountItems(table, "CUSTOMOBJECT#", func(o CustomObject) (string, string) {
			return o.LocationID, strings.TrimPrefix(o.Key, CustomObjectPrefix)
		}),
		customRecords: storage.NewAccountItems(table, "CUSTOMOBJECTRECORD#", func(r CustomRecord) (string, string) {
			return r.LocationID, customRecordID(strings.TrimPrefix(r.ObjectKey, CustomObjectPrefix), r.ID)
		}),
	}
}

// The area's events, in the public platform's shapes.
var (
	AssociationCreated = events.Type{
		Name: "AssociationCreate", Scope: "associations.write", Version: 1,
		Summary: "An association was created (POST /associations/).",
		Fields:  Association{},
	}
	RelationCreated = events.Type{
		Name: "RelationCreate", Scope: "associations/relation.write", Version: 1,
		Summary: "Two records were related under an association (POST /associations/relations).",
		Fields:  RelationEvent{},
	}
)

// RelationEvent is a RelationCreate event's fields: the relation and the
// objects of its two records.
type RelationEvent struct {
	ID              string `json:"id"`
	AssociationID   string `json:"associationId"`
	FirstObjectKey  string `json:"firstObjectKey"`
	FirstRecordID   string `json:"firstRecordId"`
	SecondObjectKey string `json:"secondObjectKey"`
	SecondRecordID  string `json:"secondRecordId"`
}

// CreateAssociation stores a new association with its AssociationCreate
// event; ErrKeyTaken, writing nothing, when its key is in use in the
// account.
func (s *Graph) CreateAssociation(ctx context.Context, a Association, at time.Time) error {
	stored := storedAssociation{Association: a, CreatedAt: clock.Timestamp(at)}
	tx := s.table.Tx().
		Put(s.byKey.Item(stored), storage.ItemAbsent()).Else(ErrKeyTaken).
		Put(s.byID.Item(stored), storage.ItemAbsent())
	return AssociationCreated.Add(tx, events.Owner{LocationID: a.LocationID}, a, at).Commit(ctx)
}

// Association returns the account's association with that id, or nil.
func (s *Graph) Association(ctx context.Context, accountID, id string) (*Association, error) {
	return association(s.byID.Get(ctx, accountID, id))
}

// AssociationByKey returns the account's association with that key
// (compared case-insensitively), or nil.
func (s *Graph) AssociationByKey(ctx context.Context, accountID, key string) (*Association, error) {
	return association(s.byKey.Get(ctx, accountID, strings.ToLower(key)))
}

func association(stored *storedAssociation, err error) (*Association, error) {
	if err != nil || stored == nil {
		return nil, err
	}
	return &stored.Association, nil
}

// Associations returns every association of the account (by id).
func (s *Graph) Associations(ctx context.Context, accountID string) ([]Association, error) {
	stored, err := s.byID.List(ctx, accountID)
	if err != nil {
		return nil, err
	}
	out := make([]Association, len(stored))
	for i, a := range stored {
		out[i] = a.Association
	}
	return out, nil
}

// relationItem is r as stored under a.
func (s *Graph) relationItem(a Association, r Relation) storage.Keyed {
	return storage.Keyed{Key: s.relations.Key(r.LocationID, relationID(a, r.FirstRecordID, r.SecondRecordID)), Record: r}
}

// CreateRelation stores a relation under a, with its RelationCreate event,
// in one transaction; ErrRelationExists, writing nothing, when the same
// relation is already stored.
func (s *Graph) CreateRelation(ctx context.Context, a Association, r Relation, at time.Time) error {
	tx := s.table.Tx().Put(s.relationItem(a, r), storage.ItemAbsent())
	RelationCreated.Add(tx, events.Owner{LocationID: r.LocationID}, RelationEvent{
		ID: r.ID, AssociationID: a.ID,
		FirstObjectKey: a.FirstObjectKey, FirstRecordID: r.FirstRecordID,
		SecondObjectKey: a.SecondObjectKey, SecondRecordID: r.SecondRecordID,
	}, at)
	created, err := storage.Applied(tx.Commit(ctx))
	if err == nil && !created {
		return ErrRelationExists
	}
	return err
}

// Relation returns the relation of the two records under a, or nil. Under a
// symmetric association the order of the ids does not matter.
func (s *Graph) Relation(ctx context.Context, accountID string, a Association, firstID, secondID string) (*Relation, error) {
	return s.relations.Get(ctx, accountID, relationID(a, firstID, secondID))
}

// Relations returns every relation of the account under the association.
func (s *Graph) Relations(ctx context.Context, accountID, associationID string) ([]Relation, error) {
	return s.relations.ListUnder(ctx, accountID, associationID+"#")
}
