/*
 * What a breakpoint session measures (DESIGN.md, "Breakpoint session"): a
 * range from one location to another, or each call of a function from its
 * entry to its return. Resolved from the ELF alone.
 */
#ifndef BENCHRACK_MEASURE_SPAN_H
#define BENCHRACK_MEASURE_SPAN_H

#include "common/error.h"
#include "elf/elf_file.h"
#include "measure/location.h"

typedef enum br_span_kind {
	BR_SPAN_RANGE,    /* from `from` (before it executes) to `to` (before it executes) */
	BR_SPAN_FUNCTION, /* from the entry to the return address (LR at entry), each call */
} br_span_kind_t;

typedef struct br_span {
	br_span_kind_t kind;
	br_location_t from; /* RANGE: the start; FUNCTION: the entry */
	br_location_t to; /* RANGE: the end (equal to from: one pass of a loop); FUNCTION: unused */
} br_span_t;

/* Resolves a range (br_location_resolve for each end) into *out. */
br_status_t br_span_range(const br_elf_t *elf, const char *from, const char *to, br_span_t *out,
                          br_error_t *err);

/*
 * Resolves a function (a symbol, or an address that is a function's entry)
 * into *out. Anything else is BR_ERR_USAGE: a line or an address inside a
 * function has no return address of its own.
 */
br_status_t br_span_function(const br_elf_t *elf, const char *name, br_span_t *out,
                             br_error_t *err);

/* "range" or "function": the words reports use. */
const char *br_span_kind_name(br_span_kind_t kind);

#endif
