#include "results/paths.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define PATHS_DIR_BYTES 1024U
#define PATHS_NAME_BYTES 128U
#define PATHS_MAX_TRIES 1000

/* mkdir -p: every missing directory of path. */
static br_status_t make_dirs(const char *path, br_error_t *err)
{
	char buf[PATHS_DIR_BYTES];
	if (strlen(path) >= sizeof(buf))
		return br_error_set(err, BR_ERR_USAGE, "%s: path too long", path);
	snprintf(buf, sizeof(buf), "%s", path);
	for (char *p = buf + 1;; p++) {
		bool end = *p == '\0';
		if (*p == '/' || end) {
			*p = '\0';
			if (mkdir(buf, 0755) != 0 && errno != EEXIST)
				return br_error_set(err, BR_ERR_INPUT,
				                    "%s: cannot create directory: %s (choose "
				                    "another with --results-dir)",
				                    buf, strerror(errno));
			if (end)
				break;
			*p = '/';
		}
	}
	struct stat sb;
	if (stat(path, &sb) != 0 || !S_ISDIR(sb.st_mode))
		return br_error_set(err, BR_ERR_INPUT, "%s: not a directory", path);
	return BR_OK;
}

static void safe_name(const char *name, char *out, size_t cap)
{
	size_t i = 0;
	for (; name[i] != '\0' && i + 1U < cap; i++) {
		char c = name[i];
		bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		          (c >= '0' && c <= '9') || c == '.' || c == '-' || c == '_';
		out[i] = ok ? c : '_';
	}
	out[i] = '\0';
	if (i == 0)
		snprintf(out, cap, "board");
	else if (out[0] == '.')
		out[0] = '_';
}

#define PATHS_FILE_MODE 0644

br_status_t br_results_run_path(const char *results_dir, const char *board, char *out, size_t cap,
                                br_error_t *err)
{
	char dir[PATHS_DIR_BYTES];
	snprintf(dir, sizeof(dir), "%s/runs", results_dir);
	br_status_t st = make_dirs(dir, err);
	if (st != BR_OK)
		return st;
	char name[PATHS_NAME_BYTES];
	safe_name(board, name, sizeof(name));
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	struct tm tm;
	gmtime_r(&ts.tv_sec, &tm);
	char stamp[32];
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%S", &tm);
	long ms = ts.tv_nsec / 1000000L;
	for (int attempt = 0; attempt < PATHS_MAX_TRIES; attempt++) {
		int n;
		if (attempt == 0)
			n = snprintf(out, cap, "%s/%s.%03ldZ-%s.json", dir, stamp, ms, name);
		else
			n = snprintf(out, cap, "%s/%s.%03ldZ-%s-%d.json", dir, stamp, ms, name,
			             attempt);
		if (n < 0 || (size_t)n >= cap)
			return br_error_set(err, BR_ERR_USAGE, "%s: path too long", dir);
		/* Exclusive create reserves the name: two runs started in the same
		 * millisecond never get the same file (the record replaces it). */
		int fd = open(out, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, PATHS_FILE_MODE);
		if (fd >= 0) {
			close(fd);
			return BR_OK;
		}
		if (errno != EEXIST)
			return br_error_set(err, BR_ERR_INPUT, "%s: cannot create: %s", out,
			                    strerror(errno));
	}
	return br_error_set(err, BR_ERR_INPUT, "%s: no free run file name", dir);
}

br_status_t br_results_baseline_path(const char *results_dir, const char *suite, const char *board,
                                     bool create, char *out, size_t cap, br_error_t *err)
{
	char folder[PATHS_NAME_BYTES];
	safe_name(suite != NULL && suite[0] != '\0' ? suite : BR_RESULTS_NO_SUITE, folder,
	          sizeof(folder));
	char dir[PATHS_DIR_BYTES];
	int n = snprintf(dir, sizeof(dir), "%s/baselines/%s", results_dir, folder);
	if (n < 0 || (size_t)n >= sizeof(dir))
		return br_error_set(err, BR_ERR_USAGE, "%s: path too long", results_dir);
	if (create) {
		br_status_t st = make_dirs(dir, err);
		if (st != BR_OK)
			return st;
	}
	char name[PATHS_NAME_BYTES];
	safe_name(board, name, sizeof(name));
	n = snprintf(out, cap, "%s/%s.json", dir, name);
	if (n < 0 || (size_t)n >= cap)
		return br_error_set(err, BR_ERR_USAGE, "%s: path too long", dir);
	return BR_OK;
}

br_status_t br_results_old_baseline_path(const char *results_dir, const char *board, char *out,
                                         size_t cap, br_error_t *err)
{
	char name[PATHS_NAME_BYTES];
	safe_name(board, name, sizeof(name));
	int n = snprintf(out, cap, "%s/baselines/%s.json", results_dir, name);
	if (n < 0 || (size_t)n >= cap)
		return br_error_set(err, BR_ERR_USAGE, "%s: path too long", results_dir);
	return BR_OK;
}
