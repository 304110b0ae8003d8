#include "debug/server.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/xalloc.h"

#define BR_SERVER_STOP_GRACE_MS 2000
#define BR_SERVER_POLL_MS 5
#define BR_SERVER_LAUNCH_ATTEMPTS 3
/* How much of a server's output is searched for its fatal line. */
#define SERVER_FATAL_SCAN_BYTES (256U * 1024U)
/* What QEMU 7.2 says when it refuses record mode on a machine of two cores. */
#define SERVER_RR_SMP_REFUSAL "not supported for 'smp'"

bool br_server_find_program(const char *program, char *out, size_t cap)
{
	if (program == NULL || program[0] == '\0')
		return false;
	if (strchr(program, '/') != NULL) {
		snprintf(out, cap, "%s", program);
		return access(out, X_OK) == 0;
	}
	const char *path = getenv("PATH");
	if (path == NULL)
		path = "/usr/bin:/bin";
	while (*path != '\0') {
		const char *end = strchr(path, ':');
		size_t n = end != NULL ? (size_t)(end - path) : strlen(path);
		snprintf(out, cap, "%.*s/%s", (int)n, path, program);
		struct stat sb;
		if (n > 0 && stat(out, &sb) == 0 && S_ISREG(sb.st_mode) && access(out, X_OK) == 0)
			return true;
		path += n;
		if (*path == ':')
			path++;
	}
	return false;
}

/* Asks the kernel for a free TCP port on 127.0.0.1 and keeps it: *held is a
 * socket bound to it (not listening, close-on-exec), so no other process is
 * handed the same port while it is open. */
static br_status_t hold_free_port(uint16_t *port, int *held, br_error_t *err)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return br_error_set(err, BR_ERR_INFRA, "socket: %s", strerror(errno));
	/* Above stdin, stdout and stderr, which a server's child replaces. */
	if (fd <= STDERR_FILENO) {
		int high = fcntl(fd, F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
		close(fd);
		if (high < 0)
			return br_error_set(err, BR_ERR_INFRA, "fcntl: %s", strerror(errno));
		fd = high;
	}
	struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = 0};
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	socklen_t len = sizeof(sa);
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) != 0 ||
	    getsockname(fd, (struct sockaddr *)&sa, &len) != 0) {
		int e = errno;
		close(fd);
		return br_error_set(err, BR_ERR_INFRA, "cannot find a free port: %s", strerror(e));
	}
	*port = ntohs(sa.sin_port);
	*held = fd;
	return BR_OK;
}

/* Starts the program at path with argv, its output to a log file; the socket
 * inherit_fd (or none when -1) stays open in it under the same number. */
static br_status_t spawn(br_server_t *server, const char *path, char *const argv[], int inherit_fd,
                         br_error_t *err)
{
	char tmpl[] = "/tmp/benchrack-server-XXXXXX";
	int log_fd = mkstemp(tmpl);
	if (log_fd < 0)
		return br_error_set(err, BR_ERR_INFRA, "cannot create a log file: %s",
		                    strerror(errno));
	snprintf(server->log_path, sizeof(server->log_path), "%s", tmpl);
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid < 0) {
		close(log_fd);
		return br_error_set(err, BR_ERR_INFRA, "fork: %s", strerror(errno));
	}
	if (pid == 0) {
		/* The server never outlives benchrack, however benchrack ends
		 * (even SIGKILL): the kernel kills it when its parent dies. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(127);
		int null_fd = open("/dev/null", O_RDONLY);
		if (null_fd >= 0)
			dup2(null_fd, STDIN_FILENO);
		dup2(log_fd, STDOUT_FILENO);
		dup2(log_fd, STDERR_FILENO);
		/* Own process group: a Ctrl-C at the terminal reaches benchrack,
		 * which then stops the server itself. */
		setpgid(0, 0);
		if (inherit_fd >= 0)
			fcntl(inherit_fd, F_SETFD, 0);
		execv(path, argv);
		dprintf(STDERR_FILENO, "cannot run %s: %s\n", path, strerror(errno));
		_exit(127);
	}
	close(log_fd);
	server->pid = pid;
	server->exited = false;
	return BR_OK;
}

/* After a failed start: whether the server lost a race for its port (retry). */
static bool lost_port_race(const br_server_t *server)
{
	char tail[BR_SERVER_STDERR_TAIL];
	br_server_log_tail(server, tail, sizeof(tail));
	return strstr(tail, "Address already in use") != NULL ||
	       strstr(tail, "couldn't bind") != NULL;
}

