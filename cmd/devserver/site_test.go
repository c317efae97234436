package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/api"
	"github.com/bizplatform/api/internal/catalog"
	"github.com/bizplatform/api/internal/testenv"
)

// siteHandler is the handler make run serves (run builds it the same way),
// on a test table, with the request log in logs.
func siteHandler(t *testing.T, logs io.Writer) (http.Handler, string) {
	t.Helper()
	return siteHandlerWithBundle(t, logs, api.FindBundle("."))
}

func siteHandlerWithBundle(t *testing.T, logs io.Writer, redocBundle string) (http.Handler, string) {
	t.Helper()
	env := testenv.New(t, catalog.Areas, testenv.WithLogOutput(logs))
	env.Account(t, "acct1", "co1")
	token, _ := env.Token(t, "acct1")
	return newSite(newPages(redocBundle), env.Server.Handler), token
}

func TestTheLocalServerNeverRedirectsARawPath(t *testing.T) {
	logs := &testenv.LogBuffer{}
	h, token := siteHandler(t, logs)
	srv := httptest.NewServer(h)
	defer srv.Close()
	noRedirects := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	cases := []struct{ name, method, path string }{
		{"a doubled leading slash", "GET", "//contacts/"},
		{"a '.' segment before an operation's path", "DELETE", "/contacts/./x/tasks/y"},
		{"a '.' segment in an operation's path", "DELETE", "/contacts/./tasks/y"},
		{"a '..' segment", "GET", "/a/../contacts/"},
		{"a '..' segment inside an operation's path", "DELETE", "/contacts/c1/tasks/../tasks/t1"},
		{"a trailing '/.'", "GET", "/contacts/."},
		{"a trailing '//'", "GET", "/contacts//"},
		{"a doubled slash before a docs path", "GET", "//docs"},
		{"a '..' segment leading to a docs path", "GET", "/x/../openapi.yaml"},
	}
	for _, tc := range cases {
		for _, authenticated := range []bool{true, false} {
			name := tc.name
			req := testenv.Request{Method: tc.method, Path: tc.path, Token: token}
			if !authenticated {
				name += ", sent without Version or token"
				req = testenv.Request{Method: tc.method, Path: tc.path, Bare: true}
			}
			t.Run(name+" answers the API's JSON 404", func(t *testing.T) {
				resp := testenv.Send(t, srv.URL, req) // checked against the document
				resp.RequireError(t, http.StatusNotFound)
				id := resp.Header.Get("X-Request-Id")
				require.NotEmpty(t, id)
				assert.Contains(t, logs.String(), `"request_id":"`+id+`"`, "the request has its log line")

				// What a client that follows redirects gets: the same 404.
				hr, err := http.NewRequest(tc.method, srv.URL+tc.path, nil)
				require.NoError(t, err)
				followed, err := noRedirects.Do(hr)
				require.NoError(t, err)
				followed.Body.Close()
				assert.Equal(t, http.StatusNotFound, followed.StatusCode)
				assert.Empty(t, followed.Header.Get("Location"))
			})
		}
	}
}

// rawConn is one TCP connection to the server, spoken to by hand.
func rawConn(t *testing.T, addr string) net.Conn {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	t.Cleanup(func() { conn.Close() })
	return conn
}

// requireClosed reads until the server closes the connection; a connection
// still open after a few seconds fails the test.
func requireClosed(t *testing.T, conn net.Conn) string {
	t.Helper()
	require.NoError(t, conn.SetReadDeadline(time.Now().Add(5*time.Second)))
	rest, err := io.ReadAll(conn)
	require.NoError(t, err, "the server kept the connection open (read so far: %q)", rest)
	return string(rest)
}

// TestABodyOverTheLimitIsAnsweredToAClientThatWritesItWholeFirst: 11 MB
// sent before reading (as Python's http.client does) got a broken pipe
// when the server closed the connection after 256 KB unread; it gets the
// 413.
func TestABodyOverTheLimitIsAnsweredToAClientThatWritesItWholeFirst(t *testing.T) {
	h, token := siteHandler(t, io.Discard)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	srv := newHTTPServer(h, defaultTimeouts(10*time.Second))
	go func() { _ = srv.Serve(ln) }()
	defer srv.Close()
	conn := rawConn(t, ln.Addr().String())
	const size = 11 << 20
	_, err = fmt.Fprintf(conn, "DELETE /payments/coupon HTTP/1.1\r\nHost: x\r\nVersion: 2021-07-28\r\nAuthorization: Bearer %s\r\n"+
		"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n", token, size)
	require.NoError(t, err)
	require.NoError(t, conn.SetWriteDeadline(time.Now().Add(30*time.Second)))
	_, err = conn.Write(bytes.Repeat([]byte("a"), size))
	require.NoError(t, err, "the whole body is taken")
	require.NoError(t, conn.SetReadDeadline(time.Now().Add(10*time.Second)))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	require.NoError(t, err)
	defer resp.Body.Close()
	assert.Equal(t, http.StatusRequestEntityTooLarge, resp.StatusCode)
}

