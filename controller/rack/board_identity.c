#include "rack/board_identity.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* Keeps a lock name a plain file name. */
static void sanitize(char *s)
{
	for (; *s != '\0'; s++) {
		unsigned char c = (unsigned char)*s;
		if (!isalnum(c) && c != '.' && c != '_' && c != '-')
			*s = '_';
	}
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash != NULL ? slash + 1 : path;
}

/* A launched server's probe: the key that names it, else the first probe of
 * the key that says which kind of probe ("default" when none does). */
static void launched_identity(const br_endpoint_t *ep, char *out, size_t cap)
{
	const br_server_kind_t *kind = br_endpoint_kind(ep);
	const char *first = "default";
	for (size_t i = 0; i < BR_SERVER_LAUNCH_PARAMS; i++) {
		const char *value = ep->launch.params[i];
		if (kind->keys[i].name == NULL || value == NULL)
			continue;
		if (kind->keys[i].identity == BR_SERVER_KEY_PROBE && value[0] != '\0') {
			snprintf(out, cap, "probe-%s", value);
			return;
		}
		if (kind->keys[i].identity == BR_SERVER_KEY_FIRST_PROBE)
			first = base_name(value);
	}
	snprintf(out, cap, "probe-first-%s", first);
}

bool br_board_identity(const br_endpoint_t *ep, char *out, size_t cap)
{
	if (cap == 0)
		return false;
	out[0] = '\0';
	const br_server_kind_t *kind = br_endpoint_kind(ep);
	switch (kind->reach) {
	case BR_SERVER_REACH_LAUNCH:
		if (kind->emulated)
			return false;
		launched_identity(ep, out, cap);
		break;
	case BR_SERVER_REACH_TCP:
		snprintf(out, cap, "remote-%s-%u", ep->host != NULL ? ep->host : "", ep->port);
		break;
	case BR_SERVER_REACH_SERIAL:
		snprintf(out, cap, "device-%s", ep->device != NULL ? ep->device : "");
		break;
	}
	sanitize(out);
	return out[0] != '\0';
}
