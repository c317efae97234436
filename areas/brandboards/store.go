package brandboards

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/bizplatform/api/shared/storage"
)

// Board is a brand board as the API shows it.
type Board struct {
	ID         string  `dynamodbav:"id" json:"_id"`
	LocationID string  `dynamodbav:"locationId" json:"locationId"`
	Name       string  `dynamodbav:"name" json:"name"`
	Logos      []Logo  `dynamodbav:"logos" json:"logos"`
	Colors     []Color `dynamodbav:"colors" json:"colors"`
	Fonts      []Font  `dynamodbav:"fonts" json:"fonts"`
	Default    bool    `dynamodbav:"default" json:"default"`
	Deleted    bool    `dynamodbav:"deleted" json:"deleted"`
	ParentID   string  `dynamodbav:"parentId,omitempty" json:"parentId,omitempty"`
	FolderID   string  `dynamodbav:"folderId,omitempty" json:"folderId,omitempty"`
	OriginID   string  `dynamodbav:"originId,omitempty" json:"originId,omitempty"`
	Meta       Meta    `dynamodbav:"meta" json:"meta"`
	CreatedAt  string  `dynamodbav:"createdAt" json:"createdAt"`
	UpdatedAt  string  `dynamodbav:"updatedAt" json:"updatedAt"`
}

// Logo is a logo of a board.
type Logo struct {
	ID    string `dynamodbav:"id" json:"id"`
	URL   string `dynamodbav:"url" json:"url"`
	Label string `dynamodbav:"label" json:"label"`
	Path  string `dynamodbav:"path" json:"path"`
}

// Color is a color of a board in each notation.
type Color struct {
	ID    string `dynamodbav:"id" json:"id"`
	Hexa  string `dynamodbav:"hexa" json:"hexa"`
	Rgba  string `dynamodbav:"rgba" json:"rgba"`
	Hex   string `dynamodbav:"hex" json:"hex"`
	Rgb   string `dynamodbav:"rgb" json:"rgb"`
	Label string `dynamodbav:"label" json:"label"`
}

// Font is a font of a board.
type Font struct {
	ID       string `dynamodbav:"id" json:"id"`
	Font     string `dynamodbav:"font" json:"font"`
	Fallback string `dynamodbav:"fallback" json:"fallback"`
	Label    string `dynamodbav:"label" json:"label"`
}

// Meta tells how a board was created.
type Meta struct {
	SourceID   string `dynamodbav:"sourceId,omitempty" json:"sourceId,omitempty"`
	SourceType string `dynamodbav:"sourceType,omitempty" json:"sourceType,omitempty"`
}

// Which board is the account's default is decided by one account-level item,
// the default pointer (DEFAULTBRANDBOARD): its boardId names the default
// board, and every move of it adds one to its version in the same atomic
// update. The pointer is the authority: Get and List derive each board's
// `default` from it.
//
// The boards' stored `default` flags are kept in step with the pointer
// without transactions (dynalite has none) by stamping them with pointer
// versions: a flag write made under pointer version v carries
// defaultVersion = v and only lands where defaultVersion < v, so an older
// writer never undoes a newer one. Making board B the default:
//
//  1. B is written whole with default false and pendingDefault set;
//  2. the pointer moves to B, which yields version v;
//  3. B's flag is set true under v (B's pendingDefault is then removed);
//  4. every other board whose flag is true or pending is stamped false
//     under v (a strongly consistent read of the account's boards).
//
// Whatever the interleaving, once the writer with the highest version has
// finished, its board is the only one flagged: every board another writer
// may still flag true is pending until that writer's step 3, and was written
// before its pointer move, hence before the last writer's read in step 4,
// which stamps it false under a version no older writer can beat. A writer
// that stops after step 2 leaves the pointer right and the flags stale until
// the next default change repairs them.
func boardKey(accountID, id string) storage.Key {
	return storage.Key{PK: storage.AccountPK(accountID), SK: boardPrefix + id}
}

const boardPrefix = "BRANDBOARD#"

func defaultPointerKey(accountID string) storage.Key {
	return storage.Key{PK: storage.AccountPK(accountID), SK: "DEFAULTBRANDBOARD"}
}

// Attribute names the default protocol writes.
const (
	attrDefault        = "default"
	attrDefaultVersion = "defaultVersion"
	attrPendingDefault = "pendingDefault"
)

type boardItem struct {
	storage.Key
	Board
	// DefaultVersion is the pointer version under which Default was last
	// written (0: written at creation).
	DefaultVersion int64 `dynamodbav:"defaultVersion"`
	// PendingDefault marks a board created as the default whose own flag is
	// not settled yet.
	PendingDefault bool `dynamodbav:"pendingDefault,omitempty"`
	// Version guards read-modify-write updates of the board's content.
	Version int64 `dynamodbav:"version"`
}

type defaultPointerItem struct {
	storage.Key
	BoardID   string `dynamodbav:"boardId"`
	Version   int64  `dynamodbav:"version"`
	UpdatedAt string `dynamodbav:"updatedAt"`
}

// SettleError reports that a board became the account's default (the
// pointer names it) but the stored flags could not all be brought in line;
// the next default change repairs them.
type SettleError struct{ Err error }

func (e *SettleError) Error() string { return "settle default flags: " + e.Err.Error() }
func (e *SettleError) Unwrap() error { return e.Err }

// Boards reads and writes brand boards.
type Boards struct {
	table *storage.Table
}