func TestTheLocalServerClosesConnectionsThatHoldItUp(t *testing.T) {
	h, token := siteHandler(t, io.Discard)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	srv := newHTTPServer(h, timeouts{readHeader: 200 * time.Millisecond, read: 300 * time.Millisecond, write: 2 * time.Second, idle: 300 * time.Millisecond})
	go func() { _ = srv.Serve(ln) }()
	defer srv.Close()
	addr := ln.Addr().String()

	t.Run("make run sets every timeout", func(t *testing.T) {
		d := defaultTimeouts(10 * time.Second)
		s := newHTTPServer(h, d)
		for name, v := range map[string]time.Duration{"ReadHeaderTimeout": s.ReadHeaderTimeout, "ReadTimeout": s.ReadTimeout, "WriteTimeout": s.WriteTimeout, "IdleTimeout": s.IdleTimeout} {
			assert.Positive(t, v, name)
		}
		assert.Greater(t, d.write, d.read+10*time.Second, "an answer has room for the slowest body and the longest request")
	})
	t.Run("a request whose headers never end is closed", func(t *testing.T) {
		conn := rawConn(t, addr)
		_, err := io.WriteString(conn, "GET /contacts/ HTTP/1.1\r\nHost: x\r\n")
		require.NoError(t, err)
		requireClosed(t, conn)
	})
	t.Run("a body that never finishes is closed", func(t *testing.T) {
		conn := rawConn(t, addr)
		_, err := fmt.Fprintf(conn, "DELETE /payments/coupon HTTP/1.1\r\nHost: x\r\nVersion: 2021-07-28\r\nAuthorization: Bearer %s\r\n"+
			"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"altId\":", token)
		require.NoError(t, err)
		answer := requireClosed(t, conn)
		assert.NotContains(t, answer, "200 OK", "nothing is done with half a body")
	})
	t.Run("an idle kept-alive connection is closed", func(t *testing.T) {
		conn := rawConn(t, addr)
		_, err := io.WriteString(conn, "GET "+api.YAMLPath+" HTTP/1.1\r\nHost: x\r\n\r\n")
		require.NoError(t, err)
		br := bufio.NewReader(conn)
		resp, err := http.ReadResponse(br, nil)
		require.NoError(t, err)
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		require.Equal(t, http.StatusOK, resp.StatusCode)
		assert.False(t, resp.Close, "the connection is kept alive after its answer")
		require.NoError(t, conn.SetReadDeadline(time.Now().Add(5*time.Second)))
		rest, err := io.ReadAll(br)
		require.NoError(t, err, "the idle connection was not closed")
		assert.Empty(t, rest)
	})
}

func TestABrowserFindsTheAPIReference(t *testing.T) {
	noRedirects := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	browse := func(t *testing.T, url string) *http.Response {
		t.Helper()
		req, err := http.NewRequest("GET", url, nil)
		require.NoError(t, err)
		req.Header.Set("Accept", "text/html,application/xhtml+xml,*/*;q=0.8") // no Version, no token
		resp, err := noRedirects.Do(req)
		require.NoError(t, err)
		t.Cleanup(func() { resp.Body.Close() })
		return resp
	}
	h, _ := siteHandler(t, io.Discard)
	srv := httptest.NewServer(h)
	defer srv.Close()

	for _, path := range []string{"/", "/docs/"} {
		t.Run(path+" leads to /docs", func(t *testing.T) {
			resp := browse(t, srv.URL+path)
			assert.Equal(t, http.StatusFound, resp.StatusCode)
			assert.Equal(t, api.DocsPath, resp.Header.Get("Location"))
		})
	}
	t.Run("/favicon.ico is a JSON 404, not a 400 about the Version header", func(t *testing.T) {
		resp := browse(t, srv.URL+"/favicon.ico")
		assert.Equal(t, http.StatusNotFound, resp.StatusCode)
		assert.Equal(t, "application/json; charset=utf-8", resp.Header.Get("Content-Type"))
		assert.NotEmpty(t, resp.Header.Get("X-Request-Id"))
	})
	t.Run("a POST to / is the API's, not a redirect", func(t *testing.T) {
		resp, err := noRedirects.Post(srv.URL+"/", "application/json", strings.NewReader("{}"))
		require.NoError(t, err)
		resp.Body.Close()
		assert.Equal(t, http.StatusNotFound, resp.StatusCode)
	})
	t.Run("/docs without its script says to run npm ci", func(t *testing.T) {
		h, _ := siteHandlerWithBundle(t, io.Discard, filepath.Join(t.TempDir(), "redoc.standalone.js"))
		bare := httptest.NewServer(h)
		defer bare.Close()
		resp := browse(t, bare.URL+api.DocsPath)
		body, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		assert.Equal(t, http.StatusServiceUnavailable, resp.StatusCode)
		assert.Equal(t, "text/html; charset=utf-8", resp.Header.Get("Content-Type"))
		assert.Contains(t, string(body), "npm ci")
		assert.NotContains(t, string(body), "<redoc", "not the page that would stay blank")
	})
}
