package faults_test

import (
	"io"
	"net"
	"regexp"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// freezer is a TCP proxy in front of the engine. It can go down: every
// connection breaks (whatever the engine was doing, it finishes or never
// starts) and new ones are refused, as when the engine is unreachable. It
// can freeze: while frozen it accepts connections and swallows bytes without
// answering, as a hung engine or a black-holed network would. And it can cut
// the answer to the next call of one DynamoDB operation: the engine has
// applied it, the caller gets a closed connection.
type freezer struct {
	addr   string
	target string

	lnMu sync.Mutex
	ln   net.Listener

	mu     sync.Mutex
	cut    string // operation whose next answer is cut ("" none)
	frozen bool
	thawed *sync.Cond
	conns  map[net.Conn]bool
}

func newFreezer(t *testing.T, targetURL string) *freezer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	f := &freezer{ln: ln, addr: ln.Addr().String(), target: targetURL[len("http://"):], conns: map[net.Conn]bool{}}
	f.thawed = sync.NewCond(&f.mu)
	go f.serve(ln)
	t.Cleanup(f.down)
	return f
}

func (f *freezer) endpoint() string { return "http://" + f.addr }

// down stops listening and breaks every open connection.
func (f *freezer) down() {
	f.lnMu.Lock()
	if f.ln != nil {
		_ = f.ln.Close()
		f.ln = nil
	}
	f.lnMu.Unlock()
	f.setFrozen(false)
	f.mu.Lock()
	for c := range f.conns {
		_ = c.Close()
	}
	f.mu.Unlock()
}

// up listens again on the same address.
func (f *freezer) up(t *testing.T) {
	t.Helper()
	ln, err := net.Listen("tcp", f.addr)
	require.NoError(t, err, "listen again on %s", f.addr)
	f.lnMu.Lock()
	f.ln = ln
	f.lnMu.Unlock()
	go f.serve(ln)
}

func (f *freezer) setFrozen(v bool) {
	f.mu.Lock()
	f.frozen = v
	f.mu.Unlock()
	f.thawed.Broadcast()
}

// cutNextAnswer makes the proxy drop the connection instead of passing on
// the engine's answer to the next call of op (e.g. "PutItem").
func (f *freezer) cutNextAnswer(op string) {
	f.mu.Lock()
	f.cut = op
	f.mu.Unlock()
}

// takeCut reports whether an answer to op is to be cut, once.
func (f *freezer) takeCut(op string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if op != "" && f.cut == op {
		f.cut = ""
		return true
	}
	return false
}

func (f *freezer) track(c net.Conn, on bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if on {
		f.conns[c] = true
	} else {
		delete(f.conns, c)
	}
}

func (f *freezer) serve(ln net.Listener) {
	for {
		client, err := ln.Accept()
		if err != nil {
			return
		}
		go f.handle(client)
	}
}

func (f *freezer) handle(client net.Conn) {
	f.track(client, true)
	defer f.track(client, false)
	defer client.Close()
	// A connection made while frozen hangs until thawed, then is dropped.
	if !f.pass() {
		return
	}
	server, err := net.Dial("tcp", f.target)
	if err != nil {
		return
	}
	f.track(server, true)
	defer f.track(server, false)
	defer server.Close()
	// The operation of the request in flight on this connection (calls on
	// one connection are sequential).
	var op struct {
		sync.Mutex
		name string
	}
	done := make(chan struct{}, 2)
	go func() {
		f.pipe(server, client, func(b []byte) bool {
			if m := targetPattern.FindSubmatch(b); m != nil {
				op.Lock()
				op.name = string(m[1])
				op.Unlock()
			}
			return true
		})
		done <- struct{}{}
	}()
	go func() {
		f.pipe(client, server, func([]byte) bool {
			op.Lock()
			defer op.Unlock()
			return !f.takeCut(op.name)
		})
		done <- struct{}{}
	}()
	<-done
}

var targetPattern = regexp.MustCompile(`(?i)x-amz-target: *DynamoDB_20120810\.(\w+)`)

// pass waits while frozen; it reports whether the proxy was open all along
// (false: the caller's bytes were swallowed and its connection must go).
func (f *freezer) pass() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	open := !f.frozen
	for f.frozen {
		f.thawed.Wait()
	}
	return open
}

// pipe copies src to dst while the proxy is open and forward approves each
// chunk; otherwise it drops both connections.
func (f *freezer) pipe(dst, src net.Conn, forward func([]byte) bool) {
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			if !f.pass() || !forward(buf[:n]) {
				_ = dst.Close()
				_ = src.Close()
				return
			}
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			if err != io.EOF {
				_ = dst.Close()
			}
			return
		}
	}
}
