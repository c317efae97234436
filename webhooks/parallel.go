package webhooks

import "sync"

// parallel bounds the reads (and fan-out writes) one deliverer makes at
// once; attempts go by receiver, in lanes (lanes.go).
const parallel = 16

// each runs do(0..n-1), up to parallel at once, and returns how many ended
// without error and the first error.
func each(n int, do func(i int) error) (int, error) {
	var (
		mu    sync.Mutex
		done  int
		first error
		wg    sync.WaitGroup
	)
	slots := make(chan struct{}, parallel)
	for i := range n {
		slots <- struct{}{}
		wg.Go(func() {
			defer func() { <-slots }()
			err := do(i)
			mu.Lock()
			defer mu.Unlock()
			if err == nil {
				done++
			} else if first == nil {
				first = err
			}
		})
	}
	wg.Wait()
	return done, first
}
