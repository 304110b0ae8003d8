#include "run/gdb_handoff.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/xalloc.h"
#include "elf/elf_file.h"

br_status_t br_gdb_breaks_resolve(const char *elf_path, const char *const *names,
                                  br_location_t *breaks, size_t *count, br_error_t *err)
{
	*count = 0;
	if (names[0] == NULL)
		return BR_OK;
	br_elf_t *elf = NULL;
	br_status_t st = br_elf_open(elf_path, &elf, err);
	for (size_t i = 0; st == BR_OK && i < BR_GDB_MAX_BREAKS; i++) {
		if (names[i] == NULL)
			continue;
		st = br_location_resolve(elf, names[i], &breaks[*count], err);
		if (st == BR_OK)
			(*count)++;
	}
	br_elf_close(elf);
	return st;
}

void br_gdb_target(const br_runner_t *r, char *buf, size_t cap)
{
	const br_endpoint_t *ep = &r->endpoint;
	if (r->session.server.pid != 0)
		snprintf(buf, cap, "127.0.0.1:%u", (unsigned)r->session.server.port);
	else if (br_endpoint_kind(ep)->reach == BR_SERVER_REACH_SERIAL)
		snprintf(buf, cap, "%s", ep->device);
	else
		snprintf(buf, cap, "%s:%u", ep->host, (unsigned)ep->port);
}

int br_gdb_run(const br_gdb_launch_t *g, br_error_t *err)
{
	size_t count = g->break_count;
	const br_location_t *breaks = g->breaks;
	size_t max = 8U + 2U * count + (size_t)g->extra_count;
	char **argv = xcalloc(max, sizeof(char *));
	char target_cmd[BR_GDB_TARGET_BYTES + 16U];
	char break_cmd[BR_GDB_MAX_BREAKS][48];
	size_t n = 0;
	snprintf(target_cmd, sizeof(target_cmd), "target remote %s", g->target);
	argv[n++] = (char *)g->program;
	argv[n++] = (char *)"-q";
	argv[n++] = (char *)g->elf;
	argv[n++] = (char *)"-ex";
	argv[n++] = target_cmd;
	for (size_t i = 0; i < count; i++) {
		snprintf(break_cmd[i], sizeof(break_cmd[i]), "break *0x%08" PRIx32,
		         breaks[i].address);
		argv[n++] = (char *)"-ex";
		argv[n++] = break_cmd[i];
	}
	for (int i = 0; i < g->extra_count; i++)
		argv[n++] = g->extra_args[i];
	argv[n] = NULL;

	/* gdb owns the terminal meanwhile: its ^C interrupts the target, not us. */
	struct sigaction ignore = {.sa_handler = SIG_IGN}, old_int, old_quit;
	sigemptyset(&ignore.sa_mask);
	sigaction(SIGINT, &ignore, &old_int);
	sigaction(SIGQUIT, &ignore, &old_quit);
	int code = BR_GDB_EXIT_NOT_STARTED;
	int ready[2];
	if (pipe(ready) != 0) {
		br_error_set(err, BR_ERR_INFRA, "pipe: %s", strerror(errno));
		goto out;
	}
	pid_t pid = fork();
	if (pid < 0) {
		br_error_set(err, BR_ERR_INFRA, "fork: %s", strerror(errno));
		close(ready[0]);
		close(ready[1]);
		goto out;
	}
	if (pid == 0) {
		sigaction(SIGINT, &old_int, NULL);
		sigaction(SIGQUIT, &old_quit, NULL);
		close(ready[0]);
		/* The write end closes on a successful exec: the parent reads
		 * nothing; a failed exec sends its errno. */
		fcntl(ready[1], F_SETFD, FD_CLOEXEC);
		execvp(argv[0], argv);
		int e = errno;
		(void)!write(ready[1], &e, sizeof(e));
		_exit(BR_GDB_EXIT_NOT_STARTED);
	}
	close(ready[1]);
	int exec_errno = 0;
	ssize_t got = read(ready[0], &exec_errno, sizeof(exec_errno));
	close(ready[0]);
	int status = 0;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
	}
	if (got == (ssize_t)sizeof(exec_errno)) {
		br_error_set(err, BR_ERR_INFRA,
		             "cannot start %s (%s): install gdb-multiarch (apt-get install "
		             "gdb-multiarch) or name the debugger with --gdb",
		             argv[0], strerror(exec_errno));
		goto out;
	}
	code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
out:
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGQUIT, &old_quit, NULL);
	free(argv);
	return code;
}
