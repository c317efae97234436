// Package idempotency makes retries of POST, PUT and DELETE requests safe:
// a request sent with an Idempotency-Key header runs once, and a retry with
// the same key and the same request gets the first answer again, with
// Idempotent-Replayed: true, without running again.
//
// Keys belong to the account (any of its tokens shares them). The first
// request of a key claims it with one conditional put before its handler
// runs; the claim is a write, so it waits for the request's admission like
// every write (storage.Admission) and a refused request leaves none. The
// answer then replaces the claim and is kept for KeepFor; answers that ask
// for a retry (5xx, 429), or are too large to keep, release the claim
// instead. A claim whose request never finished lapses after ClaimLease. A
// second request while the first runs answers 409; the same key with
// another request (operation, path, query or body) answers 422. Requests
// without the header run exactly as before, with no extra storage call.
// docs/idempotency.md tells the whole contract.
package idempotency

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"hash"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/bizplatform/api/shared/apierror"
	"github.com/bizplatform/api/shared/auth"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/httpserve"
	"github.com/bizplatform/api/shared/ids"
	"github.com/bizplatform/api/shared/metrics"
	"github.com/bizplatform/api/shared/operations"
	"github.com/bizplatform/api/shared/route"
	"github.com/bizplatform/api/shared/storage"
)

// Header names.
const (
	// HeaderKey is the request header that names a request for retries.
	HeaderKey = "Idempotency-Key"
	// HeaderReplayed marks an answer that is a kept one, sent again.
	HeaderReplayed = "Idempotent-Replayed"
)

const (
	// MaxKeyLength is the longest key accepted, in characters.
	MaxKeyLength = 255
	// KeepFor is how long an answer is kept after it was given.
	KeepFor = 24 * time.Hour
	// ClaimLease is how long a claim holds its key when its request never
	// finishes (its process died). It is well past the longest a request
	// may run (REQUEST_TIMEOUT_MS at most 14 s; the functions' timeout is
	// 15 s).
	ClaimLease = 60 * time.Second
	// MaxKeptBody is the largest answer body kept: a DynamoDB item holds at
	// most 400 KB, and the record's other attributes need room. A larger
	// answer is given but not kept, and its key is released.
	MaxKeptBody = 384 << 10
)

// Keeper claims keys, keeps answers and replays them.
type Keeper struct {
	store  Store
	clock  clock.Clock
	logger *slog.Logger
}

// New returns a Keeper on store. logger receives a line when an answer could
// not be kept or a claim not released (nil: slog.Default).
func New(store Store, clk clock.Clock, logger *slog.Logger) *Keeper {
	if clk == nil {
		clk = clock.System{}
	}
	if logger == nil {
		logger = slog.Default()
	}
	return &Keeper{store: store, clock: clk, logger: logger}
}

// Guard returns routes with the handlers of POST, PUT and DELETE operations
// guarded by their Idempotency-Key; reads are returned as they are (they
// change nothing, and ignore the header).
func (k *Keeper) Guard(routes []route.Route) []route.Route {
	guarded := make([]route.Route, len(routes))
	for i, rt := range routes {
		if rt.Op.Changes() {
			rt.Handle = k.guard(rt.Op, rt.Handle)
		}
		guarded[i] = rt
	}
	return guarded
}

// GuardRoutes guards routes (Keeper.Guard) with a Keeper whose records are
// in table. An app.Area with POST, PUT or DELETE operations sets it as its
// GuardRetries.
func GuardRoutes(table *storage.Table, clk clock.Clock, logger *slog.Logger, routes []route.Route) []route.Route {
	return New(NewRecords(table), clk, logger).Guard(routes)
}

