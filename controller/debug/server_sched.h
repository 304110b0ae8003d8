/*
 * Whether the host ran a launched server (QEMU) while benchrack waited for
 * it: the kernel's scheduler figures of each of the server's threads
 * (/proc/PID/task/TID/schedstat: time on a CPU, time runnable but waiting
 * for one) against CLOCK_MONOTONIC. A board that "did not finish" while its
 * emulator waited for a CPU most of the time says nothing about the
 * firmware: the host was overloaded (issue 31, NU1).
 */
#ifndef BENCHRACK_DEBUG_SERVER_SCHED_H
#define BENCHRACK_DEBUG_SERVER_SCHED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "debug/server.h"

/* A wait during which the server waited for a CPU this share of the time or
 * more counts as starved. */
#define BR_SERVER_STARVED_SHARE 0.5

#define BR_SERVER_SCHED_THREADS 32U

typedef struct br_server_sched_thread {
	int tid;
	uint64_t run_ns;  /* on a CPU */
	uint64_t wait_ns; /* runnable, waiting for a CPU */
} br_server_sched_thread_t;

typedef struct br_server_sched {
	bool known;    /* the figures were read (a launched server on Linux) */
	int64_t at_ns; /* CLOCK_MONOTONIC when they were */
	size_t count;
	br_server_sched_thread_t threads[BR_SERVER_SCHED_THREADS];
} br_server_sched_t;

/* Reads the figures of server's threads now; known is false when nothing
 * was launched or /proc cannot tell. */
void br_server_sched_read(const br_server_t *server, br_server_sched_t *out);

/*
 * True when, between from and to (both known), the server's threads
 * together waited for a CPU BR_SERVER_STARVED_SHARE of the wall time or more
 * (their sum, at most the wall time: QEMU's threads take its big lock in
 * turn, so while one waits for a CPU the others sleep on the lock, and no
 * single thread's wait shows the whole of it); then buf holds
 * "NAME waited for a CPU 4.2 s of the 5.0 s (84 %) and ran 0.3 s". False
 * otherwise (buf untouched).
 */
bool br_server_sched_starved(const br_server_t *server, const br_server_sched_t *from,
                             const br_server_sched_t *to, char *buf, size_t cap);

#endif
