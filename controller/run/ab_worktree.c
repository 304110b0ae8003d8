#include "run/ab_worktree.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/clock.h"

#define AB_TAIL_LINES 12U
#define AB_TAIL_BYTES 700U
#define AB_OUTPUT_BYTES 4096U
#define AB_STAMP ".benchrack-built"
#define AB_MS_PER_S 1000.0

/* Runs argv in cwd (NULL: here) with stdout and stderr to the file log
 * (created), or, when log is NULL, stdout into out (cap bytes, the last
 * newline dropped). Returns the exit status, or -1 when it could not run. */
static int ab_exec(const char *cwd, const char *const argv[], const char *log, char *out,
                   size_t cap)
{
	int fds[2] = {-1, -1};
	if (log == NULL && pipe(fds) != 0)
		return -1;
	pid_t pid = fork();
	if (pid == 0) {
		int fd = log != NULL ? open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644)
		                     : open("/dev/null", O_WRONLY);
		int in = open("/dev/null", O_RDONLY);
		if (fd < 0 || in < 0 || (cwd != NULL && chdir(cwd) != 0))
			_exit(127);
		dup2(in, STDIN_FILENO);
		dup2(log != NULL ? fd : fds[1], STDOUT_FILENO);
		dup2(fd, STDERR_FILENO);
		if (log == NULL)
			close(fds[0]);
		execvp(argv[0], (char *const *)argv);
		_exit(127);
	}
	size_t len = 0;
	if (log == NULL) {
		close(fds[1]);
		ssize_t n;
		while (pid > 0 && (n = read(fds[0], out + len, cap - 1U - len)) != 0) {
			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0 || (len += (size_t)n) + 1U >= cap)
				break;
		}
		close(fds[0]);
		out[len] = '\0';
		while (len > 0 && out[len - 1U] == '\n')
			out[--len] = '\0';
	}
	if (pid < 0)
		return -1;
	int status = 0;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* The last AB_TAIL_LINES lines of the file at path (at most AB_TAIL_BYTES). */
static void ab_tail(const char *path, char *buf, size_t cap)
{
	buf[0] = '\0';
	FILE *f = fopen(path, "r");
	if (f == NULL)
		return;
	char text[AB_TAIL_BYTES + 1U];
	fseek(f, 0, SEEK_END);
	long size = ftell(f);
	long from = size > (long)AB_TAIL_BYTES ? size - (long)AB_TAIL_BYTES : 0;
	fseek(f, from, SEEK_SET);
	size_t n = fread(text, 1, AB_TAIL_BYTES, f);
	fclose(f);
	text[n] = '\0';
	while (n > 0 && text[n - 1U] == '\n')
		text[--n] = '\0';
	const char *start = text;
	unsigned lines = 0;
	for (size_t i = n; i > 0; i--) {
		if (text[i - 1U] == '\n' && ++lines == AB_TAIL_LINES) {
			start = text + i;
			break;
		}
	}
	snprintf(buf, cap, "%s", start);
}

static bool ab_exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

/* mkdir -p for the directories of path's components up to path itself. */
static void ab_mkdirs(const char *path)
{
	char p[BR_AB_PATH_BYTES];
	snprintf(p, sizeof(p), "%s", path);
	for (char *c = p + 1; *c != '\0'; c++) {
		if (*c == '/') {
			*c = '\0';
			mkdir(p, 0755);
			*c = '/';
		}
	}
	mkdir(p, 0755);
}

static br_status_t ab_git(const char *repo, const char *a, const char *b, const char *c, char *out,
                          size_t cap, br_error_t *err)
{
	const char *argv[] = {"git", "-C", repo, a, b, c, NULL};
	int rc = ab_exec(NULL, argv, NULL, out, cap);
	if (rc == 0)
		return BR_OK;
	if (rc == 127)
		return br_error_set(err, BR_ERR_INFRA,
		                    "--against needs git, which could not be run: install it "
		                    "(apt-get install git)");
	return br_error_set(err, rc < 0 ? BR_ERR_INFRA : BR_ERR_INPUT,
	                    "git -C %s %s %s %s failed (exit %d)", repo, a, b, c != NULL ? c : "",
	                    rc);
}

