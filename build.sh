#!/bin/sh
# build.sh - the two commands README.md opens with.
#
#   ./build.sh run    install the Debian packages gmsim needs (if missing), build it, run the
#                     main job on the default config and print its report
#   ./build.sh test   install what is missing, build with warnings as errors, run every test;
#                     then the unit and system tests again under AddressSanitizer + UBSan,
#                     `make distcheck`, and a fuzz smoke (each libFuzzer harness of tests/fuzz/
#                     for FUZZ_SECONDS, default 5, over its seed corpus: one test each); ends
#                     with one line "N passed, N failed" (", N skipped" when clang with
#                     libFuzzer is missing and the smoke could not run); test points that skip
#                     (the Slurm test without a Slurm that comes up) count as neither and show
#                     in each build's "# SKIP:" line
#
# Builds go to build/ (release, -Werror), build-asan/ (sanitizers) and build-fuzz/ (clang). Nothing is written into
# the source tree except what autogen.sh generates (configure, Makefile.in, build-aux/), which
# git ignores.
set -eu
cd "$(dirname "$0")"
top=$(pwd)
jobs=$(nproc 2>/dev/null || echo 2)

# Packages, by the name Debian 12 gives them.
PKGS="gcc make autoconf automake libtool pkg-config libconfig-dev libgsl-dev libcmocka-dev liblzma-dev xz-utils python3 parallel valgrind gnuplot-nox"
# For the fuzz smoke: clang and its libFuzzer runtime, whose package name carries the LLVM
# version on Debian 12 (libclang-rt-14-dev) and not on later releases (libclang-rt-dev). The
# first one apt knows is installed; without any, the smoke is skipped, not failed.
FUZZ_PKGS="clang"
# For the real-Slurm sweep test (tests/sys/slurm.sh; without them it reports its points as
# skipped): a one-node Slurm and munge, started by the test itself under its temporary folder.
SLURM_PKGS="slurmctld slurmd slurm-client munge"
FUZZ_RT_PKGS="libclang-rt-14-dev libclang-rt-dev"

is_installed() {
	dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'
}

install_deps() {
	if ! command -v dpkg-query >/dev/null 2>&1; then
		echo "build.sh: not a Debian system; install by hand: $PKGS $FUZZ_PKGS libclang-rt-dev" >&2
		return 0
	fi
	missing=""
	for p in $PKGS; do
		is_installed "$p" || missing="$missing $p"
	done
	fuzz_missing=""
	for p in $FUZZ_PKGS; do
		is_installed "$p" || fuzz_missing="$fuzz_missing $p"
	done
	rt=""
	for p in $FUZZ_RT_PKGS; do
		is_installed "$p" && { rt=$p; break; }
	done
	slurm_missing=""
	if [ "${1:-}" = test ]; then
		for p in $SLURM_PKGS; do
			is_installed "$p" || slurm_missing="$slurm_missing $p"
		done
	fi
	[ -z "$missing" ] && [ -z "$fuzz_missing" ] && [ -z "$slurm_missing" ] && [ -n "$rt" ] &&
		return 0
	sudo=""
	[ "$(id -u)" -ne 0 ] && sudo=sudo
	$sudo apt-get update -qq
	if [ -z "$rt" ]; then
		for p in $FUZZ_RT_PKGS; do
			apt-cache show "$p" >/dev/null 2>&1 && { fuzz_missing="$fuzz_missing $p"; break; }
		done
	fi
	if [ -n "$missing" ]; then
		echo "build.sh: installing$missing"
		DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $missing
	fi
	if [ -n "${slurm_missing:-}" ]; then
		echo "build.sh: installing$slurm_missing (for the Slurm test)"
		DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
			$slurm_missing || echo "build.sh: could not install$slurm_missing: the Slurm test will be skipped" >&2
	fi
	if [ -n "$fuzz_missing" ]; then
		echo "build.sh: installing$fuzz_missing (for the fuzz smoke)"
		DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
			$fuzz_missing || echo "build.sh: could not install$fuzz_missing: no fuzz smoke" >&2
	fi
}

# configure_in DIR ARGS...: (re)configure DIR when it has no Makefile or other options.
configure_in() {
	dir=$1
	shift
	mkdir -p "$dir"
	if [ ! -f "$dir/Makefile" ] || [ "$(cat "$dir/.build-opts" 2>/dev/null)" != "$*" ]; then
		(cd "$dir" && "$top/configure" -q "$@")
		echo "$*" >"$dir/.build-opts"
	fi
}

