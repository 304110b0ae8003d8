#include "rack/rack_pool.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/xalloc.h"

#define POOL_MS_PER_S 1000
#define POOL_NS_PER_MS 1000000
#define POOL_DEFAULT_TICK_MS 200
#define POOL_EXIT_INTERNAL 125

typedef enum job_state { JOB_WAITING, JOB_RUNNING, JOB_DONE } job_state_t;

typedef struct job {
	job_state_t state;
	pid_t pid;
	int fd; /* read end, -1 once at EOF */
	int64_t started_ms;
	bool killed;
	char buf[BR_RACK_POOL_LINE_BYTES];
	size_t len;
} job_t;

/* Set by SIGINT/SIGTERM while the pool runs: the workers live in process
 * groups of their own, so the terminal's Ctrl-C reaches only the parent,
 * which passes it on. */
static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	interrupted = sig;
}

static int64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * POOL_MS_PER_S + ts.tv_nsec / POOL_NS_PER_MS;
}

void br_rack_pool_emit(int fd, const char *fmt, ...)
{
	char line[BR_RACK_POOL_LINE_BYTES];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(line, sizeof(line) - 1U, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	size_t len = (size_t)n < sizeof(line) - 2U ? (size_t)n : sizeof(line) - 2U;
	for (size_t i = 0; i < len; i++) {
		if (line[i] == '\n')
			line[i] = ' ';
	}
	line[len++] = '\n';
	/* one write of at most PIPE_BUF bytes is atomic; the rest is looped */
	size_t off = 0;
	while (off < len) {
		ssize_t w = write(fd, line + off, len - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		off += (size_t)w;
	}
}

static br_status_t start(const br_rack_pool_t *pool, size_t i, job_t *j, br_error_t *err)
{
	int fds[2];
	if (pipe(fds) != 0)
		return br_error_set(err, BR_ERR_INFRA, "pipe: %s", strerror(errno));
	/* neither end may leak into another worker or a server it launches */
	fcntl(fds[0], F_SETFD, FD_CLOEXEC);
	fcntl(fds[1], F_SETFD, FD_CLOEXEC);
	fflush(NULL);
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return br_error_set(err, BR_ERR_INFRA, "fork: %s", strerror(errno));
	}
	if (pid == 0) {
		/* A worker never outlives its rack, however the rack ends (even
		 * SIGKILL): the kernel kills it, and its server goes with it
		 * (debug/server.c sets the same for each server). */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(POOL_EXIT_INTERNAL);
		setpgid(0, 0);
		close(fds[0]);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGPIPE, SIG_IGN);
		int code = pool->job(pool->job_ctx, i, fds[1]);
		fflush(NULL);
		_exit(code >= 0 && code < POOL_EXIT_INTERNAL ? code : POOL_EXIT_INTERNAL);
	}
	setpgid(pid, pid); /* both sides: no race with the first kill */
	close(fds[1]);
	j->state = JOB_RUNNING;
	j->pid = pid;
	j->fd = fds[0];
	j->started_ms = now_ms();
	return BR_OK;
}

static void drain(const br_rack_pool_t *pool, size_t i, job_t *j)
{
	char chunk[512];
	ssize_t n = read(j->fd, chunk, sizeof(chunk));
	if (n < 0 && errno == EINTR)
		return;
	if (n <= 0) {
		close(j->fd);
		j->fd = -1;
		return;
	}
	for (ssize_t k = 0; k < n; k++) {
		if (chunk[k] == '\n' || j->len == sizeof(j->buf) - 1U) {
			j->buf[j->len] = '\0';
			pool->line(pool->ctx, i, j->buf);
			j->len = 0;
			if (chunk[k] == '\n')
				continue;
		}
		j->buf[j->len++] = chunk[k];
	}
}

