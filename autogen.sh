#!/bin/sh
# Regenerate configure, Makefile.in and build-aux/ (none of them are committed).
set -e
cd "$(dirname "$0")"
mkdir -p m4
autoreconf -fi
