#include "common/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void xalloc_die(size_t size)
{
	fprintf(stderr, "benchrack: out of memory allocating %zu bytes\n", size);
	abort();
}

void *xmalloc(size_t size)
{
	void *p = malloc(size == 0 ? 1 : size);
	if (p == NULL)
		xalloc_die(size);
	return p;
}

void *xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb == 0 ? 1 : nmemb, size == 0 ? 1 : size);
	if (p == NULL)
		xalloc_die(nmemb * size);
	return p;
}

void *xrealloc(void *ptr, size_t size)
{
	void *p = realloc(ptr, size == 0 ? 1 : size);
	if (p == NULL)
		xalloc_die(size);
	return p;
}

char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = xmalloc(n);
	memcpy(p, s, n);
	return p;
}
