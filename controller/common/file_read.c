#include "common/file_read.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/xalloc.h"

br_status_t br_file_read_all(const char *path, size_t max_bytes, unsigned char **data,
			     size_t *size, br_error_t *err)
{
	*data = NULL;
	*size = 0;
	FILE *f = fopen(path, "rb");
	if (f == NULL)
		return br_error_set(err, BR_ERR_INPUT, "%s: cannot read: %s", path,
				    strerror(errno));
	struct stat sb;
	if (fstat(fileno(f), &sb) != 0 || !S_ISREG(sb.st_mode)) {
		fclose(f);
		return br_error_set(err, BR_ERR_INPUT, "%s: not a regular file", path);
	}
	if ((unsigned long long)sb.st_size > max_bytes) {
		fclose(f);
		return br_error_set(err, BR_ERR_INPUT, "%s: too large (%lld bytes; at most %zu)",
				    path, (long long)sb.st_size, max_bytes);
	}
	size_t n = (size_t)sb.st_size;
	unsigned char *buf = xmalloc(n + 1U);
	size_t got = fread(buf, 1, n, f);
	int bad = ferror(f);
	fclose(f);
	if (bad || got != n) {
		free(buf);
		return br_error_set(err, BR_ERR_INPUT, "%s: read failed", path);
	}
	buf[n] = '\0';
	*data = buf;
	*size = n;
	return BR_OK;
}
