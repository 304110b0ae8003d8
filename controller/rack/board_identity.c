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

bool br_board_identity(const br_endpoint_t *ep, char *out, size_t cap)
{
	if (cap == 0)
		return false;
	out[0] = '\0';
	switch (ep->kind) {
	case BR_ENDPOINT_OPENOCD:
		if (ep->openocd.serial != NULL && ep->openocd.serial[0] != '\0')
			snprintf(out, cap, "probe-%s", ep->openocd.serial);
		else
			snprintf(out, cap, "probe-first-%s",
			         ep->openocd.interface_cfg != NULL
			             ? base_name(ep->openocd.interface_cfg)
			             : "default");
		break;
	case BR_ENDPOINT_REMOTE:
		snprintf(out, cap, "remote-%s-%u", ep->host != NULL ? ep->host : "", ep->port);
		break;
	case BR_ENDPOINT_SERIAL:
		snprintf(out, cap, "device-%s", ep->device != NULL ? ep->device : "");
		break;
	case BR_ENDPOINT_QEMU:
		return false;
	}
	sanitize(out);
	return out[0] != '\0';
}
