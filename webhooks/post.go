package webhooks

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/deliveries"
)

// post sends the delivery's body to its URL, signed (with keys too, the
// Standard Webhooks way, for an account endpoint), and returns the
// attempt's result.
func (d *Deliverer) post(ctx context.Context, dl deliveries.Delivery, keys [][]byte) deliveries.Attempt {
	now := d.clock.Now()
	at := clock.Timestamp(now)
	ctx, cancel := context.WithTimeout(ctx, attemptTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, dl.URL, bytes.NewReader([]byte(dl.Body)))
	if err != nil {
		return deliveries.Attempt{At: at, Error: "the webhook URL is not usable"}
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "bizplatform-webhooks/1")
	// A delivery may arrive twice (receivers skip a webhook-id seen), so
	// the transport may send it again on a new connection when the kept-
	// alive one it reused was closed by the receiver as the attempt
	// started: without this a receiver's idle timeout fails the attempt
	// ("connection reset by peer"), and a test event, tried once, with it.
	// A nil value marks the request so and is not sent (net/http).
	req.Header["Idempotency-Key"] = nil
	d.signer.Sign(req.Header, []byte(dl.Body))
	deliveries.SignStandard(req.Header, dl.ID, now, []byte(dl.Body), keys...)
	resp, err := d.client.Do(req)
	if err != nil {
		return deliveries.Attempt{At: at, Error: describe(err)}
	}
	// The status is the answer: a little of the body is read, briefly, so
	// that the connection can serve the next attempt; the rest is not.
	stop := time.AfterFunc(answerBodyWait, cancel)
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxAnswerBody))
	stop.Stop()
	resp.Body.Close()
	a := deliveries.Attempt{At: at, Status: resp.StatusCode}
	if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable {
		a.RetryAfter = retryAfter(resp.Header.Get("Retry-After"), d.clock.Now(), d.schedule.MaxRetry)
	}
	return a
}

// retryAfter reads a Retry-After header (seconds, or an HTTP date) as whole
// seconds from now, at most longest (the schedule's MaxRetry); 0 when
// absent or unreadable.
func retryAfter(h string, now time.Time, longest time.Duration) int {
	var wait time.Duration
	if secs, err := strconv.Atoi(strings.TrimSpace(h)); err == nil {
		wait = time.Duration(secs) * time.Second
	} else if at, err := http.ParseTime(h); err == nil {
		wait = at.Sub(now)
	}
	return int(min(max(wait, 0), longest) / time.Second)
}

// describe says why an attempt failed without the URL (the client's error
// repeats it).
func describe(err error) string {
	var ue interface{ Unwrap() error }
	if errors.As(err, &ue) {
		if inner := ue.Unwrap(); inner != nil {
			err = inner
		}
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return "no answer within " + attemptTimeout.String()
	}
	if errors.Is(err, errNotPublic) {
		return errNotPublic.Error()
	}
	// net/http names its bound on the answer's head in a plain error.
	if strings.Contains(err.Error(), "server response headers exceeded") {
		return fmt.Sprintf("the answer's headers exceed %d KB: not read further", maxAnswerHeaders>>10)
	}
	return err.Error()
}
