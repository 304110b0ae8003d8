#define _GNU_SOURCE /* F_SETPIPE_SZ */
#include "profile/exec_run.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/clock.h"
#include "elf/elf_symbols.h"
#include "profile/thumb_frame.h"

#define EXEC_FIFO_TEMPLATE "/tmp/benchrack-exec-XXXXXX"
#define EXEC_PIPE_BYTES (1 << 20) /* room for what runs before the reading starts */
#define EXEC_READ_BYTES 65536
#define EXEC_POLL_MS 100
#define EXEC_PROGRESS_NS 500000000LL
#define NS_PER_MS 1000000LL

br_status_t br_exec_fifo_open(br_exec_fifo_t *f, br_error_t *err)
{
	memset(f, 0, sizeof(*f));
	f->fd = -1;
	snprintf(f->dir, sizeof(f->dir), "%s", EXEC_FIFO_TEMPLATE);
	if (mkdtemp(f->dir) == NULL) {
		f->dir[0] = '\0';
		return br_error_set(err, BR_ERR_INFRA,
		                    "cannot create a directory for QEMU's execution log: %s",
		                    strerror(errno));
	}
	snprintf(f->path, sizeof(f->path), "%s/exec.log", f->dir);
	if (mkfifo(f->path, 0600) != 0)
		return br_error_set(err, BR_ERR_INFRA, "cannot make the FIFO %s: %s", f->path,
		                    strerror(errno));
	/* Read-write: the open never waits for QEMU, and QEMU's never for us. */
	f->fd = open(f->path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (f->fd < 0)
		return br_error_set(err, BR_ERR_INFRA, "cannot open the FIFO %s: %s", f->path,
		                    strerror(errno));
	(void)fcntl(f->fd, F_SETPIPE_SZ, EXEC_PIPE_BYTES);
	f->args[0] = "-singlestep";
	f->args[1] = "-d";
	f->args[2] = "exec,nochain,int";
	f->args[3] = "-D";
	f->args[4] = f->path;
	return BR_OK;
}

void br_exec_fifo_close(br_exec_fifo_t *f)
{
	if (f->fd >= 0)
		close(f->fd);
	f->fd = -1;
	if (f->path[0] != '\0')
		unlink(f->path);
	if (f->dir[0] != '\0')
		rmdir(f->dir);
	f->path[0] = f->dir[0] = '\0';
}

typedef struct drain {
	int fd;
	atomic_bool stop;
} drain_t;

/* Reads the log and drops it: while the core is being halted, QEMU's vCPU
 * may be writing a line, and a full FIFO would keep it from ever stopping. */
static void *drain_run(void *arg)
{
	drain_t *d = arg;
	static char sink[EXEC_READ_BYTES];
	while (!atomic_load(&d->stop)) {
		struct pollfd p = {.fd = d->fd, .events = POLLIN};
		if (poll(&p, 1, EXEC_POLL_MS) > 0 && read(d->fd, sink, sizeof(sink)) < 0 &&
		    errno != EAGAIN && errno != EINTR)
			break;
	}
	return NULL;
}

/* Halts t with the log drained meanwhile. */
static br_status_t halt_draining(br_target_t *t, int fd, int timeout_ms, br_error_t *err)
{
	drain_t d = {.fd = fd};
	atomic_init(&d.stop, false);
	pthread_t th;
	bool started = pthread_create(&th, NULL, drain_run, &d) == 0;
	br_status_t st = br_target_halt(t, timeout_ms, err);
	atomic_store(&d.stop, true);
	if (started)
		pthread_join(th, NULL);
	return st;
}

/* The log went silent in exact mode: the core asleep in WFI/WFE (the last
 * line's instruction), which QEMU does not log, or something else. */
static br_status_t silent(const br_exec_log_t *x, const br_exec_run_options_t *o, br_error_t *err)
{
	const char *when = x->inside ? "before the region ended" : "before the region started";
	if (!x->have_pending || !br_thumb_is_sleep(o->log.elf, x->pending))
		return br_error_set(err, BR_ERR_TIMEOUT,
		                    "QEMU's execution log was silent for %d ms %s", o->timeout_ms,
		                    when);
	char where[160];
	br_elf_symbol_describe(o->log.elf, x->pending, where, sizeof(where));
	return br_error_set(err, BR_ERR_TIMEOUT,
	                    "the core went to sleep (WFI/WFE at %s) %s, after %llu instructions "
	                    "of it, and nothing woke it for %d ms: QEMU logs no instruction "
	                    "while the core sleeps, so the region cannot be counted to its end; "
	                    "enable the interrupt that wakes it, end the region before the "
	                    "sleep, or raise --timeout if the wake-up is that far away",
	                    where, when, (unsigned long long)x->pass_count, o->timeout_ms);
}

br_status_t br_exec_run(br_target_t *t, br_exec_fifo_t *f, const br_exec_run_options_t *o,
                        br_profile_t *out, br_error_t *err)
{
	bool exact = o->log.sample_every == 0;
	br_exec_log_t x;
	br_exec_log_init(&x, &o->log, out);
	static char buf[EXEC_READ_BYTES];
	br_status_t st = br_target_resume(t, err);
	int64_t start = br_clock_ns();
	int64_t end = start + (int64_t)(o->duration_s * 1e9);
	int64_t heard = start, shown = start;
	while (st == BR_OK) {
		int64_t now = br_clock_ns();
		if (!exact && now >= end) {
			/* Whole passes only (exec_log.h), for one more duration at most:
			 * past it, a pass that goes on is sampled as far as it ran. */
			if (!x.inside || o->log.span == NULL || now >= end + (end - start))
				break;
			x.finish_pass = true;
		}
		if (exact && now - heard > (int64_t)o->timeout_ms * NS_PER_MS) {
			st = silent(&x, o, err);
			break;
		}
		if (o->progress != NULL && now - shown > EXEC_PROGRESS_NS) {
			o->progress(o->progress_ctx, exact ? x.pass_count : out->counted,
			            x.instructions);
			shown = now;
		}
		struct pollfd p = {.fd = f->fd, .events = POLLIN};
		int r = poll(&p, 1, EXEC_POLL_MS);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			continue;
		ssize_t n = read(f->fd, buf, sizeof(buf));
		if (n <= 0)
			continue;
		heard = br_clock_ns();
		if (br_exec_log_feed(&x, buf, (size_t)n))
			break;
	}
	out->seconds = (double)(br_clock_ns() - start) / 1e9;
	br_status_t hst = halt_draining(t, f->fd, o->timeout_ms, err);
	if (st == BR_OK)
		st = hst;
	if (st == BR_OK && exact && x.length_unknown)
		st = br_error_set(err, BR_ERR_USAGE,
		                  "the region runs more than %llu instructions (QEMU's execution "
		                  "log: --max-steps and %u more, and it had not ended): raise "
		                  "--max-steps, or check that the region ends",
		                  (unsigned long long)o->log.max_steps, BR_EXEC_LOG_LENGTH_MORE);
	else if (st == BR_OK && exact && x.over)
		st = br_error_set(err, BR_ERR_USAGE,
		                  "the region runs %llu instructions (QEMU's execution log), more "
		                  "than --max-steps %llu: raise --max-steps",
		                  (unsigned long long)x.pass_count,
		                  (unsigned long long)o->log.max_steps);
	if (st == BR_OK && !exact && o->log.span != NULL && !x.inside && out->region_passes == 0 &&
	    out->counted == 0)
		st = br_error_set(err, BR_ERR_TARGET,
		                  "the region never started in %.1f s (QEMU's execution log): "
		                  "does the firmware reach it?",
		                  o->duration_s);
	br_exec_log_free(&x);
	return st;
}
