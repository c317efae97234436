package brandboards

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"

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
// board, and its version counts its moves. The pointer is the authority: Get
// and List derive each board's `default` from it.
//
// The boards' stored `default` flags are kept in step with the pointer
// without transactions (dynalite has none) by stamping them with pointer
// versions: a flag written for pointer version v carries defaultVersion = v,
// and a flag is cleared under version v only where defaultVersion < v, so an
// older writer never undoes a newer one. Making a new board B the default
// takes three round trips, the first alongside admission:
//
//  1. read the pointer (version r, board P) and the account's boards;
//  2. write B whole, flagged default under v = r+1;
//  3. move the pointer to B on condition that its version is still r, and
//     at the same time clear, under v, P's flag and the flag of every other
//     board read in 1 that is flagged under an older version (left by a
//     writer that stopped half-way).
//
// A writer whose move finds another version (a concurrent default creation
// moved the pointer first) clears its own flag (if still stamped v) and
// still answers its board as the default: it is ordered just before the
// winner, whose move overlapped its request. The winner also clears, after
// its move, a board of step 1 flagged under its very version (a loser that
// stopped before clearing its flag). So once every writer has finished,
// exactly the pointer's board is flagged: each winner's flag is cleared by
// the next winner (its P), each loser's by itself. A writer that stops
// half-way (a failure answered 503) leaves the flags lagging the pointer
// until the next default creation repairs them in its step 3.

// boardRecord is a board as stored.
type boardRecord struct {
	Board
	// DefaultVersion is the pointer version under which Default was last
	// written (0: never a default).
	DefaultVersion int64 `dynamodbav:"defaultVersion"`
	// Version guards read-modify-write updates of the board's content.
	Version int64 `dynamodbav:"version"`
}

// defaultPointer names the account's default board.
type defaultPointer struct {
	BoardID   string `dynamodbav:"boardId"`
	Version   int64  `dynamodbav:"version"`
	UpdatedAt string `dynamodbav:"updatedAt"`
}

// Attribute names the default protocol writes.
const (
	attrDefault        = "default"
	attrDefaultVersion = "defaultVersion"
)

// SettleError reports that a board became the account's default (the
// pointer names it) but the stored flags could not all be brought in line;
// the next default change repairs them.
type SettleError struct{ Err error }

func (e *SettleError) Error() string { return "settle default flags: " + e.Err.Error() }
func (e *SettleError) Unwrap() error { return e.Err }

// Boards reads and writes brand boards, stored by id in their account's
// partition, and each account's default pointer.
type Boards struct {
	table    *storage.Table
	boards   *storage.AccountItems[boardRecord]
	pointers *storage.AccountItems[defaultPointer]
}

// NewBoards returns the boards on table.
func NewBoards(table *storage.Table) *Boards {
	return &Boards{
		table:  table,
		boards: storage.NewAccountItems(table, "BRANDBOARD#", func(b boardRecord) (string, string) { return b.LocationID, b.ID }),
		// The pointer is a singleton of the account's partition: its key
		// holds no id. It is written by movePointer only.
		pointers: storage.NewAccountItems[defaultPointer](table, "DEFAULTBRANDBOARD", nil),
	}
}

// creation is what a creation reads before it writes (step 1), while the
// request's admission runs.
type creation struct {
	// source is the board to copy from, nil when none was asked or found.
	source *boardRecord
	// For a default board: the pointer's version (0: no pointer yet) and
	// board, and the account's boards.
	version int64
	current string
	boards  []boardRecord
}

// prepare makes the reads of a creation in one round trip: the source board
// (sourceID "" for none), and for a default board the pointer and the
// account's boards, which hold the source too.
func (s *Boards) prepare(ctx context.Context, accountID, sourceID string, makeDefault bool) (creation, error) {
	var c creation
	if !makeDefault {
		if sourceID == "" {
			return c, nil
		}
		src, err := s.boards.Get(ctx, accountID, sourceID)
		c.source = src
		return c, err
	}
	var pointer *defaultPointer
	var pointerErr, boardsErr error
	var wg sync.WaitGroup
	wg.Go(func() { pointer, pointerErr = s.pointers.Get(ctx, accountID, "") })
	c.boards, boardsErr = s.boards.List(ctx, accountID)
	wg.Wait()
	if err := errors.Join(pointerErr, boardsErr); err != nil {
		return creation{}, err
	}
	if pointer != nil {
		c.version, c.current = pointer.Version, pointer.BoardID
	}
	for i := range c.boards {
		if c.boards[i].ID == sourceID {
			c.source = &c.boards[i]
		}
	}
	return c, nil
}

