/* What the benchmarks' C peers share: exit on an error, a sort order, the
 * attach to a QEMU gdbstub. */
#ifndef BENCHRACK_TESTS_BENCH_COMMON_H
#define BENCHRACK_TESTS_BENCH_COMMON_H

#include <stdio.h>
#include <stdlib.h>

#include "common/error.h"
#include "debug/endpoint.h"

/* Exits 2 with what failed and why, unless st is BR_OK. */
static inline void must(br_status_t st, const br_error_t *err, const char *what)
{
	if (st != BR_OK) {
		fprintf(stderr, "%s: %s\n", what, err->message);
		exit(2);
	}
}

/* qsort's order of doubles. */
static inline int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Opens s on the QEMU gdbstub at host:port (a remote endpoint, flavour
 * qemu), or exits 2 saying why. */
static inline void bench_attach_qemu(const char *host, const char *port, br_session_t *s)
{
	br_endpoint_t ep;
	br_endpoint_init(&ep);
	ep.kind = BR_SERVER_KIND_REMOTE;
	ep.flavour = "qemu";
	ep.host = host;
	ep.port = (uint16_t)strtoul(port, NULL, 10);
	br_error_t err;
	must(br_session_open(&ep, s, &err), &err, "attaching to QEMU");
}

#endif
