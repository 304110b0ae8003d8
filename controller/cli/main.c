/*
 * benchrack — measure firmware on Cortex-M through the debug port.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "run/install_paths.h"

static void usage(FILE *out)
{
	fputs("usage: benchrack COMMAND [options]\n"
	      "\n"
	      "Measures firmware on Cortex-M microcontrollers through the debug port.\n"
	      "It speaks the GDB Remote Serial Protocol to the board's gdbserver (QEMU,\n"
	      "OpenOCD, pyOCD, J-Link, Black Magic Probe) and reports cycles or\n"
	      "instructions per region, function or bench, stack depth, heap and code\n"
	      "size, gated against committed baselines and budgets in CI.\n"
	      "\n"
	      "commands:\n"
	      "  run [SUITE.yaml | ELF]\n"
	      "                 measure a suite's benches on its boards, or every bench of a\n"
	      "                 suite firmware (default: the one built with this benchrack)\n"
	      "                 on the emulated board\n"
	      "  check SUITE.yaml\n"
	      "                 measure, then fail on a budget exceeded or a regression\n"
	      "                 against the board's baseline (the CI gate)\n"
	      "  diff OLD NEW   compare two records (a baseline and a run, or two runs),\n"
	      "                 or two ELFs' sizes by symbol, section and compile unit\n"
	      "  probe          connect to a board and report the server, the core, its\n"
	      "                 counters and memory map (a health check: exit 3 when not)\n"
	      "  measure ELF --from X --to Y | --function NAME | --bench NAME\n"
	      "                 measure one region, function or bench of any firmware:\n"
	      "                 calibrated, with stack, heap and sizes\n"
	      "  profile ELF [--from X --to Y | --function NAME] [--exact]\n"
	      "                 where the time goes, with call chains: sampled, or exact\n"
	      "                 (QEMU's execution log, or single-stepped); four formats\n"
	      "  upload [RUN.json ...]\n"
	      "                 post results to dashboards (InfluxDB, Pushgateway, Bencher,\n"
	      "                 a webhook) and retry what earlier runs left in the spool\n"
	      "  rack RACK.yaml [--only TAG]\n"
	      "                 run suites on every board of a lab rack at once: locked,\n"
	      "                 health-checked, retried; JUnit and LAVA outputs\n"
	      "  report -o REPORT.html\n"
	      "                 one self-contained HTML page of the run history, baselines\n"
	      "                 and racks, with charts\n"
	      "  gdb ELF [--from X --to Y | --function F] [-- GDB-ARGS]\n"
	      "                 gdb-multiarch on the board as measure reaches it, with\n"
	      "                 those breakpoints set; the server stops when gdb exits\n"
	      "  selftest [--board B]\n"
	      "                 prove the board's counter with code of known cost (the first\n"
	      "                 thing to run on a new board)\n"
	      "\n"
	      "  benchrack COMMAND --help   options of one command\n"
	      "  benchrack --version        the version\n"
	      "\n"
	      "exit codes: 0 measured and within budgets, 1 regression or budget exceeded,\n"
	      "            2 usage or configuration error, 3 infrastructure error,\n"
	      "            130, 143 run or check stopped by SIGINT, SIGTERM\n",
	      out);
}

static int dispatch(int argc, char **argv);

/* SIGPIPE's handler: nothing. A reader of standard output that went away
 * (`benchrack run | head -1`) then makes the write fail with EPIPE, which the
 * check at the end reports (exit 3), instead of the signal killing the run
 * before its record is closed. Caught rather than ignored: an ignored signal
 * stays ignored in the servers benchrack starts, a caught one is reset to
 * its default there. */
static void sigpipe_noted(int sig)
{
	(void)sig;
}

/*
 * Standard output that could not take what was written (a full disk,
 * /dev/full, an I/O error): exit 3 with a message on stderr, never 0 with
 * the output silently lost (issue 31). A closed stdout is refused before
 * anything runs: whatever opened next would be taken for it.
 */
int main(int argc, char **argv)
{
	if (fcntl(STDOUT_FILENO, F_GETFD) < 0) {
		fprintf(stderr, "benchrack: standard output is closed: give it a file, a pipe or "
		                "/dev/null\n");
		return 3;
	}
	struct sigaction pipe_action;
	memset(&pipe_action, 0, sizeof(pipe_action));
	pipe_action.sa_handler = sigpipe_noted;
	sigemptyset(&pipe_action.sa_mask);
	pipe_action.sa_flags = SA_RESTART;
	sigaction(SIGPIPE, &pipe_action, NULL);
	int rc = dispatch(argc, argv);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		int e = errno;
		fprintf(stderr, "benchrack: writing standard output failed: %s\n",
		        e == ENOSPC ? "no space left on the device" : strerror(e));
		return rc == 0 ? 3 : rc;
	}
	return rc;
}

static int dispatch(int argc, char **argv)
{
	br_install_paths_set(BR_INSTALL_DATA_REL, BR_BUILD_FIRMWARE_REL, BR_BUILD_CONFIGS_REL);
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	const char *cmd = argv[1];
	if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
		usage(stdout);
		return 0;
	}
	if (strcmp(cmd, "--version") == 0) {
		printf("benchrack %s\n", BENCHRACK_VERSION);
		return 0;
	}
	if (strcmp(cmd, "run") == 0)
		return br_cli_run(argc - 1, argv + 1);
	if (strcmp(cmd, "check") == 0)
		return br_cli_check(argc - 1, argv + 1);
	if (strcmp(cmd, "diff") == 0)
		return br_cli_diff(argc - 1, argv + 1);
	if (strcmp(cmd, "probe") == 0)
		return br_cli_probe(argc - 1, argv + 1);
	if (strcmp(cmd, "measure") == 0)
		return br_cli_measure(argc - 1, argv + 1);
	if (strcmp(cmd, "profile") == 0)
		return br_cli_profile(argc - 1, argv + 1);
	if (strcmp(cmd, "upload") == 0)
		return br_cli_upload(argc - 1, argv + 1);
	if (strcmp(cmd, "rack") == 0)
		return br_cli_rack(argc - 1, argv + 1);
	if (strcmp(cmd, "gdb") == 0)
		return br_cli_gdb(argc - 1, argv + 1);
	if (strcmp(cmd, "report") == 0)
		return br_cli_report_page(argc - 1, argv + 1);
	if (strcmp(cmd, "selftest") == 0)
		return br_cli_selftest(argc - 1, argv + 1);
	fprintf(stderr, "benchrack: unknown command '%s'; try 'benchrack --help'\n", cmd);
	return 2;
}
