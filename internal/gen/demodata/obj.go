package main

import "github.com/bizplatform/api/internal/gen"

// The data is written as ordered objects throughout; the short names keep
// its literals readable.
type (
	obj = gen.Obj
	kv  = gen.KV
)
