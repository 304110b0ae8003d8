#include "common/file_read.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/xalloc.h"

/* What a file that is not a regular one is, for the refusal. */
static const char *file_kind(mode_t mode)
{
	if (S_ISFIFO(mode))
		return "a FIFO";
	if (S_ISCHR(mode) || S_ISBLK(mode))
		return "a device";
	if (S_ISDIR(mode))
		return "a directory";
	if (S_ISSOCK(mode))
		return "a socket";
	return "not a regular file";
}

int br_file_open_regular(const char *path, bool nofollow, br_error_t *err)
{
	int flags = O_RDONLY | O_NONBLOCK | O_CLOEXEC | (nofollow ? O_NOFOLLOW : 0);
	int fd = open(path, flags);
	if (fd < 0 && nofollow && errno == ELOOP) {
		br_error_set(err, BR_ERR_INPUT,
		             "%s: a symbolic link: refused, not followed (benchrack reads only "
		             "regular files here)",
		             path);
		return -1;
	}
	if (fd < 0) {
		br_error_set(err, BR_ERR_INPUT, "%s: cannot read: %s", path, strerror(errno));
		return -1;
	}
	struct stat sb;
	if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
		const char *kind =
		    fstat(fd, &sb) == 0 ? file_kind(sb.st_mode) : "not a regular file";
		close(fd);
		br_error_set(err, BR_ERR_INPUT, "%s: %s, not a regular file: refused unread", path,
		             kind);
		return -1;
	}
	/* A regular file never blocks; later reads need no O_NONBLOCK. */
	int fl = fcntl(fd, F_GETFL);
	if (fl >= 0)
		(void)fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	return fd;
}

static br_status_t read_fd(const char *path, int fd, size_t max_bytes, unsigned char **data,
                           size_t *size, br_error_t *err)
{
	struct stat sb;
	if (fstat(fd, &sb) != 0)
		return br_error_set(err, BR_ERR_INPUT, "%s: cannot read: %s", path,
		                    strerror(errno));
	if ((unsigned long long)sb.st_size > max_bytes)
		return br_error_set(err, BR_ERR_INPUT, "%s: too large (%lld bytes; at most %zu)",
		                    path, (long long)sb.st_size, max_bytes);
	size_t n = (size_t)sb.st_size;
	unsigned char *buf = xmalloc(n + 1U);
	size_t got = 0;
	while (got < n) {
		ssize_t r = read(fd, buf + got, n - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	if (got != n) {
		free(buf);
		return br_error_set(err, BR_ERR_INPUT, "%s: read failed", path);
	}
	buf[n] = '\0';
	*data = buf;
	*size = n;
	return BR_OK;
}

br_status_t br_file_read_regular(const char *path, bool nofollow, size_t max_bytes,
                                 unsigned char **data, size_t *size, br_error_t *err)
{
	*data = NULL;
	*size = 0;
	int fd = br_file_open_regular(path, nofollow, err);
	if (fd < 0)
		return BR_ERR_INPUT;
	br_status_t st = read_fd(path, fd, max_bytes, data, size, err);
	close(fd);
	return st;
}

br_status_t br_file_read_all(const char *path, size_t max_bytes, unsigned char **data, size_t *size,
                             br_error_t *err)
{
	return br_file_read_regular(path, false, max_bytes, data, size, err);
}
