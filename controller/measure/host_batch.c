#include "measure/host_batch.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/interrupt.h"
#include "common/xalloc.h"

extern char **environ;

#define HOST_PROTOCOL_VERSION 1UL
#define HOST_LINE_MAX (16U * BR_CB_MAX_SAMPLES + 256U)
#define HOST_ARG_BYTES 24U
#define HOST_FIXED_ARGS 8U
#define HOST_START_MS 10000
#define HOST_MS_PER_S 1000.0

/* The program's stdout, line by line, with a deadline. */
typedef struct host_reader {
	int fd;
	char *buf;
	size_t len;
	size_t consumed; /* bytes of the line handed out last */
	bool eof;
	bool ended;     /* "end" was read */
	char last[160]; /* the last line read, for error messages */
} host_reader_t;

/* The next line (NUL-terminated, without '\n') into *line, valid until the
 * next call; BR_ERR_TIMEOUT past deadline, BR_ERR_INFRA at end of output. */
static br_status_t host_line(host_reader_t *r, int64_t deadline, char **line, br_error_t *err)
{
	if (r->consumed > 0) {
		memmove(r->buf, r->buf + r->consumed, r->len - r->consumed);
		r->len -= r->consumed;
		r->consumed = 0;
	}
	for (;;) {
		char *nl = memchr(r->buf, '\n', r->len);
		if (nl != NULL) {
			*nl = '\0';
			r->consumed = (size_t)(nl - r->buf) + 1U;
			*line = r->buf;
			snprintf(r->last, sizeof(r->last), "%.150s", r->buf);
			return BR_OK;
		}
		if (r->eof)
			return br_error_set(err, BR_ERR_INFRA,
			                    "the host bench program ended without finishing (last "
			                    "said: '%s')",
			                    r->last);
		if (r->len + 1U >= HOST_LINE_MAX)
			return br_error_set(
			    err, BR_ERR_PROTOCOL,
			    "the host bench program wrote a line longer than %u bytes",
			    HOST_LINE_MAX);
		struct pollfd p = {.fd = r->fd, .events = POLLIN};
		int ready = poll(&p, 1, br_clock_remaining_ms(deadline));
		if (ready == 0)
			return br_error_set(err, BR_ERR_TIMEOUT,
			                    "the host bench program did not answer in time (last "
			                    "said: '%s')",
			                    r->last);
		if (br_interrupt_signal() != 0)
			return br_interrupt_error(err);
		if (ready < 0 && errno == EINTR)
			continue;
		if (ready < 0)
			return br_error_set(err, BR_ERR_INFRA, "poll: %s", strerror(errno));
		ssize_t n = read(r->fd, r->buf + r->len, HOST_LINE_MAX - 1U - r->len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return br_error_set(err, BR_ERR_INFRA, "reading the host bench program: %s",
			                    strerror(errno));
		r->eof = n == 0;
		r->len += (size_t)n;
	}
}

/* Whether the next line is "end" (then consumed: r->ended); a bench line is
 * left for host_bench. */
static br_status_t host_peek_end(host_reader_t *r, int64_t deadline, br_error_t *err)
{
	char *line = NULL;
	br_status_t st = host_line(r, deadline, &line, err);
	if (st != BR_OK)
		return st;
	if (strcmp(line, "end") == 0) {
		r->ended = true;
		return BR_OK;
	}
	line[strlen(line)] = '\n'; /* put it back */
	r->consumed = 0;
	return BR_OK;
}

/* "WORD v1 v2 ... vn": exactly n whole numbers into out. */
static br_status_t host_row(char *line, const char *word, uint32_t *out, uint32_t n,
                            br_error_t *err)
{
	size_t w = strlen(word);
	char *p = line + w;
	if (strncmp(line, word, w) != 0 || (*p != ' ' && *p != '\0'))
		return br_error_set(err, BR_ERR_PROTOCOL,
		                    "the host bench program said '%.80s' where '%s ...' belongs",
		                    line, word);
	for (uint32_t i = 0; i < n; i++) {
		char *end = NULL;
		errno = 0;
		unsigned long v = strtoul(p, &end, 10);
		if (end == p || errno != 0 || v > UINT32_MAX)
			return br_error_set(
			    err, BR_ERR_PROTOCOL,
			    "the host bench program's %s row has %u numbers, not %u", word, i, n);
		out[i] = (uint32_t)v;
		p = end;
	}
	if (*p != '\0')
		return br_error_set(err, BR_ERR_PROTOCOL,
		                    "the host bench program's %s row has more than %u numbers",
		                    word, n);
	return BR_OK;
}

/* The lines before the benches: version, clock, cpu, perf. */
static br_status_t host_header(host_reader_t *r, int64_t deadline, br_host_info_t *info,
                               br_error_t *err)
{
	char *line = NULL;
	unsigned long version = 0;
	unsigned long long res = 0, getres = 0, step = 0;
	br_status_t st = host_line(r, deadline, &line, err);
	if (st == BR_OK && strncmp(line, "error ", 6) == 0)
		return br_error_set(
		    err, strstr(line, "no bench called") != NULL ? BR_ERR_INPUT : BR_ERR_INFRA,
		    "host bench program: %s", line + 6);
	if (st == BR_OK &&
	    (sscanf(line, "benchrack-host %lu", &version) != 1 || version != HOST_PROTOCOL_VERSION))
		return br_error_set(
		    err, BR_ERR_PROTOCOL,
		    "'%.80s' is not a host bench program of this benchrack (protocol "
		    "%lu): rebuild benchrack",
		    line, HOST_PROTOCOL_VERSION);
	if (st == BR_OK)
		st = host_line(r, deadline, &line, err);
	if (st == BR_OK &&
	    sscanf(line, "clock CLOCK_MONOTONIC_RAW resolution_ns %llu getres_ns %llu step_ns %llu",
	           &res, &getres, &step) != 3)
		return br_error_set(err, BR_ERR_PROTOCOL,
		                    "host bench program: bad clock line '%.80s'", line);
	info->resolution_ns = res;
	info->getres_ns = getres;
	info->step_ns = step;
	if (st == BR_OK)
		st = host_line(r, deadline, &line, err);
	if (st == BR_OK && sscanf(line, "cpu %ld", &info->cpu) != 1)
		return br_error_set(err, BR_ERR_PROTOCOL,
		                    "host bench program: bad cpu line '%.80s'", line);
	if (st == BR_OK)
		st = host_line(r, deadline, &line, err);
	if (st != BR_OK)
		return st;
	info->perf = strcmp(line, "perf on") == 0;
	if (!info->perf && strncmp(line, "perf off ", 9) != 0)
		return br_error_set(err, BR_ERR_PROTOCOL,
		                    "host bench program: bad perf line '%.80s'", line);
	snprintf(info->perf_note, sizeof(info->perf_note), "%s", info->perf ? "" : line + 9);
	return BR_OK;
}

/* One bench's four lines into *res. */
static br_status_t host_bench(host_reader_t *r, int64_t deadline, const char *expected, uint32_t n,
                              br_host_result_t *res, br_error_t *err)
{
	char *line = NULL;
	char name[BR_CB_NAME_BYTES * 2] = "";
	unsigned long count = 0;
	unsigned peak = 0, live = 0, allocs = 0;
	br_status_t st = host_line(r, deadline, &line, err);
	if (st != BR_OK)
		return st;
	if (strncmp(line, "error ", 6) == 0)
		return br_error_set(err, BR_ERR_INFRA, "host bench program: %s", line + 6);
	if (sscanf(line, "bench %47s n %lu heap %u %u %u", name, &count, &peak, &live, &allocs) !=
	        5 ||
	    strlen(name) >= BR_CB_NAME_BYTES || (expected != NULL && strcmp(name, expected) != 0) ||
	    count != n)
		return br_error_set(err, BR_ERR_PROTOCOL,
		                    "host bench program: '%.80s' where bench %s with n %u belongs",
		                    line, expected != NULL ? expected : "(next)", n);
	memset(res, 0, sizeof(*res));
	memcpy(res->name, name, strlen(name) + 1U);
	res->stub.count = n;
	res->stub.stack_bytes = BR_CB_NOT_MEASURED;
	res->stub.heap_peak = peak;
	res->stub.heap_live = live;
	res->stub.heap_allocs = allocs;
	static const char *const rows[] = {"ns", "cycles", "instructions"};
	uint32_t *dest[] = {res->stub.samples, res->cycles, res->instructions};
	for (size_t i = 0; i < 3U && st == BR_OK; i++) {
		st = host_line(r, deadline, &line, err);
		if (st == BR_OK)
			st = host_row(line, rows[i], dest[i], n, err);
	}
	for (uint32_t i = 0; i < n; i++)
		res->saturated = res->saturated || res->stub.samples[i] == UINT32_MAX;
	return st;
}

static pid_t host_spawn(const br_host_options_t *o, int *out_fd, br_error_t *err)
{
	char it[HOST_ARG_BYTES], wu[HOST_ARG_BYTES];
	snprintf(it, sizeof(it), "%u", o->iterations);
	snprintf(wu, sizeof(wu), "%u", o->warmup);
	size_t count = o->bench_count;
	const char **argv = xcalloc(HOST_FIXED_ARGS + count, sizeof(char *));
	size_t a = 0;
	argv[a++] = o->program;
	argv[a++] = "--iterations";
	argv[a++] = it;
	argv[a++] = "--warmup";
	argv[a++] = wu;
	for (size_t i = 0; i < count; i++)
		argv[a++] = o->benches[i];
	int fds[2];
	pid_t pid = -1;
	if (pipe(fds) != 0) {
		free(argv);
		br_error_set(err, BR_ERR_INFRA, "pipe: %s", strerror(errno));
		return -1;
	}
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, fds[1], STDOUT_FILENO);
	posix_spawn_file_actions_addclose(&fa, fds[0]);
	posix_spawn_file_actions_addclose(&fa, fds[1]);
	int rc = posix_spawn(&pid, o->program, &fa, NULL, (char *const *)argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(fds[1]);
	free(argv);
	if (rc != 0) {
		close(fds[0]);
		br_error_set(err, rc == ENOENT ? BR_ERR_INPUT : BR_ERR_INFRA,
		             "cannot start the host bench program %s: %s%s", o->program,
		             strerror(rc),
		             rc == ENOENT ? " (build benchrack: ninja -C BUILD builds it)" : "");
		return -1;
	}
	*out_fd = fds[0];
	return pid;
}

br_status_t br_host_measure(const br_host_options_t *o, br_host_info_t *info, br_error_t *err)
{
	memset(info, 0, sizeof(*info));
	if (o->iterations == 0 || o->iterations > BR_CB_MAX_SAMPLES)
		return br_error_set(err, BR_ERR_USAGE, "iterations must be 1 to %u, not %u",
		                    BR_CB_MAX_SAMPLES, o->iterations);
	int fd = -1;
	pid_t pid = host_spawn(o, &fd, err);
	if (pid < 0)
		return err->status;
	host_reader_t r = {.fd = fd, .buf = xcalloc(HOST_LINE_MAX, 1)};
	br_host_result_t *res = xcalloc(1, sizeof(*res));
	br_status_t st = host_header(&r, br_clock_ms() + HOST_START_MS, info, err);
	if (st == BR_OK && o->started != NULL)
		o->started(o->ctx, info);
	char *line = NULL;
	for (size_t i = 0; st == BR_OK; i++) {
		const char *name = o->benches != NULL && i < o->bench_count ? o->benches[i] : NULL;
		if (o->benches != NULL && name == NULL)
			break;
		if (o->progress != NULL && name != NULL)
			o->progress(o->ctx, (unsigned)i, (unsigned)o->bench_count, name);
		int64_t start = br_clock_ms();
		if (name == NULL) {
			/* every bench the program has, up to its "end" */
			st = host_peek_end(&r, start + o->timeout_ms, err);
			if (st == BR_OK && r.ended)
				break;
		}
		if (st == BR_OK)
			st = host_bench(&r, start + o->timeout_ms, name, o->iterations, res, err);
		res->stub.host_seconds = (double)(br_clock_ms() - start) / HOST_MS_PER_S;
		res->perf = info->perf;
		if (st == BR_OK && o->bench_done != NULL)
			o->bench_done(o->ctx, res->name, res);
	}
	if (st == BR_OK && !r.ended)
		st = host_line(&r, br_clock_ms() + HOST_START_MS, &line, err);
	if (st == BR_OK && !r.ended && strcmp(line, "end") != 0)
		st = br_error_set(err, BR_ERR_PROTOCOL,
		                  "host bench program: '%.80s' where 'end' belongs", line);
	if (st != BR_OK)
		kill(pid, SIGKILL);
	close(fd);
	int status = 0;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (st == BR_OK && !(WIFEXITED(status) && WEXITSTATUS(status) == 0))
		st =
		    br_error_set(err, BR_ERR_INFRA, "the host bench program %s (last said: '%s')",
		                 WIFSIGNALED(status) ? "was killed by a signal" : "failed", r.last);
	free(res);
	free(r.buf);
	return st;
}
