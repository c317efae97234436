package pipeline

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/bizplatform/api/shared/failures"
)

// FailureRecorder keeps the failed requests of an account for its admins
// (failures.Store).
type FailureRecorder interface {
	Record(ctx context.Context, accountID string, f failures.Failure) error
	CountRateLimited(ctx context.Context, accountID string) error
}

var _ FailureRecorder = (*failures.Store)(nil)

// failureWriteTimeout bounds the recording of a failure: it runs after the
// request's own deadline may have passed (a 503 for a late storage call).
const failureWriteTimeout = time.Second

// maxCapturedBody bounds what is kept of an error answer to read its
// message from: error bodies are small; a long list of violations is
// clipped to failures.MaxMessage anyway.
const maxCapturedBody = 8 << 10

// failureCapture keeps the beginning of an answer whose status is 4xx or
// 5xx, for its message. It sits under the pipeline's writer, so it sees
// every answer, admission's refusals included.
type failureCapture struct {
	http.ResponseWriter
	status int
	body   []byte
}

func (c *failureCapture) WriteHeader(status int) {
	if c.status == 0 {
		c.status = status
	}
	c.ResponseWriter.WriteHeader(status)
}

func (c *failureCapture) Write(b []byte) (int, error) {
	if c.status == 0 {
		c.status = http.StatusOK
	}
	if c.status >= 400 && len(c.body) < maxCapturedBody {
		c.body = append(c.body, b[:min(len(b), maxCapturedBody-len(c.body))]...)
	}
	return c.ResponseWriter.Write(b)
}

func (c *failureCapture) Unwrap() http.ResponseWriter { return c.ResponseWriter }

// captureFailures puts a failureCapture under the answer when failures are
// recorded (nil otherwise).
func (p *pipeline) captureFailures(w http.ResponseWriter) (http.ResponseWriter, *failureCapture) {
	if p.opts.Failures == nil {
		return w, nil
	}
	c := &failureCapture{ResponseWriter: w}
	return c, c
}

// recordFailure keeps a failed request of a known account: after
// authentication, with a token of an account (a company token's requests
// belong to no account's list). A 429 is counted in its hour, not listed.
// It runs once the answer is complete and before the request's handling
// returns, so that nothing is lost when Lambda freezes the instance after
// the answer; its cost is one write on failed requests only
// (docs/performance.md). A failure to record is logged and changes
// nothing in the answer.
func (p *pipeline) recordFailure(r *http.Request, w *responseWriter, c *failureCapture) {
	status := w.Status()
	if c == nil || status < 400 || w.principal == nil || w.principal.AccountID == "" {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(r.Context()), failureWriteTimeout)
	defer cancel()
	account := w.principal.AccountID
	var err error
	if status == http.StatusTooManyRequests {
		err = p.opts.Failures.CountRateLimited(ctx, account)
	} else {
		err = p.opts.Failures.Record(ctx, account, failures.Failure{
			Method: r.Method, Route: routeOf(w.operation), Status: status,
			Message: messageOf(c.body), TokenID: w.principal.TokenID, RequestID: w.requestID,
		})
	}
	if err != nil {
		p.opts.Logger.LogAttrs(ctx, slog.LevelWarn, "failed request not recorded",
			slog.String("request_id", w.requestID), slog.String("account", account), slog.String("error", err.Error()))
	}
}

// routeOf is the path template of an operation id ("GET /contacts/{contactId}"):
// never the request's own path, whose ids are not the template's.
func routeOf(operation string) string {
	_, path, _ := strings.Cut(operation, " ")
	return path
}

// messageOf reads the message of an error answer ({"message": "..."} or a
// list of violations, joined).
func messageOf(body []byte) string {
	var answer struct {
		Message json.RawMessage `json:"message"`
	}
	if json.Unmarshal(body, &answer) != nil {
		return ""
	}
	var one string
	if json.Unmarshal(answer.Message, &one) == nil {
		return one
	}
	var many []string
	if json.Unmarshal(answer.Message, &many) == nil {
		return strings.Join(many, "; ")
	}
	return ""
}
