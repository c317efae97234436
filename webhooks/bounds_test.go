package webhooks

import (
	"bufio"
	"context"
	"crypto/ed25519"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/deliveries"
)

// rawReceiver accepts connections on a loopback port and answers each
// request by writing what answer writes, whatever it is, until answer
// returns or the deliverer goes away.
func rawReceiver(t *testing.T, answer func(w *bufio.Writer) error) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			conn, err := l.Accept()
			if err != nil {
				return
			}
			go func() {
				defer conn.Close()
				// The request: its head, then its body (the deliverer sends
				// Content-Length), read before answering.
				r := bufio.NewReader(conn)
				req, err := http.ReadRequest(r)
				if err != nil {
					return
				}
				_, _ = req.Body.Read(make([]byte, 1<<16))
				w := bufio.NewWriterSize(conn, 1024)
				if answer(w) == nil {
					_ = w.Flush()
				}
			}()
		}
	}()
	return "http://" + l.Addr().String() + "/in"
}

// counting is a client as the deliverer's, counting the bytes it reads off
// the wire.
func counting(c *http.Client) (*http.Client, *atomic.Int64) {
	read := &atomic.Int64{}
	base, ok := c.Transport.(*http.Transport)
	if !ok {
		base = http.DefaultTransport.(*http.Transport)
	}
	tr := base.Clone()
	dial := tr.DialContext
	if dial == nil {
		dial = (&net.Dialer{}).DialContext
	}
	tr.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		conn, err := dial(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return countingConn{Conn: conn, read: read}, nil
	}
	out := *c
	out.Transport = tr
	return &out, read
}

type countingConn struct {
	net.Conn
	read *atomic.Int64
}

func (c countingConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	c.read.Add(int64(n))
	return n, err
}

// forever writes line again and again, flushing each time, until the
// reader goes away.
func forever(w *bufio.Writer, line string, pause time.Duration) error {
	for {
		if _, err := w.WriteString(line); err != nil {
			return err
		}
		if err := w.Flush(); err != nil {
			return err
		}
		time.Sleep(pause)
	}
}

func TestAnAnswerIsReadWithinSmallBounds(t *testing.T) {
	filler := "X-Filler: " + strings.Repeat("a", 80) + "\r\n"
	cases := []struct {
		name      string
		answer    func(w *bufio.Writer) error
		delivered bool
		says      string
		// atMost bounds the bytes read off the wire, the answer's head included.
		atMost int64
	}{
		{
			name: "headers longer than their bound fail the attempt, read no further",
			answer: func(w *bufio.Writer) error {
				_, err := w.WriteString("HTTP/1.1 200 OK\r\n" + strings.Repeat(filler, 2000) + "Content-Length: 0\r\n\r\n")
				return err
			},
			says:   "headers exceed",
			atMost: maxAnswerHeaders + 16<<10,
		},
		{
			name: "header lines without end are cut at their bound",
			answer: func(w *bufio.Writer) error {
				if _, err := w.WriteString("HTTP/1.1 200 OK\r\n"); err != nil {
					return err
				}
				return forever(w, filler, 0)
			},
			says:   "headers exceed",
			atMost: maxAnswerHeaders + 16<<10,
		},
		{
			name: "a body without end is read no further than its bound",
			answer: func(w *bufio.Writer) error {
				if _, err := w.WriteString("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\n"); err != nil {
					return err
				}
				return forever(w, strings.Repeat("b", 1000), 0)
			},
			delivered: true,
			atMost:    maxAnswerBody + 16<<10,
		},
		{
			name: "a body dripped slowly holds the attempt no longer than its wait",
			answer: func(w *bufio.Writer) error {
				if _, err := w.WriteString("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\n"); err != nil {
					return err
				}
				return forever(w, "b", 100*time.Millisecond)
			},
			delivered: true,
			atMost:    maxAnswerBody + 16<<10,
		},
	}
	_, key, err := ed25519.GenerateKey(nil)
	require.NoError(t, err)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			url := rawReceiver(t, tc.answer)
			client, read := counting(localClient())
			d := &Deliverer{clock: clock.System{}, signer: deliveries.NewSigner(key), client: client, schedule: deliveries.Default}
			start := time.Now()
			a := d.post(context.Background(), deliveries.Delivery{ID: "e1", URL: url, Body: `{"type":"TaskDelete"}`}, nil)
			took := time.Since(start)
			assert.Equal(t, tc.delivered, a.Delivered(), "%+v", a)
			if tc.says != "" {
				assert.Contains(t, a.Error, tc.says)
			}
			assert.LessOrEqual(t, read.Load(), tc.atMost, "bytes read off the wire")
			assert.Less(t, took, answerBodyWait+2*time.Second, "the attempt ends soon after the answer's head")
		})
	}
}

func TestTheDeployedClientReadsAnswersWithinTheSameBounds(t *testing.T) {
	deployed, ok := PublicOnlyClient().Transport.(*http.Transport)
	require.True(t, ok)
	assert.Equal(t, int64(maxAnswerHeaders), deployed.MaxResponseHeaderBytes, "not Go's default of 10 MB")
	assert.Nil(t, deployed.Proxy, "no proxy from the environment")
}
