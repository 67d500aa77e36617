/*
 * runner.c - the local runner of runner.h: a pool of at most `jobs` children, polled every
 * RUNNER_POLL_MS; each finished child's result becomes one point file, written atomically.
 *
 * Slot life:  free --spawn--> running --exit/signal--> reaped --record--> free
 *                               |--past the timeout: SIGKILL to the group (then reaped)
 *
 * The only process-wide state is the flag the SIGINT/SIGTERM handler sets (a handler can reach
 * nothing else); the handlers are installed for the duration of runner_run and restored.
 *
 * Not done here: choosing points (the caller passes the jobs), merging (merge.h).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "json.h"
#include "runner.h"

/* Children are polled this often: short next to a point (tens of ms at the smallest). */
#define RUNNER_POLL_MS 5
/* The error message keeps at most this much of a child's stderr (its end). */
#define RUNNER_ERR_MAX 8192

static volatile sig_atomic_t runner_stop;

static void on_signal(int sig)
{
	runner_stop = sig;
}

struct slot {
	pid_t pid;              /* 0: free */
	size_t job;
	struct timespec start;
	bool killed;            /* by the timeout */
	char *stats, *errf;     /* temporary files */
};

static double since(const struct timespec *a)
{
	struct timespec b;

	clock_gettime(CLOCK_MONOTONIC, &b);
	return (double)(b.tv_sec - a->tv_sec) + (double)(b.tv_nsec - a->tv_nsec) / 1e9;
}

/* ---------------------------------------------------------------------------------------------
 * Files
 */

/* Creates dir and any missing parents, as mkdir -p. */
static int mkdir_p(const char *dir, struct sim_err *err)
{
	char path[4096];
	size_t i, n = strlen(dir);

	if (n >= sizeof path)
		return sim_err_set(err, dir, 0, "cannot create the directory: path too long");
	memcpy(path, dir, n + 1);
	for (i = 1; i <= n; i++) {
		if (path[i] != '/' && path[i] != '\0')
			continue;
		path[i] = '\0';
		if (mkdir(path, 0777) != 0 && errno != EEXIST)
			return sim_err_set(err, dir, 0, "cannot create the directory %s: %s", path,
					   strerror(errno));
		path[i] = dir[i];
	}
	return 0;
}

int runner_prepare(const char *out, struct sim_err *err)
{
	char *p = xasprintf("%s/points", out), *t = xasprintf("%s/tmp", out);
	int rc = 0;

	if (mkdir_p(out, err) != 0 || mkdir_p(p, err) != 0 || mkdir_p(t, err) != 0)
		rc = -1;
	free(p);
	free(t);
	return rc;
}

static void fsync_dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir = slash != NULL ? xasprintf("%.*s", (int)(slash - path), path) : xstrdup(".");
	int fd = open(dir[0] != '\0' ? dir : "/", O_RDONLY | O_DIRECTORY);

	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
	free(dir);
}

int runner_write_atomic(const char *out, const char *path, const char *text, size_t len,
			struct sim_err *err)
{
	const char *base = strrchr(path, '/');
	char *tmp = xasprintf("%s/tmp/%s.%ld.part", out, base != NULL ? base + 1 : path,
			      (long)getpid());
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0666);
	size_t done = 0;

	if (fd < 0) {
		sim_err_set(err, tmp, 0, "cannot write: %s", strerror(errno));
		free(tmp);
		return -1;
	}
	while (done < len) {
		ssize_t w = write(fd, text + done, len - done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			sim_err_set(err, tmp, 0, "cannot write: %s", strerror(errno));
			close(fd);
			unlink(tmp);
			free(tmp);
			return -1;
		}
		done += (size_t)w;
	}
	if (fsync(fd) != 0 || close(fd) != 0 || rename(tmp, path) != 0) {
		sim_err_set(err, path, 0, "cannot write: %s", strerror(errno));
		unlink(tmp);
		free(tmp);
		return -1;
	}
	fsync_dir_of(path);
	free(tmp);
	return 0;
}

/* The end of file path (at most RUNNER_ERR_MAX bytes), trailing newlines cut; "" if none. */
static char *read_tail(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf = xcalloc(RUNNER_ERR_MAX + 1, 1);
	size_t n = 0;
	long size;

	if (f == NULL)
		return buf;
	if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) > RUNNER_ERR_MAX)
		fseek(f, size - RUNNER_ERR_MAX, SEEK_SET);
	else
		fseek(f, 0, SEEK_SET);
	n = fread(buf, 1, RUNNER_ERR_MAX, f);
	fclose(f);
	buf[n] = '\0';
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\r'))
		buf[--n] = '\0';
	return buf;
}

