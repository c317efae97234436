package main

func runDataset(args []string) error { return nil }
func runReport(args []string) error  { return nil }
