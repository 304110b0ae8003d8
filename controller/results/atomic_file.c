#include "results/atomic_file.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

br_status_t br_atomic_file_open(br_atomic_file_t *f, const char *path, br_error_t *err)
{
	memset(f, 0, sizeof(*f));
	if (strlen(path) >= sizeof(f->path))
		return br_error_set(err, BR_ERR_USAGE, "%s: path too long", path);
	snprintf(f->path, sizeof(f->path), "%s", path);
	snprintf(f->temp_path, sizeof(f->temp_path), "%s.tmp-XXXXXX", path);
	int fd = mkstemp(f->temp_path);
	if (fd < 0)
		return br_error_set(err, BR_ERR_INPUT, "%s: cannot write: %s (check the directory "
				    "exists and is writable)", path, strerror(errno));
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
	if (fflush(f->stream) != 0 || fsync(fileno(f->stream)) != 0)
		bad = 1;
	int saved = errno;
	if (fclose(f->stream) != 0)
		bad = 1;
	f->stream = NULL;
	if (bad) {
		unlink(f->temp_path);
		return br_error_set(err, BR_ERR_INPUT, "%s: write failed: %s", f->path,
				    strerror(saved));
	}
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
	if (f->temp_path[0] != '\0')
		unlink(f->temp_path);
}