# make_in DIR [TARGET]: build quietly; on failure show the end of the log.
make_in() {
	if ! make -s -C "$1" -j"$jobs" ${2:-} >"$1/make.out" 2>&1; then
		tail -n 40 "$1/make.out"
		echo "build.sh: make ${2:-all} in $1 failed" >&2
		return 1
	fi
}

build() {
	[ -x configure ] || ./autogen.sh >/dev/null 2>&1 || ./autogen.sh
	configure_in build --enable-werror
	make_in build
}

# Adds a test-suite.log's totals to passed/failed.
count() {
	log=$1
	[ -f "$log" ] || return 0
	p=$(sed -n 's/^# PASS: *//p' "$log" | head -n 1)
	f=$(sed -n 's/^# FAIL: *//p' "$log" | head -n 1)
	e=$(sed -n 's/^# ERROR: *//p' "$log" | head -n 1)
	x=$(sed -n 's/^# XPASS: *//p' "$log" | head -n 1)
	passed=$((passed + ${p:-0}))
	failed=$((failed + ${f:-0} + ${e:-0} + ${x:-0}))
}

# check DIR: make check, keep going on failure, show the logs of what failed.
check() {
	dir=$1
	rm -f "$dir/test-suite.log"
	if ! make -s -C "$dir" -j"$jobs" check >"$dir/check.out" 2>&1; then
		status=1
		grep -E '^(FAIL|ERROR|XPASS)' "$dir/check.out" || true
		cat "$dir/test-suite.log" 2>/dev/null | head -n 200 || true
		# A build failure leaves no test-suite.log: count it as a failure.
		[ -f "$dir/test-suite.log" ] || { tail -n 30 "$dir/check.out"; failed=$((failed + 1)); }
	fi
	grep -E '^# (TOTAL|PASS|FAIL|ERROR|SKIP)' "$dir/check.out" | sed "s|^|$dir: |" || true
	count "$dir/test-suite.log"
}

case "${1:-}" in
run)
	install_deps
	build
	echo
	build/sim/gmsim config check -c configs/default.cfg || exit $?
	echo
	exec build/sim/gmsim run --predict
	;;
test)
	install_deps test
	build
	passed=0
	failed=0
	skipped=0
	status=0
	check build
	configure_in build-asan --enable-werror --enable-sanitizers --enable-debug
	if make_in build-asan; then
		check build-asan
	else
		failed=$((failed + 1))
	fi
	if make -s -C build -j"$jobs" distcheck >build/distcheck.out 2>&1; then
		echo "distcheck: ok"
	else
		status=1
		failed=$((failed + 1))
		tail -n 40 build/distcheck.out
		echo "distcheck: FAILED"
	fi
	# Fuzz smoke: each harness for a few seconds over its corpus, one test each.
	frc=0
	FUZZ_SECONDS=${FUZZ_SECONDS:-5} FUZZ_JOBS=$jobs FUZZ_MAKE_JOBS=$jobs \
		sh tests/fuzz/fuzz.sh "$top" "$top/build-fuzz" >build/fuzz-smoke.out 2>&1 || frc=$?
	cat build/fuzz-smoke.out
	if [ "$frc" -eq 77 ]; then
		skipped=$((skipped + $(echo tests/fuzz/fuzz_*.c | wc -w)))
		echo "fuzz: skipped (no clang with libFuzzer: install clang and libclang-rt-14-dev)"
	else
		p=$(grep -c '^fuzz_[a-z_]*: .* ok$' build/fuzz-smoke.out || true)
		f=$(grep -c '^fuzz_[a-z_]*: .*FAILED' build/fuzz-smoke.out || true)
		passed=$((passed + p))
		failed=$((failed + f))
		# a build failure runs no harness: count it as one failure
		[ "$frc" -ne 0 ] && [ "$f" -eq 0 ] && failed=$((failed + 1))
	fi
	[ "$failed" -eq 0 ] || status=1
	if [ "$skipped" -gt 0 ]; then
		echo "$passed passed, $failed failed, $skipped skipped"
	else
		echo "$passed passed, $failed failed"
	fi
	exit $status
	;;
*)
	echo "usage: ./build.sh run | ./build.sh test" >&2
	exit 2
	;;
esac
