#include "results/atomic_file.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * path exists and is not a regular file (lstat's sb): a device or a FIFO with
 * a reader is written through, like stdout (f->through); a FIFO nobody
 * reads, a link, a directory or a socket is refused, never replaced.
 */
static br_status_t open_through(br_atomic_file_t *f, const char *path, const struct stat *sb,
                                br_error_t *err)
{
	if (S_ISLNK(sb->st_mode))
		return br_error_set(err, BR_ERR_USAGE,
		                    "%s: a symbolic link: refused, not replaced or followed (give "
		                    "the file it points to)",
		                    path);
	if (!S_ISCHR(sb->st_mode) && !S_ISBLK(sb->st_mode) && !S_ISFIFO(sb->st_mode))
		return br_error_set(err, BR_ERR_USAGE,
		                    "%s: %s: refused (give a regular file, or a new name)", path,
		                    S_ISDIR(sb->st_mode) ? "a directory" : "not a regular file");
	int fd = open(path, O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0 && errno == ENXIO)
		return br_error_set(err, BR_ERR_USAGE, "%s: a FIFO that nobody reads: refused",
		                    path);
	if (fd < 0)
		return br_error_set(err, BR_ERR_INPUT, "%s: cannot write: %s", path,
		                    strerror(errno));
	int fl = fcntl(fd, F_GETFL);
	if (fl >= 0)
		(void)fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	f->stream = fdopen(fd, "w");
	if (f->stream == NULL) {
		close(fd);
		return br_error_set(err, BR_ERR_INPUT, "%s: %s", path, strerror(errno));
	}
	f->through = true;
	return BR_OK;
}

br_status_t br_atomic_file_open(br_atomic_file_t *f, const char *path, br_error_t *err)
{
	memset(f, 0, sizeof(*f));
	if (strlen(path) >= sizeof(f->path))
		return br_error_set(err, BR_ERR_USAGE, "%s: path too long", path);
	snprintf(f->path, sizeof(f->path), "%s", path);
	struct stat sb;
	if (lstat(path, &sb) == 0 && !S_ISREG(sb.st_mode))
		return open_through(f, path, &sb, err);
	snprintf(f->temp_path, sizeof(f->temp_path), "%s.tmp-XXXXXX", path);
	int fd = mkstemp(f->temp_path);
	if (fd < 0)
		return br_error_set(err, BR_ERR_INPUT,
		                    "%s: cannot write: %s (check the directory "
		                    "exists and is writable)",
		                    path, strerror(errno));
	fchmod(fd, 0644);
	f->stream = fdopen(fd, "w");
	if (f->stream == NULL) {
		close(fd);
		unlink(f->temp_path);
		return br_error_set(err, BR_ERR_INPUT, "%s: %s", path, strerror(errno));
	}
	return BR_OK;
}

static void fsync_parent(const char *path)
{
	char copy[1024];
	snprintf(copy, sizeof(copy), "%s", path);
	int dfd = open(dirname(copy), O_RDONLY | O_DIRECTORY);
	if (dfd >= 0) {
		fsync(dfd);
		close(dfd);
	}
}

br_status_t br_atomic_file_commit(br_atomic_file_t *f, br_error_t *err)
{
	int bad = ferror(f->stream);
	int saved = bad ? EIO : 0;
	if (fflush(f->stream) != 0) {
		bad = 1;
		saved = errno;
	}
	/* A device or FIFO written through needs no fsync (EINVAL there). */
	if (!bad && !f->through && fsync(fileno(f->stream)) != 0) {
		bad = 1;
		saved = errno;
	}
	if (fclose(f->stream) != 0 && !bad) {
		bad = 1;
		saved = errno;
	}
	f->stream = NULL;
	if (bad) {
		if (!f->through)
			unlink(f->temp_path);
		/* The disk or the device failed, not the input: exit 3. */
		return br_error_set(err, BR_ERR_INFRA, "%s: write failed: %s%s", f->path,
		                    saved == ENOSPC ? "no space left on the device"
		                                    : strerror(saved),
		                    f->through ? "" : " (nothing written there)");
	}
	if (f->through)
		return BR_OK;
	if (rename(f->temp_path, f->path) != 0) {
		saved = errno;
		unlink(f->temp_path);
		return br_error_set(err, BR_ERR_INPUT, "%s: cannot rename into place: %s", f->path,
		                    strerror(saved));
	}
	fsync_parent(f->path);
	return BR_OK;
}

void br_atomic_file_abort(br_atomic_file_t *f)
{
	if (f->stream != NULL)
		fclose(f->stream);
	f->stream = NULL;
	if (!f->through && f->temp_path[0] != '\0')
		unlink(f->temp_path);
}