/* ---------------------------------------------------------------------------------------------
 * The point file
 */

/* Writes the value of a -o / -p assignment's right side as JSON: a number or boolean as such,
 * anything else (quotes stripped) as a string. */
static void write_value(FILE *f, const char *text)
{
	size_t n = strlen(text);
	struct json *j;

	if (n >= 2 && text[0] == '"' && text[n - 1] == '"') {
		char *s = xasprintf("%.*s", (int)(n - 2), text + 1);

		json_write_string(f, s);
		free(s);
		return;
	}
	j = json_parse(text, NULL, 0);
	if (j != NULL && (j->kind == JSON_NUMBER || j->kind == JSON_BOOL))
		json_write(f, j, -1);
	else
		json_write_string(f, text);
	json_free(j);
}

static void write_assignments(FILE *f, const char *name, const char *const *kv, size_t n)
{
	size_t i;

	fprintf(f, "  \"%s\": {", name);
	for (i = 0; i < n; i++) {
		const char *eq = strchr(kv[i], '=');
		char *key = xasprintf("%.*s", eq != NULL ? (int)(eq - kv[i]) : (int)strlen(kv[i]),
				      kv[i]);

		fputs(i > 0 ? ", " : "", f);
		json_write_string(f, key);
		fputs(": ", f);
		write_value(f, eq != NULL ? eq + 1 : "");
		free(key);
	}
	fputs("},\n", f);
}

/* Cuts msg down to its last non-empty line (the summary after a watchdog's state dump). */
static void last_line(char *msg)
{
	size_t n = strlen(msg);
	char *nl;

	while (n > 0 && msg[n - 1] == '\n')
		msg[--n] = '\0';
	nl = strrchr(msg, '\n');
	if (nl != NULL)
		memmove(msg, nl + 1, strlen(nl + 1) + 1);
}

/* Builds and writes DIR/points/ID.json for a finished child. */
static int record(const struct runner_opts *o, const struct sweep_job *job, const struct slot *sl,
		  int wstatus, double host_s, bool *ok, struct sim_err *err)
{
	char why[256] = "", *text = NULL, *msg, *path;
	size_t len = 0;
	struct json *stats = NULL;
	const struct json *seed;
	const char *status = "ok";
	int code = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus)
		   : WIFSIGNALED(wstatus) ? 128 + WTERMSIG(wstatus) : 255;
	FILE *f;
	int rc;

	msg = read_tail(sl->errf);
	if (sl->killed) {
		char *m = xasprintf("timed out after %g s%s%s", o->timeout_s, msg[0] ? ": " : "", msg);

		free(msg);
		msg = m;
		status = "timeout";
	} else if (WIFEXITED(wstatus) && (code == SIM_EXIT_LIMIT || code == SIM_EXIT_WATCHDOG)) {
		/* stopped by itself: its statistics so far are kept, marked partial */
		status = code == SIM_EXIT_LIMIT ? "limit" : "watchdog";
		stats = json_parse_file(sl->stats, why, sizeof why);
		if (stats == NULL || stats->kind != JSON_OBJECT) {
			json_free(stats);
			stats = NULL;
		}
		last_line(msg);
	} else if (code != 0) {
		status = "failed";
		if (msg[0] == '\0') {
			free(msg);
			msg = WIFSIGNALED(wstatus) ? xasprintf("killed by signal %d",
							       WTERMSIG(wstatus))
				: xasprintf("exit status %d", code);
		}
	} else {
		stats = json_parse_file(sl->stats, why, sizeof why);
		if (stats == NULL || stats->kind != JSON_OBJECT) {
			free(msg);
			msg = xasprintf("%s: statistics unreadable: %s", sl->stats, why);
			status = "failed";
		}
	}
	f = open_memstream(&text, &len);
	if (f == NULL)
		sim_panic("open_memstream: %s", strerror(errno));
	fputs("{\n  \"point\": ", f);
	json_write_string(f, job->id);
	fputs(",\n  \"config\": ", f);
	json_write_string(f, job->config);
	fputs(",\n  \"workload\": ", f);
	json_write_string(f, job->workload);
	fputs(",\n", f);
	write_assignments(f, "overrides", job->set, job->nset);
	write_assignments(f, "params", job->param, job->nparam);
	seed = json_get(json_get(stats, "gmsim"), "seed");
	fprintf(f, "  \"seed\": %s,\n", seed != NULL && seed->kind == JSON_NUMBER ? seed->text
		: "null");
	fprintf(f, "  \"status\": \"%s\",\n  \"exit_status\": %d,\n  \"host_seconds\": %.3f,\n"
		"  \"error\": ", strcmp(status, "ok") == 0 ? "ok" : status, code, host_s);
	if (strcmp(status, "ok") == 0)
		fputs("null", f);
	else
		json_write_string(f, msg);
	fputs(",\n  \"stats\": ", f);
	if (stats != NULL)
		json_write(f, stats, 2);
	else
		fputs("null", f);
	fputs("\n}\n", f);
	fclose(f);
	path = xasprintf("%s/points/%s.json", o->out, job->id);
	rc = runner_write_atomic(o->out, path, text, len, err);
	*ok = strcmp(status, "ok") == 0;
	free(path);
	free(text);
	free(msg);
	json_free(stats);
	return rc;
}

