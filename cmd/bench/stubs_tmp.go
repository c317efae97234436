package main

func runColdStart(args []string) error { return nil }
func runLoad(args []string) error      { return nil }
func runDataset(args []string) error   { return nil }
func runReport(args []string) error    { return nil }
