/*
 * Unit tests of controller/rack and config/rack.c: board locks (held, busy
 * naming the owner, released, a dead owner's record taken over), the
 * classification and exit code of a rack, and rack files good and bad.
 * usage: test_rack_units SOURCE_DIR (tests/rack, for data/).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../unit/check.h"
#include "config/rack.h"
#include "rack/rack_lock.h"
#include "rack/rack_result.h"

#define PATH_BYTES 1024

static void test_lock(void)
{
	char dir[] = "/tmp/rack-units-XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	br_error_t err;
	br_rack_lock_t a, b;
	br_rack_lock_owner_t holder;
	memset(&holder, 0, sizeof(holder));
	CHECK(br_rack_lock_acquire(dir, "np2", 0, &a, NULL, &err) == BR_OK);
	CHECK(!a.took_over);
	CHECK(a.self.pid == (long)getpid());
	/* a second owner (another open file, as another process) is refused */
	CHECK(br_rack_lock_acquire(dir, "np2", 100, &b, &holder, &err) == BR_ERR_INFRA);
	CHECK(strstr(err.message, "in use by pid") != NULL);
	CHECK(holder.pid == (long)getpid());
	CHECK(holder.started_ms == a.self.started_ms);
	/* another board is independent */
	CHECK(br_rack_lock_acquire(dir, "nd2", 0, &b, NULL, &err) == BR_OK);
	br_rack_lock_release(&b);
	br_rack_lock_release(&a);
	CHECK(a.released_ms >= a.self.started_ms);
	CHECK(br_rack_lock_acquire(dir, "np2", 0, &b, NULL, &err) == BR_OK);
	CHECK(!b.took_over); /* released cleanly: no record left */
	br_rack_lock_release(&b);

	/* a record whose owner is gone (no flock held): taken over */
	char path[PATH_BYTES];
	snprintf(path, sizeof(path), "%s/np2.lock", dir);
	FILE *f = fopen(path, "w");
	CHECK(f != NULL);
	fputs("424242 gone-host 1700000000000\n", f);
	fclose(f);
	CHECK(br_rack_lock_acquire(dir, "np2", 0, &a, NULL, &err) == BR_OK);
	CHECK(a.took_over);
	CHECK(a.stale.pid == 424242);
	CHECK(strcmp(a.stale.host, "gone-host") == 0);
	CHECK(a.stale.started_ms == 1700000000000LL);
	br_rack_lock_release(&a);

	/* the history: two acquire/release pairs per board, in order */
	snprintf(path, sizeof(path), "%s/np2.history", dir);
	f = fopen(path, "r");
	CHECK(f != NULL);
	char line[256];
	int n = 0;
	while (f != NULL && fgets(line, sizeof(line), f) != NULL) {
		CHECK_MSG(strncmp(line, n % 2 == 0 ? "acquired " : "released ", 9) == 0,
		          "line %d: %s", n, line);
		n++;
	}
	if (f != NULL)
		fclose(f);
	CHECK(n == 6);
	static const char *const files[] = {"np2.lock", "np2.history", "nd2.lock", "nd2.history"};
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		unlink(path);
	}
	rmdir(dir);
}

