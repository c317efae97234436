package faults_test

import (
	"io"
	"net"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// freezer is a TCP proxy in front of the engine that can freeze: while
// frozen it accepts connections and swallows bytes without answering, as a
// hung engine or a black-holed network would.
type freezer struct {
	ln     net.Listener
	target string

	mu     sync.Mutex
	frozen bool
	thawed *sync.Cond
	conns  map[net.Conn]bool
}

func newFreezer(t *testing.T, targetURL string) *freezer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	f := &freezer{ln: ln, target: targetURL[len("http://"):], conns: map[net.Conn]bool{}}
	f.thawed = sync.NewCond(&f.mu)
	go f.serve()
	t.Cleanup(func() {
		_ = ln.Close()
		f.setFrozen(false)
		f.mu.Lock()
		for c := range f.conns {
			_ = c.Close()
		}
		f.mu.Unlock()
	})
	return f
}

func (f *freezer) endpoint() string { return "http://" + f.ln.Addr().String() }

func (f *freezer) setFrozen(v bool) {
	f.mu.Lock()
	f.frozen = v
	f.mu.Unlock()
	f.thawed.Broadcast()
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

func (f *freezer) serve() {
	for {
		client, err := f.ln.Accept()
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
	done := make(chan struct{}, 2)
	go func() { f.pipe(server, client); done <- struct{}{} }()
	go func() { f.pipe(client, server); done <- struct{}{} }()
	<-done
}

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

func (f *freezer) pipe(dst, src net.Conn) {
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			if !f.pass() {
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
