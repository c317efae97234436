#!/usr/bin/env bash
# Runs every fuzz target of the module (each `func FuzzXxx` in a *_test.go),
# one after another, for FUZZTIME each, and prints a table: target, package,
# time, execs, result. Fails when a target finds a failing input (Go writes
# it under the package's testdata/fuzz/<FuzzName>/: commit it as a
# regression seed once fixed).
#   FUZZTIME      time per target (default 20s)
#   FUZZPARALLEL  fuzzing workers per target (default 1: the machine is shared)
#   FUZZ          only targets whose name matches this regexp (default all)
set -uo pipefail
cd "$(dirname "$0")/.."
FUZZTIME=${FUZZTIME:-20s}
FUZZPARALLEL=${FUZZPARALLEL:-1}
FUZZ=${FUZZ:-.}

targets=$(grep -rl --include='*_test.go' -E '^func Fuzz[A-Za-z0-9_]+\(f \*testing\.F\)' --exclude-dir=node_modules . |
	while read -r file; do
		for name in $(grep -oE '^func Fuzz[A-Za-z0-9_]+' "$file" | sed 's/^func //'); do
			echo "./$(dirname "${file#./}") $name"
		done
	done | sort -u | grep -E " .*${FUZZ}" || true)
[ -n "$targets" ] || { echo "no fuzz target matches $FUZZ"; exit 1; }

failed=0
summary=()
while read -r pkg name; do
	echo "== $name ($pkg) for $FUZZTIME"
	log=$(mktemp)
	go test -run '^$' -fuzz "^${name}\$" -fuzztime "$FUZZTIME" -fuzzminimizetime 200x -parallel "$FUZZPARALLEL" "$pkg" 2>&1 | tee "$log" | grep -vE 'execs: .*\(.*/sec\)' || true
	last=$(grep -E 'elapsed: .*execs: ' "$log" | tail -1)
	execs=$(sed -E 's/.*execs: ([0-9]+).*/\1/' <<<"$last")
	elapsed=$(sed -E 's/.*elapsed: ([0-9hms]+),.*/\1/' <<<"$last")
	if grep -qE '^(FAIL|--- FAIL)' "$log"; then
		result=FAIL; failed=1
	else
		result=ok
	fi
	summary+=("$(printf '%-30s %-48s %6s %10s execs  %s' "$name" "$pkg" "${elapsed:-?}" "${execs:-0}" "$result")")
	rm -f "$log"
done <<<"$targets"

echo
echo "Fuzzing summary (FUZZTIME=$FUZZTIME, FUZZPARALLEL=$FUZZPARALLEL):"
printf '%s\n' "${summary[@]}"
exit $failed
