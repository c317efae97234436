package webhooks

import (
	"bufio"
	"context"
	"crypto/ed25519"
	"io"
	"net"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/deliveries"
)

// closingReceiver answers the first request on each connection 200 and
// keeps the connection, then closes it on the second request without an
// answer, as a receiver whose idle timeout ends the connection just as the
// deliverer reuses it. It returns its URL.
func closingReceiver(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer conn.Close()
				r := bufio.NewReader(conn)
				for n := 0; ; n++ {
					req, err := http.ReadRequest(r)
					if err != nil {
						return
					}
					_, _ = io.Copy(io.Discard, req.Body)
					if n > 0 {
						return // closed with the request read and no answer
					}
					if _, err := io.WriteString(conn, "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"); err != nil {
						return
					}
				}
			}()
		}
	}()
	return "http://" + ln.Addr().String() + "/hooks"
}

func TestADeliveryOnAConnectionTheReceiverClosedIsSentAgainOnANewOne(t *testing.T) {
	url := closingReceiver(t)
	_, key, err := ed25519.GenerateKey(nil)
	require.NoError(t, err)
	d := &Deliverer{clock: clock.System{}, signer: deliveries.NewSigner(key), client: localClient(), schedule: deliveries.Default}

	first := d.post(context.Background(), deliveries.Delivery{ID: "e1", URL: url, Body: `{"type":"TaskDelete"}`}, nil)
	require.True(t, first.Delivered(), "%+v", first)
	second := d.post(context.Background(), deliveries.Delivery{ID: "e2", URL: url, Body: `{"type":"TaskDelete"}`}, nil)
	assert.True(t, second.Delivered(), "the kept-alive connection was closed under it: sent again on a new one, not failed (%+v)", second)
}
