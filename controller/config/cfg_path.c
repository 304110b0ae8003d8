#include "config/cfg_path.h"

#include <stdio.h>
#include <string.h>

#include "common/xalloc.h"

char *br_cfg_path_resolve(const char *dir, const char *path)
{
	if (path[0] == '/' || dir[0] == '\0')
		return xstrdup(path);
	size_t n = strlen(dir) + strlen(path) + 2U;
	char *out = xmalloc(n);
	snprintf(out, n, "%s/%s", dir, path);
	return out;
}

char *br_cfg_path_dirname(const char *path)
{
	const char *slash = strrchr(path, '/');
	if (slash == NULL)
		return xstrdup("");
	if (slash == path)
		return xstrdup("/");
	size_t n = (size_t)(slash - path);
	char *out = xmalloc(n + 1U);
	memcpy(out, path, n);
	out[n] = '\0';
	return out;
}
