package main

func runLoad(args []string) error      { return nil }
func runDataset(args []string) error   { return nil }
func runReport(args []string) error    { return nil }