static void test_outcomes(void)
{
	br_rack_board_result_t boards[3];
	memset(boards, 0, sizeof(boards));
	for (size_t i = 0; i < 3; i++) {
		boards[i].suite_count = 2;
		boards[i].suites[0].outcome = BR_RACK_PASS;
		boards[i].suites[1].outcome = BR_RACK_PASS;
	}
	CHECK(br_rack_exit_code(boards, 3) == 0);
	boards[1].suites[1].outcome = BR_RACK_INFRA;
	CHECK(br_rack_board_outcome(&boards[1]) == BR_RACK_INFRA);
	CHECK(br_rack_exit_code(boards, 3) == 3);
	boards[2].suites[0].outcome = BR_RACK_REGRESSION;
	CHECK(br_rack_exit_code(boards, 3) == 1); /* a regression wins over infra */
	boards[2].suites[1].outcome = BR_RACK_INFRA;
	CHECK(br_rack_board_outcome(&boards[2]) == BR_RACK_REGRESSION);
	boards[2].suites[0].outcome = BR_RACK_NOT_RUN;
	boards[2].suites[1].outcome = BR_RACK_PASS;
	boards[1].suites[1].outcome = BR_RACK_PASS;
	CHECK(br_rack_exit_code(boards, 3) == 3); /* not run is not a pass */
	/* a health check only: pass when healthy */
	br_rack_board_result_t probe_only;
	memset(&probe_only, 0, sizeof(probe_only));
	CHECK(br_rack_board_outcome(&probe_only) == BR_RACK_NOT_RUN);
	probe_only.probed = true;
	CHECK(br_rack_board_outcome(&probe_only) == BR_RACK_INFRA);
	probe_only.healthy = true;
	CHECK(br_rack_board_outcome(&probe_only) == BR_RACK_PASS);
	br_rack_outcome_t o;
	for (int k = BR_RACK_NOT_RUN; k <= BR_RACK_INFRA; k++) {
		CHECK(br_rack_outcome_parse(br_rack_outcome_key((br_rack_outcome_t)k), &o));
		CHECK(o == (br_rack_outcome_t)k);
	}
	CHECK(!br_rack_outcome_parse("maybe", &o));
}

static void test_rack_file(const char *src)
{
	char path[PATH_BYTES], configs[PATH_BYTES];
	snprintf(configs, sizeof(configs), "%s/../../configs", src);
	snprintf(path, sizeof(path), "%s/data/good.yaml", src);
	br_rack_t rack;
	br_error_t err;
	CHECK_MSG(br_rack_load(path, configs, &rack, &err) == BR_OK, "%s", err.message);
	CHECK(rack.entry_count == 3);
	CHECK(rack.retries == 2 && rack.parallel == 3);
	if (rack.entry_count == 3) {
		CHECK(br_rack_entry_has_tag(&rack.entries[0], "m4"));
		CHECK(br_rack_entry_has_tag(&rack.entries[0], "a"));
		CHECK(!br_rack_entry_has_tag(&rack.entries[0], "m7"));
		CHECK(rack.entries[0].suite_count == 1);
		CHECK(strstr(rack.entries[0].suite_paths[0], "data/default.yaml") != NULL);
		CHECK(strstr(rack.entries[0].board_path, "boards/qemu-netduinoplus2.yaml") != NULL);
		CHECK(strcmp(rack.entries[1].remote_host, "lab-pi") == 0);
		CHECK(rack.entries[1].remote_port == 3333);
		CHECK(rack.entries[1].retries.set && rack.entries[1].retries.value == 0);
		CHECK(rack.entries[2].suite_count == 0);
		br_rack_free(&rack);
	}
	static const struct {
		const char *file, *message;
	} bad[] = {
	    {"bad-duplicate.yaml", ":5:12: board 'a' listed twice (first at line 4)"},
	    {"bad-remote.yaml", ":4:50: remote 'lab-pi' is not host:port"},
	    {"bad-board.yaml", ":4:22: board file 'no-such-board' not found"},
	    {"bad-nosuites.yaml", "board 'a' has no suites"},
	    {"bad-key.yaml", "serail"},
	    {"bad-dot.yaml", ":4:12: board name '.' cannot name a folder"},
	    {"bad-dotdot.yaml", ":4:12: board name '..' cannot name a folder"},
	    {"bad-long.yaml", ":4:12: board name 'bbbbbbbbbb"},
	    {"bad-rackname.yaml", ":1:7: rack name '..' cannot name a file"},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(path, sizeof(path), "%s/data/%s", src, bad[i].file);
		br_error_clear(&err);
		CHECK_MSG(br_rack_load(path, configs, &rack, &err) == BR_ERR_INPUT, "%s",
		          bad[i].file);
		CHECK_MSG(strstr(err.message, bad[i].message) != NULL, "%s: got '%s'", bad[i].file,
		          err.message);
	}
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: test_rack_units SOURCE_DIR\n");
		return 2;
	}
	test_lock();
	test_outcomes();
	test_rack_file(argv[1]);
	return check_finish();
}
