/*
 * Fuzz target: the payload parsers (stop replies, qSupported replies, hex
 * numbers) fed arbitrary bytes as one decoded payload. Invariants:
 *
 * - a failure is BR_ERR_PROTOCOL with a NUL-terminated message that names
 *   the parser;
 * - a success respects every bound of the result struct;
 * - a success, written back out in canonical form (all 'T', fixed widths)
 *   and parsed again, gives the same result;
 * - rsp_hex_u32 agrees with a 64-bit reference on every input.
 */
#include "fuzz_target.h"

#include "rsp/hex.h"
#include "rsp/protocol.h"
#include "rsp/qsupported.h"
#include "rsp/stop_reply.h"

#include <stdarg.h>
#include <string.h>

/* Large enough for any canonical stop reply: 2 hex digits per output byte. */
#define FUZZ_TEXT_BYTES (2 * RSP_STOP_OUTPUT_MAX + 4096)

static rsp_stop_reply_t fuzz_first, fuzz_second;
static char fuzz_text[FUZZ_TEXT_BYTES];

/* Appends printf output to fuzz_text at *pos; requires it to fit. */
static void fuzz_append(size_t *pos, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void fuzz_append(size_t *pos, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(fuzz_text + *pos, sizeof(fuzz_text) - *pos, fmt, ap);
	va_end(ap);
	fuzz_require(n >= 0 && (size_t)n < sizeof(fuzz_text) - *pos, "canonical text overflow");
	*pos += (size_t)n;
}

static void fuzz_check_error(br_status_t st, const br_error_t *err, const char *name)
{
	fuzz_require(st == BR_ERR_PROTOCOL && err->status == BR_ERR_PROTOCOL, "error status");
	fuzz_require(memchr(err->message, '\0', sizeof(err->message)) != NULL, "message NUL");
	fuzz_require(strstr(err->message, name) != NULL, "message names the parser");
}

static void fuzz_check_bounds(const rsp_stop_reply_t *r)
{
	fuzz_require(r->register_count <= RSP_STOP_REGISTERS_MAX, "register count");
	for (size_t i = 0; i < r->register_count; i++)
		fuzz_require(r->registers[i].size >= 1 &&
		                 r->registers[i].size <= RSP_STOP_REGISTER_MAX_BYTES,
		             "register size");
	fuzz_require(r->output.len <= RSP_STOP_OUTPUT_MAX, "output length");
	fuzz_require(r->output.text[r->output.len] == '\0', "output NUL");
	fuzz_require(strlen(r->fileio.name) <= RSP_FILEIO_NAME_MAX, "fileio name length");
	fuzz_require(r->fileio.argc <= RSP_FILEIO_ARGS_MAX, "fileio argc");
	fuzz_require(r->kind != RSP_STOP_FILEIO || r->fileio.name[0] != '\0', "fileio name");
	fuzz_require(r->kind == RSP_STOP_EXITED || r->kind == RSP_STOP_TERMINATED ||
	                 r->code <= 0xff,
	             "signal or error code is one byte");
}

/* Writes r in canonical form into fuzz_text; returns its length. */
static size_t fuzz_canonical(const rsp_stop_reply_t *r)
{
	size_t pos = 0;
	switch (r->kind) {
	case RSP_STOP_SIGNAL:
		fuzz_append(&pos, "T%02x", (unsigned)r->code);
		for (size_t i = 0; i < r->register_count; i++) {
			const rsp_stop_register_t *reg = &r->registers[i];
			fuzz_append(&pos, "%x:", (unsigned)reg->regno);
			for (unsigned b = 0; b < reg->size; b++)
				fuzz_append(&pos, "%02x",
				            (unsigned)((reg->value >> (8 * b)) & 0xff));
			fuzz_append(&pos, ";");
		}
		if (r->has_thread && r->has_pid)
			fuzz_append(&pos, "thread:p%x.%x;", (unsigned)r->pid, (unsigned)r->tid);
		else if (r->has_thread)
			fuzz_append(&pos, "thread:%x;", (unsigned)r->tid);
		static const char *const reasons[] = {"",      "swbreak", "hwbreak",
		                                      "watch", "rwatch",  "awatch"};
		if (r->reason == RSP_STOP_REASON_SWBREAK || r->reason == RSP_STOP_REASON_HWBREAK)
			fuzz_append(&pos, "%s:;", reasons[r->reason]);
		else if (r->reason != RSP_STOP_REASON_NONE)
			fuzz_append(&pos, "%s:%x;", reasons[r->reason], (unsigned)r->watch_address);
		break;
	case RSP_STOP_EXITED:
	case RSP_STOP_TERMINATED:
		fuzz_append(&pos, "%c%x", r->kind == RSP_STOP_EXITED ? 'W' : 'X',
		            (unsigned)r->code);
		if (r->has_pid)
			fuzz_append(&pos, ";process:%x", (unsigned)r->pid);
		break;
	case RSP_STOP_OUTPUT:
		fuzz_append(&pos, "O");
		for (size_t i = 0; i < r->output.len; i++)
			fuzz_append(&pos, "%02x", (unsigned)(uint8_t)r->output.text[i]);
		break;
	case RSP_STOP_FILEIO:
		fuzz_append(&pos, "F%s", r->fileio.name);
		for (size_t i = 0; i < r->fileio.argc; i++) {
			fuzz_append(&pos, ",%x", (unsigned)r->fileio.args[i].value);
			if (r->fileio.args[i].has_length)
				fuzz_append(&pos, "/%x", (unsigned)r->fileio.args[i].length);
		}
		break;
	case RSP_STOP_ERROR:
		fuzz_append(&pos, "E%02x", (unsigned)r->code);
		break;
	}
	return pos;
}

/* Requires the fields the canonical form carries to be equal. */
static void fuzz_check_same(const rsp_stop_reply_t *a, const rsp_stop_reply_t *b)
{
	fuzz_require(a->kind == b->kind && a->code == b->code, "kind/code differ");
	fuzz_require(a->has_thread == b->has_thread && a->has_pid == b->has_pid, "thread flags");
	fuzz_require(!a->has_pid || a->pid == b->pid, "pid differs");
	fuzz_require(!a->has_thread || a->tid == b->tid, "tid differs");
	fuzz_require(a->reason == b->reason, "reason differs");
	fuzz_require(a->reason < RSP_STOP_REASON_WATCH || a->watch_address == b->watch_address,
	             "watch address differs");
	fuzz_require(a->register_count == b->register_count && b->registers_dropped == 0,
	             "register count differs");
	for (size_t i = 0; i < a->register_count; i++)
		fuzz_require(a->registers[i].regno == b->registers[i].regno &&
		                 a->registers[i].value == b->registers[i].value &&
		                 a->registers[i].size == b->registers[i].size,
		             "register differs");
	fuzz_require(a->output.len == b->output.len &&
	                 memcmp(a->output.text, b->output.text, a->output.len) == 0,
	             "output differs");
	fuzz_require(strcmp(a->fileio.name, b->fileio.name) == 0 &&
	                 a->fileio.argc == b->fileio.argc,
	             "fileio call differs");
	for (size_t i = 0; i < a->fileio.argc; i++)
		fuzz_require(a->fileio.args[i].value == b->fileio.args[i].value &&
		                 a->fileio.args[i].has_length == b->fileio.args[i].has_length &&
		                 (!a->fileio.args[i].has_length ||
		                  a->fileio.args[i].length == b->fileio.args[i].length),
		             "fileio argument differs");
}

static void fuzz_stop_reply(const char *text, size_t size)
{
	br_error_t err;
	br_error_clear(&err);
	br_status_t st = rsp_stop_reply_parse(text, size, &fuzz_first, &err);
	if (st != BR_OK) {
		fuzz_check_error(st, &err, "stop reply");
		return;
	}
	fuzz_check_bounds(&fuzz_first);
	size_t n = fuzz_canonical(&fuzz_first);
	br_error_clear(&err);
	st = rsp_stop_reply_parse(fuzz_text, n, &fuzz_second, &err);
	fuzz_require(st == BR_OK, "canonical form rejected");
	fuzz_check_same(&fuzz_first, &fuzz_second);
}

static bool fuzz_flag_get(const rsp_features_t *f, size_t offset)
{
	bool value;
	memcpy(&value, (const char *)f + offset, sizeof(value));
	return value;
}

static void fuzz_qsupported(const char *text, size_t size)
{
	rsp_features_t a, b;
	br_error_t err;
	br_error_clear(&err);
	br_status_t st = rsp_features_parse(text, size, &a, &err);
	if (st != BR_OK) {
		fuzz_check_error(st, &err, "qSupported");
		return;
	}
	fuzz_require(a.packet_size >= 1 && a.packet_size <= RSP_PAYLOAD_LIMIT, "packet size");
	fuzz_require(a.packet_size_advertised || a.packet_size == RSP_DEFAULT_PACKET_SIZE,
	             "default packet size");
	size_t flag_count = 0;
	const rsp_feature_flag_t *flags = rsp_feature_flags_list(&flag_count);
	size_t pos = 0;
	if (a.packet_size_advertised)
		fuzz_append(&pos, "PacketSize=%zx;", a.packet_size);
	for (size_t i = 0; i < flag_count; i++)
		fuzz_append(&pos, "%s%c;", flags[i].name,
		            fuzz_flag_get(&a, flags[i].offset) ? '+' : '-');
	br_error_clear(&err);
	fuzz_require(rsp_features_parse(fuzz_text, pos, &b, &err) == BR_OK,
	             "canonical qSupported rejected");
	fuzz_require(a.packet_size == b.packet_size &&
	                 a.packet_size_advertised == b.packet_size_advertised,
	             "packet size differs");
	for (size_t i = 0; i < flag_count; i++)
		fuzz_require(fuzz_flag_get(&a, flags[i].offset) ==
		                 fuzz_flag_get(&b, flags[i].offset),
		             "flag differs");
}

/* rsp_hex_u32 against a 64-bit reference, from every starting offset up to 16. */
static void fuzz_hex(const char *text, size_t size)
{
	for (size_t start = 0; start < size && start < 16; start++) {
		const char *p = text + start;
		const char *end = text + size;
		uint64_t ref = 0;
		size_t digits = 0;
		bool overflow = false;
		while (p + digits < end && rsp_hex_digit_value((unsigned char)p[digits]) >= 0) {
			ref = ref * 16 + (uint64_t)rsp_hex_digit_value((unsigned char)p[digits]);
			if (ref > UINT32_MAX)
				overflow = true;
			digits++;
		}
		uint32_t v = 0;
		const char *q = p;
		bool ok = rsp_hex_u32(&q, end, &v);
		bool want = digits > 0 && !overflow;
		fuzz_require(ok == want, "rsp_hex_u32 acceptance");
		fuzz_require(ok ? (q == p + digits && v == ref) : q == p, "rsp_hex_u32 result");
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	fuzz_stop_reply(text, size);
	fuzz_qsupported(text, size);
	fuzz_hex(text, size);
	return 0;
}
