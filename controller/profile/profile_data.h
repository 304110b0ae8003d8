/*
 * A profile as data: the call chains seen (root first, each a list of frame
 * ids) with how often each was seen, the frames' names, the self count of
 * every leaf PC (for source lines), and the honest figures around them. Both
 * modes fill one: --exact counts instructions (every one of the region),
 * sampling counts samples. The output formats (profile/format.h) read it;
 * nothing here talks to a target.
 */
#ifndef BENCHRACK_PROFILE_PROFILE_DATA_H
#define BENCHRACK_PROFILE_PROFILE_DATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The frame that ends a chain the unwinder could not follow further. */
#define BR_PROFILE_UNKNOWN_FRAME "[unknown]"
#define BR_PROFILE_TEXT 192U

typedef enum br_profile_mode {
	BR_PROFILE_EXACT,   /* every instruction of the region, single-stepped */
	BR_PROFILE_SAMPLED, /* PC samples with their call chains */
} br_profile_mode_t;

typedef struct br_profile_frame {
	char *name;       /* function name, "[unknown]", or "0x08000124" outside every function */
	uint32_t address; /* the function's entry (0 for [unknown]) */
	char *file;       /* source file of the entry, or NULL (owned) */
	unsigned line;
} br_profile_frame_t;

typedef struct br_profile_chain {
	uint32_t *frames; /* ids, root first */
	size_t depth;
	uint64_t count;
} br_profile_chain_t;

typedef struct br_profile_pc {
	uint32_t pc;
	uint32_t frame; /* the id of its function's frame */
	uint64_t count;
} br_profile_pc_t;

/* Self counts per source line (br_profile_resolve_lines). */
typedef struct br_profile_line {
	char *file; /* owned */
	unsigned line;
	uint32_t frame; /* the function it is in */
	uint64_t count;
} br_profile_line_t;

/* How the frames above the leaf were found (sampled mode). */
typedef struct br_profile_unwind_counts {
	uint64_t cfi;           /* DWARF CFI rows */
	uint64_t frame_record;  /* frame records (r7, with the prologue) */
	uint64_t link_register; /* LR of a leaf */
	uint64_t exception;     /* Cortex-M exception frames crossed */
	uint64_t failed_chains; /* chains that end in [unknown] */
} br_profile_unwind_counts_t;

typedef struct br_profile {
	br_profile_mode_t mode;
	br_profile_frame_t *frames;
	size_t nframes, frames_cap;
	br_profile_chain_t *chains;
	size_t nchains, chains_cap;
	br_profile_pc_t *pcs; /* open-addressed by pc; pcs_cap slots, npcs used */
	size_t npcs, pcs_cap;
	br_profile_line_t *lines; /* by count, highest first */
	uint32_t *sequence;       /* sampled: the chain of each counted sample, in time order */
	size_t nsequence, sequence_cap;
	size_t nlines;
	uint64_t counted; /* in-region instructions (exact) or samples (sampled) */
	/* Sampled mode. */
	uint64_t samples_taken;       /* stops read, in or out of the region */
	uint64_t outside_region;      /* samples whose chain is not in the region */
	uint64_t samples_lost;        /* stops not counted: the two reasons below */
	uint64_t lost_stack_not_read; /* SP below the stack window read (the next reach further) */
	uint64_t lost_at_region_end;  /* stops at the region's end breakpoint, not draws */
	uint64_t region_passes;       /* passes of a time region sampled (0: no region) */
	br_profile_unwind_counts_t unwind;
	bool pcsr;      /* from DWT_PCSR, never halting: flat (each chain one frame) */
	double rate_hz; /* asked for; 0: as fast as the server allows */
	double seconds; /* host time spent taking them */
	/* What one sample cost the host (stop, reads, resume, unwinding; not the
	 * paced waits), in seconds: median, 90th percentile, mean. */
	bool sample_cost_known;
	/* Write system calls to the server while sampling (one per sample where
	 * the interrupt, the reads and the resume share a write). */
	uint64_t server_writes;
	double sample_cost_median_s, sample_cost_p90_s, sample_cost_mean_s;
	/* Exact mode. */
	uint64_t counter_delta; /* the counter across the stepped region (+1: see exact.h) */
	bool counter_known;
	uint64_t step_limit;
	/* WFI/WFE instructions counted: the core slept that often in the region
	 * (the time asleep is in no count). */
	uint64_t sleeps;
	/* From QEMU's execution log (exec_log.h) rather than over the debug
	 * port; sampled: interval, instructions between samples on average. */
	bool exec_log;
	uint64_t interval;
	/* Sampled by halting: whether the sampler's bias on this server is
	 * known (a real core halted in real time); false on QEMU. */
	bool bias_known;
	/* Provenance for the outputs. */
	char elf_path[BR_PROFILE_TEXT];
	char server[BR_PROFILE_TEXT];
	char board[BR_PROFILE_TEXT];
	char region[BR_PROFILE_TEXT]; /* "function profile_caller", "range a..b", "everything" */
	char counter[64];             /* the counter's name, for exact mode's cross-check */
	char unit[64];                /* "instructions" or "samples" */
} br_profile_t;

