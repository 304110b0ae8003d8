#include "rack/rack_lock.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define LOCK_POLL_NS 20000000L /* 20 ms between tries while waiting */
#define LOCK_RECORD_BYTES 256U
#define LOCK_MS_PER_S 1000
#define LOCK_NS_PER_MS 1000000

int64_t br_rack_lock_now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * LOCK_MS_PER_S + ts.tv_nsec / LOCK_NS_PER_MS;
}

static int64_t monotonic_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * LOCK_MS_PER_S + ts.tv_nsec / LOCK_NS_PER_MS;
}

/* "pid host started_ms" from fd (read from its start); false when empty or malformed. */
static bool read_owner(int fd, br_rack_lock_owner_t *o)
{
	char buf[LOCK_RECORD_BYTES];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1U, 0);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	memset(o, 0, sizeof(*o));
	char host[BR_RACK_LOCK_HOST_BYTES];
	long pid = 0;
	int64_t started = 0;
	if (sscanf(buf, "%ld %127s %" SCNd64, &pid, host, &started) != 3)
		return false;
	o->pid = pid;
	snprintf(o->host, sizeof(o->host), "%s", host);
	o->started_ms = started;
	return true;
}

static void history_append(const br_rack_lock_t *lock, const char *what, int64_t ms)
{
	int fd = open(lock->history_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	char line[LOCK_RECORD_BYTES];
	int n = snprintf(line, sizeof(line), "%s %ld %s %" PRId64 "\n", what, lock->self.pid,
	                 lock->self.host, ms);
	if (n > 0 && write(fd, line, (size_t)n) < 0)
		n = 0;
	close(fd);
}

static void describe_owner(const br_rack_lock_owner_t *o, char *buf, size_t cap)
{
	time_t t = (time_t)(o->started_ms / LOCK_MS_PER_S);
	struct tm tm;
	gmtime_r(&t, &tm);
	char when[32];
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	snprintf(buf, cap, "pid %ld on %s since %s", o->pid, o->host, when);
}

br_status_t br_rack_lock_acquire(const char *dir, const char *board, int wait_ms,
                                 br_rack_lock_t *lock, br_rack_lock_owner_t *holder,
                                 br_error_t *err)
{
	memset(lock, 0, sizeof(*lock));
	lock->fd = -1;
	if (mkdir(dir, 0777) != 0 && errno != EEXIST)
		return br_error_set(err, BR_ERR_INFRA, "lock directory %s: %s", dir,
		                    strerror(errno));
	snprintf(lock->path, sizeof(lock->path), "%s/%s.lock", dir, board);
	snprintf(lock->history_path, sizeof(lock->history_path), "%s/%s.history", dir, board);
	int fd = open(lock->path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
	if (fd < 0)
		return br_error_set(err, BR_ERR_INFRA, "lock %s: %s", lock->path, strerror(errno));
	int64_t deadline = monotonic_ms() + (wait_ms > 0 ? wait_ms : 0);
	for (;;) {
		if (flock(fd, LOCK_EX | LOCK_NB) == 0)
			break;
		if (errno != EWOULDBLOCK && errno != EINTR) {
			int e = errno;
			close(fd);
			return br_error_set(err, BR_ERR_INFRA, "lock %s: %s", lock->path,
			                    strerror(e));
		}
		if (monotonic_ms() >= deadline) {
			br_rack_lock_owner_t o;
			char who[256] = "another owner";
			if (read_owner(fd, &o)) {
				describe_owner(&o, who, sizeof(who));
				if (holder != NULL)
					*holder = o;
			}
			close(fd);
			return br_error_set(err, BR_ERR_INFRA, "board %s is in use by %s (lock %s)",
			                    board, who, lock->path);
		}
		struct timespec nap = {0, LOCK_POLL_NS};
		nanosleep(&nap, NULL);
	}
	/* Held. A record still in the file is a dead owner's: its flock went with it. */
	lock->took_over = read_owner(fd, &lock->stale);
	lock->self.pid = (long)getpid();
	if (gethostname(lock->self.host, sizeof(lock->self.host)) != 0)
		snprintf(lock->self.host, sizeof(lock->self.host), "unknown");
	lock->self.host[sizeof(lock->self.host) - 1U] = '\0';
	lock->self.started_ms = br_rack_lock_now_ms();
	char rec[LOCK_RECORD_BYTES];
	int n = snprintf(rec, sizeof(rec), "%ld %s %" PRId64 "\n", lock->self.pid, lock->self.host,
	                 lock->self.started_ms);
	if (ftruncate(fd, 0) != 0 || n <= 0 || pwrite(fd, rec, (size_t)n, 0) != (ssize_t)n) {
		int e = errno;
		close(fd);
		return br_error_set(err, BR_ERR_INFRA, "lock %s: cannot write the owner: %s",
		                    lock->path, strerror(e));
	}
	lock->fd = fd;
	history_append(lock, "acquired", lock->self.started_ms);
	return BR_OK;
}

void br_rack_lock_release(br_rack_lock_t *lock)
{
	if (lock->fd < 0)
		return;
	lock->released_ms = br_rack_lock_now_ms();
	history_append(lock, "released", lock->released_ms);
	if (ftruncate(lock->fd, 0) != 0)
		lock->released_ms = br_rack_lock_now_ms();
	close(lock->fd);
	lock->fd = -1;
}
