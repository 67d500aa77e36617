#!/bin/sh
# fuzz.sh SRCDIR BUILDDIR [HARNESS...] - build the libFuzzer harnesses and run each one.
#
# Configures BUILDDIR with CC=clang --enable-fuzzing (once), builds the harnesses of
# tests/fuzz/ there and runs each for FUZZ_SECONDS (default 60) over a copy of its seed corpus
# tests/fuzz/corpus/NAME/ (new inputs the run finds go to BUILDDIR/corpus/NAME/, never into the
# source tree), with the dictionary tests/fuzz/dict/NAME.dict if there is one. Prints per
# harness one line "fuzz_NAME: N executions, ok" (N from libFuzzer's final
# stat::number_of_executed_units) or "... FAILED" with the log's end; a crash input is kept as
# BUILDDIR/crash-NAME-*. Exit status: 0 all ran clean, 1 a harness failed, 77 no clang with
# libFuzzer (nothing ran: the caller counts that as skipped).
#
# Environment: FUZZ_SECONDS (per harness), FUZZ_JOBS (harnesses run at once, default 1),
# FUZZ_CC (default clang; not CC, which often names gcc), FUZZ_ARGS (more libFuzzer options).
set -u
src=$1
build=$2
shift 2
secs=${FUZZ_SECONDS:-60}
jobs=${FUZZ_JOBS:-1}
cc=${FUZZ_CC:-clang}
all="config workload expr dram_trace trace sweep csv"
names=${*:-$all}

if ! command -v "$cc" >/dev/null 2>&1; then
	echo "fuzz: no $cc: install clang and libclang-rt-14-dev (or newer) to fuzz" >&2
	exit 77
fi
mkdir -p "$build"
opts="CC=$cc --enable-fuzzing"
if [ ! -f "$build/Makefile" ] || [ "$(cat "$build/.fuzz-opts" 2>/dev/null)" != "$opts" ]; then
	if ! (cd "$build" && "$src/configure" -q CC="$cc" --enable-fuzzing) >"$build/configure.out" 2>&1; then
		tail -n 5 "$build/configure.out" >&2
		echo "fuzz: $cc cannot build libFuzzer harnesses (libclang-rt-NN-dev missing?)" >&2
		exit 77
	fi
	echo "$opts" >"$build/.fuzz-opts"
fi
if ! make -s -C "$build" -j"${FUZZ_MAKE_JOBS:-2}" fuzz-harnesses >"$build/make.out" 2>&1; then
	tail -n 40 "$build/make.out"
	echo "fuzz: building the harnesses failed" >&2
	exit 1
fi

# run NAME: one harness, its summary line on stdout; returns 1 on a finding.
run() {
	name=$1
	bin=$build/tests/fuzz/fuzz_$name
	corpus=$build/corpus/$name
	log=$build/fuzz_$name.log
	dict=""
	mkdir -p "$corpus"
	[ -f "$src/tests/fuzz/dict/$name.dict" ] && dict="-dict=$src/tests/fuzz/dict/$name.dict"
	# -rss_limit_mb and -timeout: a parser must not need more than 2 GB or 10 s on any input.
	# shellcheck disable=SC2086
	LSAN_OPTIONS="suppressions=$src/tests/fuzz/lsan.supp:print_suppressions=0" "$bin" -max_total_time="$secs" -print_final_stats=1 -timeout=10 -rss_limit_mb=2048 \
		-max_len=16384 -artifact_prefix="$build/crash-$name-" $dict ${FUZZ_ARGS:-} \
		"$corpus" "$src/tests/fuzz/corpus/$name" >"$log" 2>&1
	rc=$?
	n=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
	if [ "$rc" -eq 0 ]; then
		echo "fuzz_$name: ${n:-?} executions in ${secs}s, ok"
		return 0
	fi
	echo "fuzz_$name: ${n:-?} executions, FAILED (exit $rc; log $log)"
	grep -E 'ERROR|SUMMARY|Test unit written|^ *#[0-9]+ ' "$log" | head -n 30
	return 1
}

status=0
if [ "$jobs" -le 1 ]; then
	for name in $names; do
		run "$name" || status=1
	done
else
	# Up to FUZZ_JOBS at once; summaries printed in order.
	set -- $names
	while [ $# -gt 0 ]; do
		batch=""
		i=0
		while [ $# -gt 0 ] && [ "$i" -lt "$jobs" ]; do
			(run "$1" >"$build/fuzz_$1.summary") &
			batch="$batch $!:$1"
			shift
			i=$((i + 1))
		done
		for pn in $batch; do
			wait "${pn%%:*}" || status=1
			cat "$build/fuzz_${pn#*:}.summary"
		done
	done
fi
exit $status
