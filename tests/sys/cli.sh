#!/bin/sh
# cli.sh - the gmsim binary's command line: help, version, exit codes, dispatch errors.
. "${GMSIM_SRCDIR:-.}/tests/sys/tap.sh"
plan 17

run_gmsim --help
expect_eq "--help exits 0" 0 "$rc"
expect_match "--help lists the config command" '^  config ' "$out"
expect_match "--help lists the dram command" '^  dram ' "$out"
expect_match "--help lists the run command" '^  run ' "$out"
expect_match "--help lists the analyze command" '^  analyze ' "$out"
expect_match "--help lists the validate command" '^  validate ' "$out"
expect_match "--help lists the sweep command" '^  sweep ' "$out"

run_gmsim --version
expect_match "--version prints the version" '^gmsim [0-9]+\.[0-9]+\.[0-9]+$' "$out"

run_gmsim
expect_eq "no command is a usage error (exit 2)" 2 "$rc"

run_gmsim confg check
expect_eq "unknown command exits 2" 2 "$rc"
expect_match "unknown command suggests the near miss" "unknown command 'confg' \(did you mean 'config'\?\)" "$err"

run_gmsim config frobnicate
expect_eq "unknown config action exits 2" 2 "$rc"

run_gmsim config check --bogus
expect_eq "unknown option exits 2" 2 "$rc"

run_gmsim config check -c configs/default.cfg extra
expect_eq "stray argument exits 2" 2 "$rc"

run_gmsim dram --help
expect_match "dram --help documents --trace" '-t, --trace FILE' "$out"

run_gmsim config --help
expect_eq "config --help exits 0" 0 "$rc"
expect_match "config --help documents -o" '-o, --set group.key=VAL' "$out"
done_testing