/* Empties p (mode and provenance zeroed too). */
void br_profile_data_init(br_profile_t *p, br_profile_mode_t mode);

/* Frees everything p holds; p can be initialised again. */
void br_profile_data_free(br_profile_t *p);

/* The id of the frame called name (entry address, file:line when known),
 * added on first use. */
uint32_t br_profile_frame_id(br_profile_t *p, const char *name, uint32_t address, const char *file,
                             unsigned line);

/* Counts one observation (count of it) of the chain frames[0..depth), root
 * first; returns the chain's index. */
size_t br_profile_add_chain(br_profile_t *p, const uint32_t *frames, size_t depth, uint64_t count);

/* Counts count observations of the leaf pc (in the function of frame id). */
void br_profile_add_pc(br_profile_t *p, uint32_t pc, uint32_t frame, uint64_t count);

/* Per frame: self (leaf of a chain) and total (anywhere on a chain, once per
 * chain) counts. self and total have p->nframes entries, the caller's. */
void br_profile_frame_counts(const br_profile_t *p, uint64_t *self, uint64_t *total);

/* The binomial standard error of a share of k in n (sqrt(p(1-p)/n)), as a
 * fraction; 0 when n is 0. */
double br_profile_share_error(uint64_t k, uint64_t n);

/* Records that the next sample in time order was of chain index (sampled mode). */
void br_profile_add_sequence(br_profile_t *p, size_t chain);

/*
 * The standard errors of every frame's self and total share (fractions, the
 * caller's arrays of p->nframes): by batch means — the samples in time order
 * cut into BR_PROFILE_BATCHES batches, the spread of the share across them —
 * so that samples that are not independent (a sampler whose stops follow one
 * another) widen the error as they should; never below the binomial error.
 * With fewer than BR_PROFILE_MIN_BATCHED samples in sequence: binomial only.
 */
void br_profile_frame_errors(const br_profile_t *p, double *self_err, double *total_err);

/* Per frame, what every format shows: self and total counts
 * (br_profile_frame_counts) and their share errors (br_profile_frame_errors),
 * one entry per frame and one more. */
typedef struct br_profile_frame_figures {
	uint64_t *self, *total;
	double *self_err, *total_err;
} br_profile_frame_figures_t;

/* Allocates and fills *f for p; free with br_profile_frame_figures_free. */
void br_profile_frame_figures_compute(const br_profile_t *p, br_profile_frame_figures_t *f);

/* Frees what br_profile_frame_figures_compute allocated and leaves *f empty. */
void br_profile_frame_figures_free(br_profile_frame_figures_t *f);

#define BR_PROFILE_BATCHES 20U
#define BR_PROFILE_MIN_BATCHED 200U

#endif