/*
 * Starts the program at path (named name in messages) on a free port with the
 * command line the kind's builder makes from opts, and connects to it: readiness is the
 * first connection that succeeds; it is the session's. When the server loses
 * a race for its port it is stopped and started again on another, up to
 * BR_SERVER_LAUNCH_ATTEMPTS times in all.
 */
static br_status_t launch(const char *path, const char *name, const br_server_kind_t *kind,
                          const br_server_launch_t *opts, br_server_t *server,
                          rsp_transport_t *transport, br_error_t *err)
{
	snprintf(server->name, sizeof(server->name), "%s", name);
	br_status_t st = BR_ERR_INFRA;
	for (int attempt = 0; attempt < BR_SERVER_LAUNCH_ATTEMPTS; attempt++) {
		int held = -1;
		st = hold_free_port(&server->port, &held, err);
		if (st != BR_OK)
			return st;
		br_server_cmdline_t cl = {.inherit_fd = -1};
		st = kind->cmdline(opts, path, server, held, &cl, err);
		if (st == BR_OK && cl.dropped > 0)
			st = br_error_set(
			    err, BR_ERR_INPUT, "too many extra %s arguments (%zu; at most %zu)",
			    kind->title, opts->extra_arg_count, opts->extra_arg_count - cl.dropped);
		if (st == BR_OK) {
			/* A server that binds the port itself needs it free. */
			if (cl.inherit_fd < 0) {
				close(held);
				held = -1;
			}
			st = spawn(server, path, (char *const *)cl.argv, cl.inherit_fd, err);
		}
		if (held >= 0)
			close(held);
		if (st != BR_OK)
			return st;
		st = br_server_connect(server, transport, err);
		if (st == BR_OK)
			return BR_OK;
		bool port_race = lost_port_race(server);
		br_server_stop(server);
		if (!port_race)
			return st;
	}
	return st;
}

br_status_t br_server_launch(const br_server_kind_t *kind, const br_server_launch_t *opts,
                             br_server_t *server, rsp_transport_t *transport, br_error_t *err)
{
	memset(server, 0, sizeof(*server));
	const char *program = opts->program != NULL ? opts->program : kind->program;
	char path[512];
	if (!br_server_find_program(program, path, sizeof(path)))
		return br_error_set(err, BR_ERR_INFRA, "%s not found: %s", program, kind->install);
	br_status_t st = launch(path, program, kind, opts, server, transport, err);
	if (st != BR_OK && opts->record) {
		br_server_stop(server); /* the record directory too */
		if (err != NULL)
			br_server_record_refused(err->message, err);
	}
	return st;
}

void br_server_record_refused(const char *said, br_error_t *err)
{
	if (strstr(said, SERVER_RR_SMP_REFUSAL) == NULL)
		return;
	br_error_prefix(err, "this machine has two cores, where QEMU refuses record mode (and "
	                     "-smp 1), so its exact instruction count (counter icount) cannot be "
	                     "read; no timer of it counts instructions either");
	err->status = BR_ERR_INFRA;
}

bool br_server_alive(br_server_t *server)
{
	if (server->pid == 0 || server->exited)
		return false;
	int status = 0;
	pid_t r = waitpid(server->pid, &status, WNOHANG);
	if (r == server->pid) {
		server->exited = true;
		server->exit_status = status;
		return false;
	}
	return true;
}

static int server_alive_cb(void *ctx)
{
	return br_server_alive(ctx) ? 1 : 0;
}

/* The first "Error: ..." line of a log tail (lines joined by " | "), so that
 * a short message leads with the server's own reason; "" when none. */
static void first_error_line(const char *tail, char *out, size_t cap)
{
	out[0] = '\0';
	const char *e = strstr(tail, "Error:");
	if (e == NULL || cap == 0)
		return;
	const char *end = strstr(e, " | ");
	size_t n = end != NULL ? (size_t)(end - e) : strlen(e);
	snprintf(out, cap, "%.*s", (int)n, e);
}

