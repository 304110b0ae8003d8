#include "debug/server_sched.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/clock.h"

#define SCHED_PATH_BYTES 64U
#define SCHED_LINE_BYTES 96U
#define SCHED_NS_PER_S 1e9

/* Reads one thread's schedstat ("run_ns wait_ns slices") into *out. */
static bool read_thread(int pid, const char *tid, br_server_sched_thread_t *out)
{
	char path[SCHED_PATH_BYTES];
	snprintf(path, sizeof(path), "/proc/%d/task/%.16s/schedstat", pid, tid);
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return false;
	char line[SCHED_LINE_BYTES];
	ssize_t n = read(fd, line, sizeof(line) - 1U);
	close(fd);
	if (n <= 0)
		return false;
	line[n] = '\0';
	char *end = NULL;
	unsigned long long run = strtoull(line, &end, 10);
	if (end == line)
		return false;
	char *rest = end;
	unsigned long long wait = strtoull(rest, &end, 10);
	if (end == rest)
		return false;
	out->tid = atoi(tid);
	out->run_ns = run;
	out->wait_ns = wait;
	return true;
}

void br_server_sched_read(const br_server_t *server, br_server_sched_t *out)
{
	memset(out, 0, sizeof(*out));
	if (server->pid <= 0 || server->exited)
		return;
	char path[SCHED_PATH_BYTES];
	snprintf(path, sizeof(path), "/proc/%d/task", (int)server->pid);
	DIR *d = opendir(path);
	if (d == NULL)
		return;
	for (struct dirent *e = readdir(d); e != NULL && out->count < BR_SERVER_SCHED_THREADS;
	     e = readdir(d)) {
		if (e->d_name[0] != '.' &&
		    read_thread((int)server->pid, e->d_name, &out->threads[out->count]))
			out->count++;
	}
	closedir(d);
	out->known = out->count > 0;
	out->at_ns = br_clock_ns();
}

bool br_server_sched_starved(const br_server_t *server, const br_server_sched_t *from,
                             const br_server_sched_t *to, char *buf, size_t cap)
{
	if (!from->known || !to->known || to->at_ns <= from->at_ns)
		return false;
	uint64_t wait_ns = 0, run_ns = 0;
	for (size_t i = 0; i < to->count; i++) {
		const br_server_sched_thread_t *b = &to->threads[i];
		for (size_t j = 0; j < from->count; j++) {
			const br_server_sched_thread_t *a = &from->threads[j];
			if (a->tid != b->tid || b->wait_ns < a->wait_ns || b->run_ns < a->run_ns)
				continue;
			wait_ns += b->wait_ns - a->wait_ns;
			run_ns += b->run_ns - a->run_ns;
		}
	}
	uint64_t wall_ns = (uint64_t)(to->at_ns - from->at_ns);
	if (wait_ns > wall_ns)
		wait_ns = wall_ns; /* two threads waiting at once: the wall is the most */
	double wall = (double)wall_ns / SCHED_NS_PER_S;
	double wait = (double)wait_ns / SCHED_NS_PER_S;
	double run = (double)run_ns / SCHED_NS_PER_S;
	if (wait < BR_SERVER_STARVED_SHARE * wall)
		return false;
	snprintf(buf, cap, "%s waited for a CPU %.2g s of the %.2g s (%.0f %%) and ran %.2g s",
	         server->name, wait, wall, 100.0 * wait / wall, run);
	return true;
}