func (k *Keeper) guard(op operations.Operation, next route.HandlerFunc) route.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		key, ok, err := keyOf(r.Header)
		if err != nil {
			return err
		}
		if !ok {
			return next(w, r)
		}
		principal, err := auth.PrincipalFrom(r.Context())
		if err != nil {
			return err
		}
		fp, err := fingerprint(r, op)
		if err != nil {
			return err
		}
		now := k.clock.Now()
		c := Claim{AccountID: principal.AccountID, Key: key, Fingerprint: fp, Owner: owner(r.Context()), At: now, Until: now.Add(ClaimLease)}
		held, err := k.store.Claim(r.Context(), c)
		if err != nil {
			// Admission's refusal (429, 401) comes through the write gate
			// as it is; the table's client has classified a storage failure.
			return err
		}
		if held != nil {
			return answerHeld(r.Context(), w, c, held)
		}
		return k.run(w, r, op, c, next)
	}
}

// run runs the handler on a claimed key, then keeps its answer or releases
// the key, then gives the answer.
func (k *Keeper) run(w http.ResponseWriter, r *http.Request, op operations.Operation, c Claim, next route.HandlerFunc) error {
	// The claim is settled even when the request's deadline has passed
	// (the 503 of a timeout must release it); each storage call still has
	// its own bound.
	ctx := context.WithoutCancel(r.Context())
	settled := false
	defer func() {
		if !settled { // the handler panicked: the retry must run
			k.settle(ctx, c, nil)
		}
	}()
	rec := &recorder{header: http.Header{}}
	rec.header.Set("X-Request-Id", w.Header().Get("X-Request-Id")) // the error body's traceId
	if err := next(rec, r); err != nil {
		// As the router would write it: the same bytes, the cause to the log.
		route.RecorderOf(w).RecordCause(apierror.WriteForOperation(rec, err, op.ValidationStatus))
	}
	answer := rec.answer()
	k.settle(ctx, c, answer)
	settled = true
	if answer != nil {
		answer.writeTo(w)
	}
	return nil
}

// settle keeps answer under c's key, or releases the key when the answer
// asks for a retry, is too large to keep, or is missing.
func (k *Keeper) settle(ctx context.Context, c Claim, answer *Answer) {
	if answer != nil && keepable(answer.Status) && len(answer.Body) <= MaxKeptBody {
		err := k.store.Complete(ctx, c, answer.kept(), k.clock.Now().Add(KeepFor))
		if err == nil {
			return
		}
		// A retry will run again; the client has its answer now.
		k.logFailure(ctx, "idempotency: answer not kept", c, err)
	}
	if err := k.store.Release(ctx, c); err != nil {
		// The claim lapses after ClaimLease.
		k.logFailure(ctx, "idempotency: claim not released", c, err)
	}
}

func (k *Keeper) logFailure(ctx context.Context, msg string, c Claim, err error) {
	k.logger.LogAttrs(ctx, slog.LevelWarn, msg,
		slog.String("request_id", httpserve.RequestID(ctx)),
		slog.String("account", c.AccountID),
		slog.String("error", err.Error()))
}

// keepable reports whether an answer of status is kept: every answer but
// those that ask the client to retry (5xx, 429).
func keepable(status int) bool {
	return status < http.StatusInternalServerError && status != http.StatusTooManyRequests
}

// answerHeld answers a request whose key is held by another record.
func answerHeld(ctx context.Context, w http.ResponseWriter, c Claim, held *Record) error {
	switch {
	case held.Fingerprint != c.Fingerprint:
		return &apierror.Error{Code: apierror.CodeUnprocessable, Message: "This Idempotency-Key was already used with another request (another operation, path, query or body): send a new key for a new request"}
	case held.Running:
		return &apierror.Error{Code: apierror.CodeConflict, Message: "A request with this Idempotency-Key is still running: retry once it has finished", RetryAfter: time.Second}
	}
	w.Header().Set(HeaderReplayed, "true")
	metrics.RequestFrom(ctx).Replayed()
	held.Answer.writeTo(w)
	return nil
}