int runner_point_state(const char *out, const char *id)
{
	char *path = xasprintf("%s/points/%s.json", out, id), why[128];
	struct json *j = json_parse_file(path, why, sizeof why);
	const char *st = json_str(json_get(j, "status"));
	int r = st == NULL ? 0 : strcmp(st, "ok") == 0 ? 1 : 2;

	json_free(j);
	free(path);
	return r;
}

/* ---------------------------------------------------------------------------------------------
 * Children
 */

static int spawn(const struct runner_opts *o, const struct sweep_job *job, struct slot *sl,
		 struct sim_err *err)
{
	size_t argc = 0, i, max = 16 + 2 * (job->nset + job->nparam);
	char cyc[32], host[48];
	char **argv = xcalloc(max, sizeof *argv);
	pid_t parent = getpid(), pid;

	sl->stats = xasprintf("%s/tmp/%s.%ld.stats.json", o->out, job->id, (long)parent);
	sl->errf = xasprintf("%s/tmp/%s.%ld.err", o->out, job->id, (long)parent);
	argv[argc++] = (char *)o->self;
	argv[argc++] = (char *)"run";
	argv[argc++] = (char *)"-q";
	argv[argc++] = (char *)"-c";
	argv[argc++] = (char *)job->config;
	argv[argc++] = (char *)"-w";
	argv[argc++] = (char *)job->workload;
	for (i = 0; i < job->nparam; i++) {
		argv[argc++] = (char *)"-p";
		argv[argc++] = (char *)job->param[i];
	}
	for (i = 0; i < job->nset; i++) {
		argv[argc++] = (char *)"-o";
		argv[argc++] = (char *)job->set[i];
	}
	if (o->max_cycles != 0) {
		snprintf(cyc, sizeof cyc, "%" PRIu64, o->max_cycles);
		argv[argc++] = (char *)"--max-cycles";
		argv[argc++] = cyc;
	}
	if (o->max_host_seconds > 0) {
		snprintf(host, sizeof host, "%.17g", o->max_host_seconds);
		argv[argc++] = (char *)"--max-host-seconds";
		argv[argc++] = host;
	}
	argv[argc++] = (char *)"--stats-json";
	argv[argc++] = sl->stats;
	argv[argc] = NULL;
	unlink(sl->stats);
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		free(argv);
		return sim_err_set(err, NULL, 0, "cannot start a point: fork: %s", strerror(errno));
	}
	if (pid == 0) {
		int fd;

		setpgid(0, 0);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(127);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		fd = open("/dev/null", O_RDWR);
		if (fd >= 0) {
			dup2(fd, STDIN_FILENO);
			dup2(fd, STDOUT_FILENO);
			close(fd);
		}
		fd = open(sl->errf, O_WRONLY | O_CREAT | O_TRUNC, 0666);
		if (fd >= 0) {
			dup2(fd, STDERR_FILENO);
			close(fd);
		}
		execv(o->self, argv);
		fprintf(stderr, "cannot run %s: %s\n", o->self, strerror(errno));
		_exit(127);
	}
	setpgid(pid, pid); /* also here: no race with a kill before the child ran */
	free(argv);
	sl->pid = pid;
	sl->killed = false;
	clock_gettime(CLOCK_MONOTONIC, &sl->start);
	return 0;
}

static void slot_clear(struct slot *sl)
{
	unlink(sl->stats);
	unlink(sl->errf);
	free(sl->stats);
	free(sl->errf);
	sl->stats = sl->errf = NULL;
	sl->pid = 0;
}

