/*
 * What one `run`, `check` or rack worker asks of the runner: the command's
 * options and the callbacks that carry progress, firmware output, notices
 * and the board lock back to the caller; and the endpoint those options make
 * of a board.
 */
#ifndef BENCHRACK_RUN_RUN_SETTINGS_H
#define BENCHRACK_RUN_RUN_SETTINGS_H

#include <stdbool.h>
#include <stdint.h>

#include "common/error.h"
#include "config/board.h"
#include "config/upload_config.h"
#include "debug/endpoint.h"
#include "debug/target.h"
#include "run/image_load.h"

/* Takes (take true) or gives back the lock of the board ep reaches, for the
 * time the runner uses it; NULL when the caller holds it already. */
typedef br_status_t (*br_run_lock_fn)(void *ctx, const br_endpoint_t *ep, bool take,
                                      br_error_t *err);

/* The runs check takes of a noisy bench by default, and the most it takes
 * (a baseline's runs are read back 30 at most). */
#define BR_RUN_CHECK_RUNS 5U
#define BR_RUN_CHECK_RUNS_MAX 30U

typedef struct br_run_settings {
	bool check;                /* enforce budgets and regressions through the exit code */
	const char *suite_path;    /* NULL: every bench of one firmware, no suite */
	const char *elf_path;      /* the firmware (ELF argument or --firmware), or NULL */
	const char *board;         /* --board: instead of the suite's boards */
	const char *results_dir;   /* where runs/ and baselines/ are */
	const char *format;        /* --format, or NULL */
	const char *output;        /* --output, or NULL (stdout) */
	const char *json_path;     /* --json: the run record, also here */
	const char *baseline_path; /* --baseline: instead of the suite's baseline on the board */
	const char *qemu_program;  /* --qemu */
	const char *against;       /* --against REF: A/B against the firmware built at REF */
	const char *host_program;  /* --board host: the benches as a host program (benches/host/) */
	const char *commit;        /* --commit */
	bool write_baseline;
	bool iterations_set, warmup_set;
	uint32_t iterations, warmup;
	/* --min-detectable P: iterations enough for the shift test to resolve P %
	 * of each noisy figure, sized from the baseline's spread (0: not asked) */
	double min_detectable_percent;
	/* --runs N: the runs (launches) check takes of a noisy bench on the host
	 * whose stored baseline holds two or more runs, judged by their median
	 * (stats/run_shift.h); 0: BR_RUN_CHECK_RUNS, 1: one run */
	uint32_t check_runs;
	int timeout_s;                           /* 0: the suite's */
	const br_upload_config_t *upload_config; /* --upload-config: sinks instead of the suite's */
	/* A gdbserver at host:port that serves this board instead of what its
	 * file says (a rack's `remote:`); NULL: the board file's server. */
	const char *remote_host;
	uint16_t remote_port;
	const char *remote_flavour; /* that gdbserver's flavour name; NULL: the board's */
	/* Callbacks (each may be NULL). */
	void (*progress)(void *ctx, unsigned index, unsigned count, const char *name);
	void (*progress_done)(void *ctx);
	void *progress_ctx;
	br_target_output_fn firmware_output; /* what the firmware prints */
	void *firmware_output_ctx;
	br_image_progress_fn load_progress; /* a long load's bytes written */
	void *load_progress_ctx;
	br_image_loaded_fn load_done; /* what a load did, once done */
	void *load_done_ctx;
	void (*notice)(void *ctx, const char *text); /* one line for the user */
	void *notice_ctx;
	br_run_lock_fn lock;
	void *lock_ctx;
} br_run_settings_t;

/*
 * The endpoint that reaches board for the image elf under settings s (the
 * board file's server, or s->remote_host:port with the board's flavour or
 * s->remote_flavour),
 * with s->qemu_program applied. Strings point into the board.
 */
br_status_t br_run_settings_endpoint(const br_run_settings_t *s, const br_board_t *board,
                                     const char *elf, br_endpoint_t *ep, br_error_t *err);

#endif
