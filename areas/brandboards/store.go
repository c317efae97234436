package brandboards

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"

	"github.com/bizplatform/api/shared/apierror"
	"github.com/bizplatform/api/shared/events"
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

// Which board is the account's default is stored twice, and the two always
// agree: the account's default pointer (DEFAULTBRANDBOARD) names the board,
// and that board, and no other, has its stored `default` flag set. Making a
// board B the default is one transaction (takeDefault): write B flagged,
// clear the flag of the board P the pointer named when it was read, and
// point the pointer at B, on condition that it still names P (or is still
// absent). So at every instant exactly one board is flagged, the pointer's.
// A creation that lost the pointer to a concurrent one gets the pointer as
// the winner left it from the cancelled transaction, and tries again with
// that board as P: concurrent default creations become the default one
// after the other, and the last one stays it.
//
// Items written before the transaction may carry attributes of the
// protocol it replaced (a board's defaultVersion and version, the pointer's
// version): reads ignore them, the pointer's condition names its board, not
// its version, and its next move writes it whole without one. That protocol
// could leave, after a failure half-way, a flag set on a board the pointer
// did not name; Get and List therefore derive each board's Default from the
// pointer, which was always right, not from the stored flag.

// defaultPointer names the account's default board.
type defaultPointer struct {
	BoardID   string `dynamodbav:"boardId"`
	UpdatedAt string `dynamodbav:"updatedAt"`
}

// setDefault sets a board's stored default flag.
func setDefault(on bool) expression.UpdateBuilder {
	return expression.Set(expression.Name("default"), expression.Value(on))
}

// Boards reads and writes brand boards, stored by id in their account's
// partition, and each account's default pointer.
type Boards struct {
	table    *storage.Table
	boards   *storage.AccountItems[Board]
	pointers *storage.AccountItems[defaultPointer]
}

// NewBoards returns the boards on table.
func NewBoards(table *storage.Table) *Boards {
	return &Boards{
		table:  table,
		boards: storage.NewAccountItems(table, "BRANDBOARD#", func(b Board) (string, string) { return b.LocationID, b.ID }),
		// The pointer is a singleton of the account's partition: its key
		// holds no id. It is written by takeDefault only.
		pointers: storage.NewAccountItems[defaultPointer](table, "DEFAULTBRANDBOARD", nil),
	}
}

// creation is what a creation reads before it writes, while the request's
// admission runs.
type creation struct {
	// source is the board to copy from, nil when none was asked or found.
	source *Board
	// current is, for a default board, the board the pointer names ("":
	// the account has no default yet).
	current string
}

// prepare makes the reads of a creation in one round trip: the source board
// (sourceID "" for none) and, for a default board, the pointer.
func (s *Boards) prepare(ctx context.Context, accountID, sourceID string, makeDefault bool) (creation, error) {
	var c creation
	var sourceErr, pointerErr error
	var wg sync.WaitGroup
	if sourceID != "" {
		wg.Go(func() { c.source, sourceErr = s.boards.Get(ctx, accountID, sourceID) })
	}
	if makeDefault {
		c.current, pointerErr = s.DefaultID(ctx, accountID)
	}
	wg.Wait()
	if err := errors.Join(sourceErr, pointerErr); err != nil {
		return creation{}, err
	}
	return c, nil
}

// BoardCreated is the event of a created brand board: the board as the
// creation's answer shows it.
var BoardCreated = events.Type{
	Name: "BrandBoardCreate", Scope: "brand-boards/design-kit.write", Version: 1,
	Summary: "A brand board was created (POST /brand-boards/).",
	Fields:  Board{},
}

// Create stores a new board. A board with Default set becomes the account's
// default.
func (s *Boards) Create(ctx context.Context, b Board, at time.Time) error {
	c, err := s.prepare(ctx, b.LocationID, "", b.Default)
	if err != nil {
		return err
	}
	return s.create(ctx, b, c, at)
}