br_status_t br_ab_firmware_prepare(const br_suite_t *suite, const char *ref, const char *cache_dir,
                                   br_ab_firmware_t *out, br_error_t *err)
{
	memset(out, 0, sizeof(*out));
	const br_suite_build_t *build = &suite->file.build;
	if (!build->head.set)
		return br_error_set(
		    err, BR_ERR_INPUT,
		    "%s: --against needs the suite's build: section (command: how to "
		    "build the firmware at a worktree's root; firmware: the ELF it "
		    "yields)",
		    suite->path);
	char text[AB_OUTPUT_BYTES];
	const char *dir = suite->dir[0] != '\0' ? suite->dir : ".";
	br_status_t st = ab_git(dir, "rev-parse", "--show-toplevel", NULL, text, sizeof(text), err);
	if (st == BR_ERR_INPUT)
		return br_error_prefix(err, "the suite %s is not in a git repository", suite->path);
	if (st != BR_OK)
		return st;
	snprintf(out->repo, sizeof(out->repo), "%.1000s", text);
	char spec[BR_AB_PATH_BYTES];
	snprintf(spec, sizeof(spec), "%s^{commit}", ref);
	st = ab_git(out->repo, "rev-parse", "--verify", spec, text, sizeof(text), err);
	if (st != BR_OK)
		return br_error_set(err, BR_ERR_INPUT, "--against %s: no such commit in %s", ref,
		                    out->repo);
	snprintf(out->base_commit, sizeof(out->base_commit), "%.63s", text);
	if (ab_git(out->repo, "rev-parse", "HEAD", NULL, text, sizeof(text), NULL) == BR_OK)
		snprintf(out->head_commit, sizeof(out->head_commit), "%.63s", text);

	char abs_cache[AB_OUTPUT_BYTES];
	ab_mkdirs(cache_dir);
	if (realpath(cache_dir, abs_cache) == NULL)
		return br_error_set(err, BR_ERR_INFRA, "%s: %s", cache_dir, strerror(errno));
	snprintf(out->worktree, sizeof(out->worktree), "%.900s/%.63s", abs_cache, out->base_commit);
	snprintf(out->elf, sizeof(out->elf), "%.800s/%.200s", out->worktree, build->firmware.value);
	char stamp[BR_AB_PATH_BYTES + 32U], log[BR_AB_PATH_BYTES + 32U];
	snprintf(stamp, sizeof(stamp), "%s/%s", out->worktree, AB_STAMP);
	snprintf(log, sizeof(log), "%s.build.log", out->worktree);
	if (ab_exists(stamp) && ab_exists(out->elf)) {
		out->reused = true;
		return BR_OK;
	}
	if (!ab_exists(out->worktree)) {
		const char *argv[] = {"git", "-C",       out->repo,     "worktree",
		                      "add", "--detach", out->worktree, out->base_commit,
		                      NULL};
		int rc = ab_exec(NULL, argv, log, NULL, 0);
		if (rc != 0) {
			char tail[AB_TAIL_BYTES + 1U];
			ab_tail(log, tail, sizeof(tail));
			return br_error_set(err, BR_ERR_INFRA,
			                    "git worktree add %s %s failed (exit %d):\n%s",
			                    out->worktree, out->base_commit, rc, tail);
		}
	}
	int64_t start = br_clock_ms();
	const char *argv[] = {"/bin/sh", "-c", build->command.value, NULL};
	int rc = ab_exec(out->worktree, argv, log, NULL, 0);
	out->build_seconds = (double)(br_clock_ms() - start) / AB_MS_PER_S;
	if (rc != 0 || !ab_exists(out->elf)) {
		char tail[AB_TAIL_BYTES + 1U];
		ab_tail(log, tail, sizeof(tail));
		if (rc != 0)
			return br_error_set(
			    err, BR_ERR_INFRA,
			    "building %s at %s failed (exit %d; %s): last lines:\n%s", ref,
			    out->base_commit, rc, log, tail);
		return br_error_set(err, BR_ERR_INFRA,
		                    "building %s at %s did not yield the firmware %s (%s)", ref,
		                    out->base_commit, out->elf, log);
	}
	FILE *f = fopen(stamp, "w");
	if (f != NULL)
		fclose(f);
	return BR_OK;
}
