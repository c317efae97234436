package main

func runReport(args []string) error { return nil }