br_status_t br_server_connect(br_server_t *server, rsp_transport_t *transport, br_error_t *err)
{
	br_status_t st = rsp_transport_tcp_connect_retry(transport, BR_SERVER_HOST, server->port,
	                                                 BR_SERVER_READY_TIMEOUT_MS,
	                                                 server_alive_cb, server, err);
	if (st == BR_OK)
		return BR_OK;
	char tail[BR_SERVER_STDERR_TAIL];
	br_server_log_tail(server, tail, sizeof(tail));
	char reason[BR_SERVER_STDERR_TAIL];
	first_error_line(tail, reason, sizeof(reason));
	if (!br_server_alive(server) && reason[0] != '\0')
		return br_error_set(err, BR_ERR_INFRA,
		                    "%s exited before accepting a connection, saying \"%s\" (its "
		                    "output: %s)",
		                    server->name, reason, tail);
	if (!br_server_alive(server))
		return br_error_set(err, BR_ERR_INFRA,
		                    "%s exited before accepting a connection: %s", server->name,
		                    tail[0] != '\0' ? tail : "(it printed nothing)");
	return br_error_prefix(err, "%s did not accept a connection on port %u%s%s", server->name,
	                       (unsigned)server->port, tail[0] != '\0' ? "; it said: " : "", tail);
}

void br_server_log_tail(const br_server_t *server, char *buf, size_t cap)
{
	buf[0] = '\0';
	if (cap == 0 || server->log_path[0] == '\0')
		return;
	FILE *f = fopen(server->log_path, "rb");
	if (f == NULL)
		return;
	char raw[BR_SERVER_STDERR_TAIL];
	long want = (long)sizeof(raw) - 1;
	if (fseek(f, 0, SEEK_END) == 0) {
		long size = ftell(f);
		fseek(f, size > want ? size - want : 0, SEEK_SET);
	}
	size_t n = fread(raw, 1, sizeof(raw) - 1, f);
	fclose(f);
	while (n > 0 && (raw[n - 1] == '\n' || raw[n - 1] == '\r' || raw[n - 1] == ' '))
		n--;
	size_t o = 0;
	for (size_t i = 0; i < n && o + 4 < cap; i++) {
		if (raw[i] == '\n') {
			memcpy(buf + o, " | ", 3);
			o += 3;
		} else if (raw[i] != '\r') {
			buf[o++] = raw[i];
		}
	}
	buf[o] = '\0';
}

/* The first line of text[0, n) holding needle, into buf; false when none. */
static bool line_with(const char *text, size_t n, const char *needle, char *buf, size_t cap)
{
	size_t k = strlen(needle);
	for (size_t i = 0; i + k <= n; i++) {
		if (memcmp(text + i, needle, k) != 0)
			continue;
		size_t start = i, end = i;
		while (start > 0 && text[start - 1] != '\n')
			start--;
		while (end < n && text[end] != '\n' && text[end] != '\r')
			end++;
		snprintf(buf, cap, "%.*s", (int)(end - start), text + start);
		return true;
	}
	return false;
}

void br_server_fatal_line(const br_server_t *server, char *buf, size_t cap)
{
	if (cap == 0)
		return;
	buf[0] = '\0';
	if (server->log_path[0] == '\0')
		return;
	FILE *f = fopen(server->log_path, "rb");
	if (f == NULL)
		return;
	char *text = xmalloc(SERVER_FATAL_SCAN_BYTES);
	size_t n = fread(text, 1, SERVER_FATAL_SCAN_BYTES, f);
	fclose(f);
	if (!line_with(text, n, "fatal:", buf, cap))
		(void)line_with(text, n, "Error:", buf, cap);
	free(text);
}

void br_server_kill(br_server_t *server)
{
	if (server->pid != 0 && br_server_alive(server))
		kill(server->pid, SIGKILL);
}

void br_server_stop(br_server_t *server)
{
	if (server->pid != 0 && br_server_alive(server)) {
		kill(server->pid, SIGTERM);
		int64_t deadline = br_clock_ms() + BR_SERVER_STOP_GRACE_MS;
		while (br_server_alive(server) && br_clock_remaining_ms(deadline) > 0) {
			struct timespec pause = {0, BR_SERVER_POLL_MS * 1000000L};
			nanosleep(&pause, NULL);
		}
		if (br_server_alive(server)) {
			kill(server->pid, SIGKILL);
			waitpid(server->pid, &server->exit_status, 0);
			server->exited = true;
		}
	}
	if (server->log_path[0] != '\0')
		unlink(server->log_path);
	server->log_path[0] = '\0';
	if (server->rr_dir[0] != '\0') {
		char file[sizeof(server->rr_dir) + sizeof(BR_SERVER_RR_FILE) + 1];
		snprintf(file, sizeof(file), "%s/%s", server->rr_dir, BR_SERVER_RR_FILE);
		unlink(file);
		rmdir(server->rr_dir);
	}
	server->rr_dir[0] = '\0';
	server->pid = 0;
}