// Create stores a new board. A board with Default set becomes the account's
// default (see the protocol above); a *SettleError then means it did, but
// older flags are still to be cleared.
func (s *Boards) Create(ctx context.Context, b Board) error {
	c, err := s.prepare(ctx, b.LocationID, "", b.Default)
	if err != nil {
		return err
	}
	return s.create(ctx, b, c)
}

// create writes the board (step 2) and, for a default board, moves the
// pointer and settles the flags (step 3) with what c read.
func (s *Boards) create(ctx context.Context, b Board, c creation) error {
	rec := boardRecord{Board: b, Version: 1}
	if b.Default {
		rec.DefaultVersion = c.version + 1
	}
	created, err := s.boards.Create(ctx, rec)
	if err != nil {
		return err
	}
	if !created {
		return fmt.Errorf("brand board %s: its id is taken", b.ID)
	}
	if !b.Default {
		return nil
	}
	return s.takeDefault(ctx, b.LocationID, b.ID, b.UpdatedAt, c)
}

// takeDefault runs step 3 for boardID, flagged under c.version+1: the
// pointer move, with the clearing of the older flags, and then whatever the
// move's outcome leaves to clear.
func (s *Boards) takeDefault(ctx context.Context, accountID, boardID, at string, c creation) error {
	v := c.version + 1
	var stale, ties []string
	for _, b := range c.boards {
		switch {
		case b.ID == boardID || !b.Default:
		case b.DefaultVersion < v:
			stale = append(stale, b.ID)
		case b.DefaultVersion == v:
			ties = append(ties, b.ID)
		}
	}
	if c.current != "" && c.current != boardID && !slices.Contains(stale, c.current) {
		stale = append(stale, c.current)
	}
	var moveErr error
	clearErrs := make([]error, len(stale))
	var wg sync.WaitGroup
	for i, id := range stale {
		wg.Go(func() {
			clearErrs[i] = s.clearFlag(ctx, accountID, id, expression.Name(attrDefaultVersion).LessThan(expression.Value(v)), v)
		})
	}
	moveErr = s.movePointer(ctx, accountID, boardID, at, c.version)
	wg.Wait()
	switch {
	case storage.IsConditionFailed(moveErr):
		// Another default creation moved the pointer first: this board is
		// not the default, and its flag goes unless a newer stamp replaced it.
		return s.clearFlag(ctx, accountID, boardID, expression.Name(attrDefaultVersion).Equal(expression.Value(v)), v)
	case moveErr != nil:
		return moveErr
	}
	for _, id := range ties {
		// Flagged under this very version by a writer that lost the move.
		clearErrs = append(clearErrs, s.clearFlag(ctx, accountID, id, expression.Name(attrDefaultVersion).Equal(expression.Value(v)), v))
	}
	if err := errors.Join(clearErrs...); err != nil {
		return &SettleError{Err: err}
	}
	return nil
}

// movePointer makes boardID the account's default at version read+1, on
// condition that the pointer is still at version read (absent for 0).
func (s *Boards) movePointer(ctx context.Context, accountID, boardID, at string, read int64) error {
	cond := expression.Name("version").Equal(expression.Value(read))
	if read == 0 {
		cond = expression.AttributeNotExists(expression.Name(storage.AttrPK))
	}
	update := expression.Set(expression.Name("boardId"), expression.Value(boardID)).
		Set(expression.Name("updatedAt"), expression.Value(at)).
		Set(expression.Name("version"), expression.Value(read+1))
	return s.table.Update(ctx, s.pointers.Key(accountID, ""), update, &cond)
}

// clearFlag stamps the board's flag false under version v where cond holds;
// a board where it does not (a newer stamp, or no such board) is left alone.
func (s *Boards) clearFlag(ctx context.Context, accountID, boardID string, cond expression.ConditionBuilder, v int64) error {
	update := expression.Set(expression.Name(attrDefault), expression.Value(false)).
		Set(expression.Name(attrDefaultVersion), expression.Value(v))
	_, err := storage.Applied(s.table.Update(ctx, s.boards.Key(accountID, boardID), update, &cond))
	return err
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
	rec, err := s.boards.Get(ctx, accountID, id)
	if err != nil || rec == nil {
		return nil, err
	}
	def, err := s.DefaultID(ctx, accountID)
	if err != nil {
		return nil, err
	}
	b := rec.Board
	b.Default = b.ID == def
	return &b, nil
}

// List returns every board of the account, Default derived from the pointer.
func (s *Boards) List(ctx context.Context, accountID string) ([]Board, error) {
	recs, err := s.boards.List(ctx, accountID)
	if err != nil {
		return nil, err
	}
	def, err := s.DefaultID(ctx, accountID)
	if err != nil {
		return nil, err
	}
	out := make([]Board, len(recs))
	for i, r := range recs {
		out[i] = r.Board
		out[i].Default = r.ID == def
	}
	return out, nil
}
