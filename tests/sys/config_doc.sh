#!/bin/sh
# config_doc.sh - doc/config-reference.md is what `gmsim config doc` prints now (run
# `make config-doc` to refresh it after changing a field table).
. "${GMSIM_SRCDIR:-.}/tests/sys/tap.sh"
plan 2

run_gmsim config doc
expect_eq "config doc exits 0" 0 "$rc"
expect_eq "doc/config-reference.md is current" "$(cat "$GMSIM_SRCDIR/doc/config-reference.md")" "$out"
done_testing
