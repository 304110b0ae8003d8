#include "run/provenance.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/sha256.h"
#include "elf/elf_build_id.h"
#include "elf/elf_comment.h"
#include "elf/elf_file.h"
#include "elf/elf_sizes.h"

#define PROVENANCE_DIR_BYTES 1024U
#define PROVENANCE_OUTPUT_BYTES 256U

extern char **environ;

/* Runs git with args in dir; returns true with its first output line in out
 * when it exits 0. Its stderr goes nowhere: "not a repository" is not news. */
static bool git_line(const char *dir, const char *const *args, size_t nargs, char *out, size_t cap)
{
	int fds[2];
	if (pipe(fds) != 0)
		return false;
	const char *argv[16];
	size_t n = 0;
	argv[n++] = "git";
	argv[n++] = "-C";
	argv[n++] = dir;
	for (size_t i = 0; i < nargs && n + 1U < sizeof(argv) / sizeof(argv[0]); i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, fds[1], STDOUT_FILENO);
	posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addclose(&fa, fds[0]);
	pid_t pid;
	int rc = posix_spawnp(&pid, "git", &fa, NULL, (char *const *)argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(fds[1]);
	if (rc != 0) {
		close(fds[0]);
		return false;
	}
	char buf[PROVENANCE_OUTPUT_BYTES];
	size_t len = 0;
	ssize_t got;
	while ((got = read(fds[0], buf + len, sizeof(buf) - 1U - len)) > 0) {
		len += (size_t)got;
		if (len == sizeof(buf) - 1U)
			break;
	}
	close(fds[0]);
	int status = 0;
	pid_t done;
	do {
		done = waitpid(pid, &status, 0);
	} while (done < 0 && errno == EINTR);
	if (done != pid)
		return false;
	buf[len] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return false;
	snprintf(out, cap, "%s", buf);
	return true;
}

static void git_commit(const char *elf_path, char *out, size_t cap)
{
	char dir[PROVENANCE_DIR_BYTES];
	snprintf(dir, sizeof(dir), "%s", elf_path);
	char *slash = strrchr(dir, '/');
	if (slash == NULL)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == dir)
		dir[1] = '\0';
	else
		*slash = '\0';
	static const char *const rev[] = {"rev-parse", "HEAD"};
	if (!git_line(dir, rev, 2, out, cap)) {
		out[0] = '\0';
		return;
	}
	static const char *const status[] = {"status", "--porcelain", "--untracked-files=no"};
	char changed[PROVENANCE_OUTPUT_BYTES] = "";
	if (git_line(dir, status, 3, changed, sizeof(changed)) && changed[0] != '\0') {
		size_t n = strlen(out);
		snprintf(out + n, cap - n, "-dirty");
	}
}

#define PROVENANCE_MAX_ELF_BYTES (256U * 1024U * 1024U)

/* The git commit of the firmware at path: commit when not NULL, else
 * $BENCHRACK_GIT_COMMIT, else git's word where path is. */
static void commit_of(const char *path, const char *commit, char *out, size_t cap)
{
	const char *env = getenv("BENCHRACK_GIT_COMMIT");
	if (commit != NULL)
		snprintf(out, cap, "%s", commit);
	else if (env != NULL && env[0] != '\0')
		snprintf(out, cap, "%s", env);
	else
		git_commit(path, out, cap);
}

br_status_t br_run_provenance_firmware(const char *elf_path, const char *commit,
                                       br_firmware_info_t *out, br_error_t *err)
{
	memset(out, 0, sizeof(*out));
	br_elf_t *elf = NULL;
	br_status_t st = br_elf_open(elf_path, &elf, err);
	if (st != BR_OK)
		return st;
	snprintf(out->elf_path, sizeof(out->elf_path), "%s", elf_path);
	if (br_elf_build_id(elf, out->build_id, sizeof(out->build_id), NULL) != BR_OK)
		out->build_id[0] = '\0';
	br_elf_comment(elf, out->toolchain, sizeof(out->toolchain));
	br_elf_sizes_t sizes;
	if (br_elf_sizes_compute(elf, &sizes, NULL) == BR_OK) {
		out->sizes_known = true;
		out->text_bytes = sizes.text;
		out->data_bytes = sizes.data;
		out->bss_bytes = sizes.bss;
	}
	br_elf_close(elf);
	/* no note names this binary: its bytes do */
	if (out->build_id[0] == '\0' &&
	    br_sha256_file(elf_path, PROVENANCE_MAX_ELF_BYTES, out->sha256, err) != BR_OK)
		return err != NULL ? err->status : BR_ERR_INPUT;
	commit_of(elf_path, commit, out->git_commit, sizeof(out->git_commit));
	return BR_OK;
}

/* Time, benchrack's version and the host into rec. */
static void fill_run(br_run_record_t *rec)
{
	time_t now = time(NULL);
	struct tm tm;
	gmtime_r(&now, &tm);
	strftime(rec->timestamp, sizeof(rec->timestamp), "%Y-%m-%dT%H:%M:%SZ", &tm);
	snprintf(rec->benchrack_version, sizeof(rec->benchrack_version), "%s", BENCHRACK_VERSION);
	if (gethostname(rec->host, sizeof(rec->host)) != 0 || rec->host[0] == '\0')
		snprintf(rec->host, sizeof(rec->host), "unknown");
	rec->host[sizeof(rec->host) - 1U] = '\0';
}

br_status_t br_run_provenance_fill(br_run_record_t *rec, const char *elf_path, const char *commit,
                                   br_error_t *err)
{
	br_status_t st = br_run_provenance_firmware(elf_path, commit, &rec->firmware, err);
	if (st != BR_OK)
		return st;
	rec->no_firmware = false;
	fill_run(rec);
	return BR_OK;
}

void br_run_provenance_fill_none(br_run_record_t *rec)
{
	rec->no_firmware = true;
	fill_run(rec);
}

void br_run_provenance_fill_program(br_run_record_t *rec, const char *path, const char *commit)
{
	snprintf(rec->elf_path, sizeof(rec->elf_path), "%s", path);
	/* its bytes name the build (a baseline's runs are grouped by it) */
	if (br_sha256_file(path, PROVENANCE_MAX_ELF_BYTES, rec->sha256, NULL) != BR_OK)
		rec->sha256[0] = '\0';
	commit_of(path, commit, rec->git_commit, sizeof(rec->git_commit));
	fill_run(rec);
}