static void reap(const br_rack_pool_t *pool, size_t i, job_t *j)
{
	int status = 0;
	while (waitpid(j->pid, &status, 0) < 0 && errno == EINTR)
		;
	/* whatever the worker's own children left behind goes too */
	kill(-j->pid, SIGKILL);
	if (j->len > 0) {
		j->buf[j->len] = '\0';
		pool->line(pool->ctx, i, j->buf);
		j->len = 0;
	}
	j->state = JOB_DONE;
	int code = WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
	pool->done(pool->ctx, i, code);
}

br_status_t br_rack_pool_run(const br_rack_pool_t *pool, br_error_t *err)
{
	job_t *jobs = xcalloc(pool->count == 0 ? 1U : pool->count, sizeof(*jobs));
	struct pollfd *pfds = xcalloc(pool->count == 0 ? 1U : pool->count, sizeof(*pfds));
	size_t *which = xcalloc(pool->count == 0 ? 1U : pool->count, sizeof(*which));
	unsigned limit = pool->heavy_limit > 0 ? pool->heavy_limit : 1U;
	int tick = pool->tick_ms > 0 ? pool->tick_ms : POOL_DEFAULT_TICK_MS;
	br_status_t st = BR_OK;
	size_t done = 0;
	struct sigaction sa, old_int, old_term;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	interrupted = 0;
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	bool passed_on = false;
	while (done < pool->count) {
		if (interrupted != 0 && !passed_on) {
			/* start nothing more; stop what runs (its servers with it) */
			passed_on = true;
			for (size_t i = 0; i < pool->count; i++) {
				if (jobs[i].state == JOB_RUNNING)
					kill(-jobs[i].pid, SIGTERM);
				else if (jobs[i].state == JOB_WAITING) {
					jobs[i].state = JOB_DONE;
					done++;
					pool->done(pool->ctx, i, -(int)interrupted);
				}
			}
			st = br_error_set(err, BR_ERR_INFRA, "interrupted by signal %d",
			                  (int)interrupted);
		}
		unsigned heavy_running = 0;
		for (size_t i = 0; i < pool->count; i++)
			heavy_running += jobs[i].state == JOB_RUNNING && pool->heavy[i];
		for (size_t i = 0; i < pool->count && st == BR_OK; i++) {
			if (jobs[i].state != JOB_WAITING)
				continue;
			if (pool->heavy[i] && heavy_running >= limit)
				continue;
			st = start(pool, i, &jobs[i], err);
			if (st == BR_OK)
				heavy_running += pool->heavy[i];
		}
		if (st != BR_OK && !passed_on) {
			/* start nothing more: the waiting jobs end as not started */
			for (size_t i = 0; i < pool->count; i++) {
				if (jobs[i].state == JOB_WAITING) {
					jobs[i].state = JOB_DONE;
					done++;
					pool->done(pool->ctx, i, POOL_EXIT_INTERNAL);
				}
			}
		}
		size_t n = 0;
		for (size_t i = 0; i < pool->count; i++) {
			if (jobs[i].state == JOB_RUNNING && jobs[i].fd >= 0) {
				pfds[n].fd = jobs[i].fd;
				pfds[n].events = POLLIN;
				pfds[n].revents = 0;
				which[n++] = i;
			}
		}
		int r = poll(pfds, n, tick);
		for (size_t k = 0; r > 0 && k < n; k++) {
			if (pfds[k].revents != 0)
				drain(pool, which[k], &jobs[which[k]]);
		}
		int64_t t = now_ms();
		for (size_t i = 0; i < pool->count; i++) {
			job_t *j = &jobs[i];
			if (j->state != JOB_RUNNING)
				continue;
			if (j->fd < 0) {
				reap(pool, i, j);
				done++;
				continue;
			}
			if (pool->job_timeout_ms > 0 && !j->killed &&
			    t - j->started_ms > pool->job_timeout_ms) {
				kill(-j->pid, SIGKILL);
				j->killed = true;
			}
		}
		if (pool->tick != NULL)
			pool->tick(pool->ctx);
	}
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	free(jobs);
	free(pfds);
	free(which);
	return st;
}