// writeTo gives the answer: its own headers, then the status and body. The
// pipeline adds the request id and the rate-limit headers of this request.
func (a *Answer) writeTo(w http.ResponseWriter) {
	h := w.Header()
	for name, values := range a.Header {
		h[name] = values
	}
	w.WriteHeader(a.Status)
	_, _ = w.Write(a.Body)
}

// keyOf returns the request's key; ok is false when it sends none.
func keyOf(h http.Header) (key string, ok bool, err error) {
	values := h.Values(HeaderKey)
	switch {
	case len(values) == 0:
		return "", false, nil
	case len(values) > 1:
		return "", false, apierror.BadRequest("Send one Idempotency-Key header, not %d", len(values))
	}
	key = values[0]
	if key == "" || len(key) > MaxKeyLength || strings.IndexFunc(key, notPrintableASCII) >= 0 {
		return "", false, apierror.BadRequest("The Idempotency-Key header must be 1 to %d printable ASCII characters (letters, digits, punctuation or spaces)", MaxKeyLength)
	}
	return key, true, nil
}

func notPrintableASCII(r rune) bool { return r < 0x20 || r > 0x7e }

// fingerprint is the SHA-256 of what makes the request itself: method,
// operation, path, query (parameters in name order) and body, each
// length-prefixed so that no two requests share an encoding.
func fingerprint(r *http.Request, op operations.Operation) (string, error) {
	body, err := readBody(r)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	for _, field := range [][]byte{
		[]byte(r.Method), []byte(op.ID()), []byte(r.URL.EscapedPath()), []byte(canonicalQuery(r.URL.RawQuery)), body,
	} {
		writeField(h, field)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func writeField(h hash.Hash, field []byte) {
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(len(field)))
	h.Write(n[:])
	h.Write(field)
}

// canonicalQuery orders the parameters by name (keeping the order of a
// name's values, which may mean something); a query that does not parse is
// taken as it is.
func canonicalQuery(raw string) string {
	values, err := url.ParseQuery(raw)
	if err != nil {
		return raw
	}
	return values.Encode()
}

// readBody reads the body (the pipeline has already read it into memory
// within its limit) and puts it back for the handler.
func readBody(r *http.Request) ([]byte, error) {
	if r.Body == nil || r.Body == http.NoBody {
		return nil, nil
	}
	body, err := io.ReadAll(r.Body)
	_ = r.Body.Close()
	if err != nil {
		return nil, apierror.BadRequest("The request body could not be read")
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	return body, nil
}

// owner names the claim's holder: the request id, unique per request.
func owner(ctx context.Context) string {
	if id := httpserve.RequestID(ctx); id != "" {
		return id
	}
	return ids.Hex24()
}

// recorder holds the handler's answer until its key is settled.
type recorder struct {
	header http.Header
	status int
	sent   http.Header // the headers as they were at WriteHeader
	body   bytes.Buffer
}

func (r *recorder) Header() http.Header { return r.header }

func (r *recorder) WriteHeader(status int) {
	if r.status == 0 {
		r.status, r.sent = status, r.header.Clone()
	}
}

func (r *recorder) Write(b []byte) (int, error) {
	r.WriteHeader(http.StatusOK)
	return r.body.Write(b)
}

// answer is what the handler wrote, nil when it wrote nothing.
func (r *recorder) answer() *Answer {
	if r.status == 0 {
		return nil
	}
	return &Answer{Status: r.status, Header: r.sent, Body: r.body.Bytes()}
}

// kept is the answer as kept for replays: without the headers that belong
// to each request (its id, its rate-limit counters), which a replay gets
// of its own.
func (a *Answer) kept() Answer {
	header := http.Header{}
	for name, values := range a.Header {
		if !perRequest(name) {
			header[name] = values
		}
	}
	return Answer{Status: a.Status, Header: header, Body: a.Body}
}

func perRequest(name string) bool {
	name = http.CanonicalHeaderKey(name)
	return name == "X-Request-Id" || name == "Retry-After" || name == "Date" || name == "Content-Length" ||
		strings.HasPrefix(name, "X-Ratelimit-")
}