// NewBoards returns the boards on table.
func NewBoards(table *storage.Table) *Boards { return &Boards{table: table} }

// Create stores a new board. A board with Default set becomes the account's
// only default (see the protocol above); a *SettleError then means it did,
// but older flags are still to be cleared.
func (s *Boards) Create(ctx context.Context, b Board) error {
	item := boardItem{Key: boardKey(b.LocationID, b.ID), Board: b, PendingDefault: b.Default, Version: 1}
	item.Default = false
	if err := s.table.Put(ctx, item, storage.ItemAbsent()); err != nil {
		return err
	}
	if !b.Default {
		return nil
	}
	// If the move fails the board stays, whole and not flagged; whether it
	// is the default is whatever the pointer says.
	version, err := s.movePointer(ctx, b.LocationID, b.ID, b.UpdatedAt)
	if err != nil {
		return err
	}
	if err := s.settleFlags(ctx, b.LocationID, b.ID, version); err != nil {
		return &SettleError{Err: err}
	}
	return nil
}

// movePointer makes boardID the account's default and returns the pointer's
// new version.
func (s *Boards) movePointer(ctx context.Context, accountID, boardID, at string) (int64, error) {
	update := expression.Set(expression.Name("boardId"), expression.Value(boardID)).
		Set(expression.Name("updatedAt"), expression.Value(at)).
		Add(expression.Name("version"), expression.Value(1))
	expr, err := expression.NewBuilder().WithUpdate(update).Build()
	if err != nil {
		return 0, fmt.Errorf("build pointer update: %w", err)
	}
	out, err := s.table.DB.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:                 aws.String(s.table.Name),
		Key:                       defaultPointerKey(accountID).AV(),
		UpdateExpression:          expr.Update(),
		ExpressionAttributeNames:  expr.Names(),
		ExpressionAttributeValues: expr.Values(),
		ReturnValues:              types.ReturnValueAllNew,
	})
	if err != nil {
		return 0, err
	}
	var p defaultPointerItem
	if err := attributevalue.UnmarshalMap(out.Attributes, &p); err != nil {
		return 0, fmt.Errorf("decode default pointer: %w", err)
	}
	return p.Version, nil
}

// settleFlags runs steps 3 and 4 of the protocol for the board the pointer
// was moved to under version.
func (s *Boards) settleFlags(ctx context.Context, accountID, boardID string, version int64) error {
	olderThan := expression.Name(attrDefaultVersion).LessThan(expression.Value(version))
	own := expression.Set(expression.Name(attrDefault), expression.Value(true)).
		Set(expression.Name(attrDefaultVersion), expression.Value(version)).
		Remove(expression.Name(attrPendingDefault))
	err := s.table.Update(ctx, boardKey(accountID, boardID), own, &olderThan)
	if storage.IsConditionFailed(err) {
		// A newer default already stamped this board false, and nothing will
		// flag it true again: only the mark is left to drop.
		err = s.table.Update(ctx, boardKey(accountID, boardID), expression.Remove(expression.Name(attrPendingDefault)), storage.ItemExists())
	}
	if err != nil {
		return err
	}
	boards, err := storage.QueryPartition[boardItem](ctx, s.table, storage.AccountPK(accountID), boardPrefix)
	if err != nil {
		return err
	}
	clear := expression.Set(expression.Name(attrDefault), expression.Value(false)).
		Set(expression.Name(attrDefaultVersion), expression.Value(version))
	for _, b := range boards {
		if b.ID == boardID || b.DefaultVersion >= version || !(b.Default || b.PendingDefault) {
			continue
		}
		err := s.table.Update(ctx, b.Key, clear, &olderThan)
		if err != nil && !storage.IsConditionFailed(err) {
			return err
		}
	}
	return nil
}

// board returns the stored board (its flag as stored), or nil.
func (s *Boards) board(ctx context.Context, accountID, id string) (*boardItem, error) {
	return storage.Get[boardItem](ctx, s.table, boardKey(accountID, id))
}

// DefaultID returns the id of the account's default board ("" when it has
// none).
func (s *Boards) DefaultID(ctx context.Context, accountID string) (string, error) {
	p, err := storage.Get[defaultPointerItem](ctx, s.table, defaultPointerKey(accountID))
	if err != nil || p == nil {
		return "", err
	}
	return p.BoardID, nil
}

// Get returns the account's board, or nil. Its Default comes from the
// default pointer.
func (s *Boards) Get(ctx context.Context, accountID, id string) (*Board, error) {
	item, err := s.board(ctx, accountID, id)
	if err != nil || item == nil {
		return nil, err
	}
	def, err := s.DefaultID(ctx, accountID)
	if err != nil {
		return nil, err
	}
	b := item.Board
	b.Default = b.ID == def
	return &b, nil
}

// List returns every board of the account, Default derived from the pointer.
func (s *Boards) List(ctx context.Context, accountID string) ([]Board, error) {
	items, err := s.stored(ctx, accountID)
	if err != nil {
		return nil, err
	}
	def, err := s.DefaultID(ctx, accountID)
	if err != nil {
		return nil, err
	}
	out := make([]Board, len(items))
	for i, it := range items {
		out[i] = it.Board
		out[i].Default = it.ID == def
	}
	return out, nil
}

// stored returns the account's board items as stored.
func (s *Boards) stored(ctx context.Context, accountID string) ([]boardItem, error) {
	return storage.QueryPartition[boardItem](ctx, s.table, storage.AccountPK(accountID), boardPrefix)
}