// create writes the board and its BrandBoardCreate event with what c read:
// a default board together with the pointer's move (takeDefault), any other
// on its own.
func (s *Boards) create(ctx context.Context, b Board, c creation, at time.Time) error {
	idTaken := fmt.Errorf("brand board %s: its id is taken", b.ID)
	event := func(tx *storage.Tx) { BoardCreated.Add(tx, events.Owner{LocationID: b.LocationID}, b, at) }
	if !b.Default {
		created, err := s.boards.CreateAlong(ctx, b, event)
		if err == nil && !created {
			return idTaken
		}
		return err
	}
	return s.takeDefault(ctx, b.LocationID, b.ID, b.UpdatedAt, c.current, func(tx *storage.Tx) *storage.Tx {
		tx = tx.Put(s.boards.Item(b), storage.ItemAbsent()).Else(idTaken)
		event(tx)
		return tx
	})
}

// maxDefaultMoves bounds the transactions of one default change. Each one
// lost means another change of the account's default was applied
// meanwhile, so of n concurrent changes none loses more than n-1: up to 21
// default creations of one account at once all succeed (with a bound of
// 10, twelve at once had one refused in a third of the concurrency test's
// rounds). Past that the client retries.
const maxDefaultMoves = 20

// takeDefault makes boardID the account's default in one transaction: the
// write of the flagged board that flag adds to it, the clearing of the flag
// of current (the board the pointer named when read, "" for none) and the
// pointer's move, on condition that the pointer still names current. When
// another default change moved the pointer first, it tries again from the
// board that change left, which the cancelled transaction returns; after
// maxDefaultMoves lost transactions it answers 503.
func (s *Boards) takeDefault(ctx context.Context, accountID, boardID, at, current string, flag func(*storage.Tx) *storage.Tx) error {
	pointerKey := s.pointers.Key(accountID, "")
	pointer := storage.Keyed{Key: pointerKey, Record: defaultPointer{BoardID: boardID, UpdatedAt: at}}
	for moves := 1; ; moves++ {
		tx := flag(s.table.Tx())
		if current != "" && current != boardID {
			tx = tx.Update(s.boards.Key(accountID, current), setDefault(false), storage.ItemExists()).
				Else(fmt.Errorf("the default brand board pointer of %s names board %s, which does not exist", accountID, current))
		}
		pointerAt := tx.Len()
		err := tx.Put(pointer, pointerNames(current)).Commit(ctx)
		var lost *storage.TxConditionFailed
		if !errors.As(err, &lost) || lost.Index != pointerAt {
			return err
		}
		if moves == maxDefaultMoves {
			return apierror.Unavailable(fmt.Errorf("%w: the default brand board of %s moved %d times", storage.ErrContention, accountID, moves), time.Second)
		}
		moved, err := storage.FailedConditionItem[defaultPointer](err, pointerKey)
		if err != nil {
			return err
		}
		current = ""
		if moved != nil {
			current = moved.BoardID
		}
	}
}

// pointerNames is the condition "the pointer names boardID" ("": "there is
// no pointer").
func pointerNames(boardID string) *expression.ConditionBuilder {
	if boardID == "" {
		return storage.ItemAbsent()
	}
	cond := expression.Name("boardId").Equal(expression.Value(boardID))
	return &cond
}

// DefaultID returns the id of the account's default board ("" when it has
// none).
func (s *Boards) DefaultID(ctx context.Context, accountID string) (string, error) {
	p, err := s.pointers.Get(ctx, accountID, "")
	if err != nil || p == nil {
		return "", err
	}
	return p.BoardID, nil
}

// Get returns the account's board, or nil. Its Default comes from the
// default pointer.
func (s *Boards) Get(ctx context.Context, accountID, id string) (*Board, error) {
	b, err := s.boards.Get(ctx, accountID, id)
	if err != nil || b == nil {
		return nil, err
	}
	def, err := s.DefaultID(ctx, accountID)
	if err != nil {
		return nil, err
	}
	b.Default = b.ID == def
	return b, nil
}

// List returns every board of the account, Default derived from the pointer.
func (s *Boards) List(ctx context.Context, accountID string) ([]Board, error) {
	boards, err := s.boards.List(ctx, accountID)
	if err != nil {
		return nil, err
	}
	def, err := s.DefaultID(ctx, accountID)
	if err != nil {
		return nil, err
	}
	for i := range boards {
		boards[i].Default = boards[i].ID == def
	}
	return boards, nil
}
