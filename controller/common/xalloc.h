/*
 * Allocation for a command-line tool: out of memory aborts in this one place
 * (tmux's xmalloc habit) instead of being checked at every call site.
 */
#ifndef BENCHRACK_COMMON_XALLOC_H
#define BENCHRACK_COMMON_XALLOC_H

#include <stddef.h>

/* malloc that never returns NULL (aborts with a message on exhaustion). */
void *xmalloc(size_t size);
/* calloc that never returns NULL; checks nmemb * size for overflow. */
void *xcalloc(size_t nmemb, size_t size);
/* realloc that never returns NULL. */
void *xrealloc(void *ptr, size_t size);
/* strdup that never returns NULL. */
char *xstrdup(const char *s);

#endif
