/*
 * runrss.c - runs a command and writes its CPU seconds and peak RSS to a file, for
 * bench/speed.py.
 *
 *   usage: runrss OUT COMMAND [ARG...]
 *
 * Writes "USER SYS MAXRSS_KB\n" (seconds, seconds, kilobytes: the command's rusage) to OUT and
 * exits with the command's status (128 + N if signal N ended it; 127 if it could not be run).
 *
 * Why not Python's own wait4: a child's ru_maxrss counts the memory of the process it was forked
 * from until its exec (Linux keeps the larger of the old and new image's peaks), so every
 * command Python starts shows at least Python's ~20 MB. gmsim's DRAM rows peak near 10 MB, and
 * bench/speed.py showed Python's figure for them, base and new alike. Forked from this small
 * program instead, the command's peak is its own (give or take this program's ~1 MB).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct rusage ru;
	int status;
	pid_t pid;
	FILE *out;

	if (argc < 3) {
		fprintf(stderr, "usage: runrss OUT COMMAND [ARG...]\n");
		return 2;
	}
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "runrss: fork: %s\n", strerror(errno));
		return 127;
	}
	if (pid == 0) {
		execvp(argv[2], argv + 2);
		fprintf(stderr, "runrss: %s: %s\n", argv[2], strerror(errno));
		_exit(127);
	}
	while (wait4(pid, &status, 0, &ru) < 0) {
		if (errno != EINTR) {
			fprintf(stderr, "runrss: wait4: %s\n", strerror(errno));
			return 127;
		}
	}
	out = fopen(argv[1], "w");
	if (out == NULL) {
		fprintf(stderr, "runrss: %s: %s\n", argv[1], strerror(errno));
		return 127;
	}
	fprintf(out, "%ld.%06ld %ld.%06ld %ld\n", (long)ru.ru_utime.tv_sec,
		(long)ru.ru_utime.tv_usec, (long)ru.ru_stime.tv_sec, (long)ru.ru_stime.tv_usec,
		ru.ru_maxrss);
	if (fclose(out) != 0) {
		fprintf(stderr, "runrss: %s: %s\n", argv[1], strerror(errno));
		return 127;
	}
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}