static void fmt_time(char *buf, size_t n, double s)
{
	long t = (long)(s + 0.5);

	if (t >= 3600)
		snprintf(buf, n, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
	else
		snprintf(buf, n, "%ld:%02ld", t / 60, t % 60);
}

static void progress(const struct runner_tally *t, size_t todo, size_t running,
		     const struct timespec *t0)
{
	double el = since(t0);
	size_t now = t->ok + t->failed;
	char e[32], r[32] = "?";

	fmt_time(e, sizeof e, el);
	if (now > 0)
		fmt_time(r, sizeof r, el / (double)now * (double)(todo - now));
	fprintf(stderr, "\r  sweep: %zu/%zu done, %zu failed, %zu running, %s elapsed, ~%s left  ",
		t->done_before + t->failed_before + now, t->total, t->failed_before + t->failed,
		running, e, r);
	fflush(stderr);
}

static int lock_dir(const char *out, struct sim_err *err)
{
	char *path = xasprintf("%s/.lock", out);
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);

	if (fd < 0) {
		sim_err_set(err, path, 0, "cannot open: %s", strerror(errno));
		free(path);
		return -1;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
		sim_err_set(err, out, 0, "another gmsim sweep is running in this directory");
		close(fd);
		free(path);
		return -1;
	}
	free(path);
	return fd;
}

int runner_run(const struct sweep_job *const *jobs, size_t n, const struct runner_opts *o,
	       struct runner_tally *t, struct sim_err *err)
{
	struct slot *slots = xcalloc(o->jobs, sizeof *slots);
	size_t *todo = xcalloc(n + 1, sizeof *todo), ntodo = 0, next = 0, running = 0, i;
	struct sigaction sa, old_int, old_term;
	struct timespec t0, last = { 0, 0 };
	int lockfd = -1, rc = 0;

	memset(t, 0, sizeof *t);
	t->total = n;
	if (runner_prepare(o->out, err) != 0 ||
	    (o->lock && (lockfd = lock_dir(o->out, err)) < 0)) {
		free(slots);
		free(todo);
		return -1;
	}
	for (i = 0; i < n; i++) {
		int st = runner_point_state(o->out, jobs[i]->id);

		if (st == 1)
			t->done_before++;
		else if (st == 2 && !o->retry_failed)
			t->failed_before++;
		else
			todo[ntodo++] = i;
	}
	runner_stop = 0;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while ((next < ntodo || running > 0) && rc == 0) {
		struct timespec nap = { 0, RUNNER_POLL_MS * 1000000L };

		for (i = 0; i < o->jobs && next < ntodo && !runner_stop; i++) {
			if (slots[i].pid != 0)
				continue;
			slots[i].job = todo[next++];
			if (spawn(o, jobs[slots[i].job], &slots[i], err) != 0) {
				rc = -1;
				break;
			}
			running++;
		}
		for (i = 0; i < o->jobs && rc == 0; i++) {
			struct slot *sl = &slots[i];
			int ws;
			pid_t r;
			bool ok;

			if (sl->pid == 0)
				continue;
			r = waitpid(sl->pid, &ws, WNOHANG);
			if (r == 0) {
				if (runner_stop || since(&sl->start) > o->timeout_s) {
					sl->killed = !runner_stop;
					kill(-sl->pid, SIGKILL);
				}
				continue;
			}
			if (r < 0 && errno == EINTR)
				continue;
			running--;
			if (runner_stop) {
				slot_clear(sl);
				continue;
			}
			if (record(o, jobs[sl->job], sl, r < 0 ? 255 << 8 : ws, since(&sl->start),
				   &ok, err) != 0)
				rc = -1;
			else if (ok)
				t->ok++;
			else
				t->failed++;
			slot_clear(sl);
		}
		if (runner_stop && running == 0)
			break;
		if (o->progress && since(&last) >= 0.5) {
			clock_gettime(CLOCK_MONOTONIC, &last);
			progress(t, ntodo, running, &t0);
		}
		nanosleep(&nap, NULL);
	}
	if (rc != 0) { /* the runner failed: take the children down with it */
		for (i = 0; i < o->jobs; i++)
			if (slots[i].pid != 0) {
				kill(-slots[i].pid, SIGKILL);
				waitpid(slots[i].pid, NULL, 0);
				slot_clear(&slots[i]);
			}
	}
	if (o->progress) {
		progress(t, ntodo, 0, &t0);
		fputc('\n', stderr);
	}
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	if (runner_stop && rc == 0) {
		t->interrupted = true;
		rc = sim_err_set(err, NULL, 0, "interrupted by signal %d: %zu points not run; run the "
				 "same command again to go on", (int)runner_stop,
				 n - t->done_before - t->failed_before - t->ok - t->failed);
	}
	if (lockfd >= 0)
		close(lockfd);
	free(slots);
	free(todo);
	return rc;
}
