#include "upload/spool.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/xalloc.h"
#include "results/atomic_file.h"
#include "upload/item_json.h"

#define SPOOL_SUFFIX ".json"
#define SPOOL_LOCK ".lock"

static br_status_t make_dir(const char *path, br_error_t *err)
{
	if (mkdir(path, 0755) != 0 && errno != EEXIST)
		return br_error_set(err, BR_ERR_INPUT, "%s: cannot create directory: %s", path,
		                    strerror(errno));
	struct stat sb;
	if (stat(path, &sb) != 0 || !S_ISDIR(sb.st_mode))
		return br_error_set(err, BR_ERR_INPUT, "%s: not a directory", path);
	return BR_OK;
}

br_status_t br_upload_spool_open(br_upload_spool_t *sp, const char *results_dir, bool create,
                                 br_error_t *err)
{
	memset(sp, 0, sizeof(*sp));
	sp->lock_fd = -1;
	int a = snprintf(sp->spool_dir, sizeof(sp->spool_dir), "%s/spool", results_dir);
	int b = snprintf(sp->rejected_dir, sizeof(sp->rejected_dir), "%s/rejected", results_dir);
	if (a < 0 || b < 0 || (size_t)b >= sizeof(sp->rejected_dir))
		return br_error_set(err, BR_ERR_USAGE, "%s: path too long", results_dir);
	if (!create)
		return BR_OK;
	br_status_t st = make_dir(results_dir, err);
	if (st == BR_OK)
		st = make_dir(sp->spool_dir, err);
	if (st == BR_OK)
		st = make_dir(sp->rejected_dir, err);
	return st;
}

void br_upload_spool_path(const br_upload_spool_t *sp, bool rejected, const char *id, char *out,
                          size_t cap)
{
	snprintf(out, cap, "%s/%s%s", rejected ? sp->rejected_dir : sp->spool_dir, id,
	         SPOOL_SUFFIX);
}

static br_status_t write_item(const char *path, const br_upload_item_t *item, br_error_t *err)
{
	br_atomic_file_t f;
	br_status_t st = br_atomic_file_open(&f, path, err);
	if (st != BR_OK)
		return st;
	br_upload_item_write(item, f.stream);
	return br_atomic_file_commit(&f, err);
}

br_status_t br_upload_spool_put(const br_upload_spool_t *sp, const br_upload_item_t *item,
                                br_error_t *err)
{
	char path[BR_UPLOAD_PATH_BYTES + 256U];
	br_upload_spool_path(sp, false, item->id, path, sizeof(path));
	return write_item(path, item, err);
}

br_status_t br_upload_spool_remove(const br_upload_spool_t *sp, const char *id, br_error_t *err)
{
	char path[BR_UPLOAD_PATH_BYTES + 256U];
	br_upload_spool_path(sp, false, id, path, sizeof(path));
	if (unlink(path) != 0 && errno != ENOENT)
		return br_error_set(err, BR_ERR_INPUT, "%s: cannot delete: %s", path,
		                    strerror(errno));
	return BR_OK;
}

br_status_t br_upload_spool_reject(const br_upload_spool_t *sp, const br_upload_item_t *item,
                                   br_error_t *err)
{
	char path[BR_UPLOAD_PATH_BYTES + 256U];
	br_upload_spool_path(sp, true, item->id, path, sizeof(path));
	br_status_t st = make_dir(sp->rejected_dir, err);
	if (st == BR_OK)
		st = write_item(path, item, err);
	if (st == BR_OK)
		st = br_upload_spool_remove(sp, item->id, err);
	return st;
}

static bool is_item_name(const char *name)
{
	size_t n = strlen(name);
	size_t s = strlen(SPOOL_SUFFIX);
	return name[0] != '.' && n > s && strcmp(name + n - s, SPOOL_SUFFIX) == 0;
}

br_status_t br_upload_spool_list(const br_upload_spool_t *sp, bool rejected, char ***ids,
                                 size_t *count, br_error_t *err)
{
	*ids = NULL;
	*count = 0;
	const char *dir = rejected ? sp->rejected_dir : sp->spool_dir;
	struct dirent **names = NULL;
	int n = scandir(dir, &names, NULL, alphasort);
	if (n < 0) {
		if (errno == ENOENT)
			return BR_OK;
		return br_error_set(err, BR_ERR_INPUT, "%s: cannot list: %s", dir, strerror(errno));
	}
	char **out = xcalloc((size_t)n + 1U, sizeof(char *));
	size_t k = 0;
	for (int i = 0; i < n; i++) {
		const char *name = names[i]->d_name;
		if (is_item_name(name)) {
			size_t len = strlen(name) - strlen(SPOOL_SUFFIX);
			out[k] = xmalloc(len + 1U);
			memcpy(out[k], name, len);
			out[k][len] = '\0';
			k++;
		}
		free(names[i]);
	}
	free(names);
	*ids = out;
	*count = k;
	return BR_OK;
}

void br_upload_spool_ids_free(char **ids, size_t count)
{
	for (size_t i = 0; ids != NULL && i < count; i++)
		free(ids[i]);
	free(ids);
}

br_status_t br_upload_spool_lock(br_upload_spool_t *sp, br_error_t *err)
{
	char path[BR_UPLOAD_PATH_BYTES + 16U];
	snprintf(path, sizeof(path), "%s/%s", sp->spool_dir, SPOOL_LOCK);
	/* Never blocking, never through a link: a FIFO or a link planted as the
	 * lock is refused before anything waits on it (issue 31). */
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW, 0644);
	if (fd < 0)
		return br_error_set(err, BR_ERR_INPUT, "%s: cannot open: %s", path,
		                    errno == ELOOP ? "a symbolic link, not followed"
		                                   : strerror(errno));
	struct stat sb;
	if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
		close(fd);
		return br_error_set(err, BR_ERR_INPUT, "%s: not a regular file: refused", path);
	}
	if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
		int e = errno;
		close(fd);
		if (e == EWOULDBLOCK)
			return br_error_set(err, BR_ERR_INFRA,
			                    "another benchrack is delivering the uploads in %s; "
			                    "this one leaves them to it",
			                    sp->spool_dir);
		return br_error_set(err, BR_ERR_INPUT, "%s: cannot lock: %s", path, strerror(e));
	}
	sp->lock_fd = fd;
	return BR_OK;
}

void br_upload_spool_unlock(br_upload_spool_t *sp)
{
	if (sp->lock_fd >= 0) {
		flock(sp->lock_fd, LOCK_UN);
		close(sp->lock_fd);
	}
	sp->lock_fd = -1;
}
