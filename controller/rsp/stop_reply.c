#include "rsp/stop_reply.h"

#include "rsp/hex.h"
#include "rsp/protocol.h"
#include "rsp/quote.h"

#include <stddef.h>
#include <string.h>

/* The first character of each reply (Stop Reply Packets, File-I/O). */
#define STOP_SIGNAL 'S'
#define STOP_SIGNAL_PAIRS 'T'
#define STOP_EXITED 'W'
#define STOP_TERMINATED 'X'
#define STOP_OUTPUT 'O'
#define STOP_FILEIO 'F'
#define STOP_ERROR 'E'

/* W and X: ";process:pid" (multiprocess). */
#define STOP_PROCESS_KEY "process"
#define STOP_THREAD_KEY "thread"

/* A keyword of a T pair and the stop reason it names; has_address when its
 * value is a data address (the watchpoint reasons). */
typedef struct stop_keyword {
	const char *name;
	rsp_stop_reason_t reason;
	bool has_address;
} stop_keyword_t;

static const stop_keyword_t stop_keywords[] = {
    {"swbreak", RSP_STOP_REASON_SWBREAK, false}, {"hwbreak", RSP_STOP_REASON_HWBREAK, false},
    {"watch", RSP_STOP_REASON_WATCH, true},      {"rwatch", RSP_STOP_REASON_RWATCH, true},
    {"awatch", RSP_STOP_REASON_AWATCH, true},
};

/* The parse in progress: the whole payload (for error quotes) and the error. */
typedef struct stop_parse {
	const char *payload;
	size_t len;
	rsp_stop_reply_t *out;
	br_error_t *err;
} stop_parse_t;

static br_status_t stop_malformed(const stop_parse_t *ctx, const char *what)
{
	char quote[RSP_QUOTE_BUFFER_BYTES];
	rsp_quote(ctx->payload, ctx->len, quote, sizeof(quote));
	return br_error_set(ctx->err, BR_ERR_PROTOCOL, "malformed stop reply (%s): %s", what,
	                    quote);
}

/* Whether [p, end) is exactly the NUL-terminated word. */
static bool stop_word_is(const char *p, const char *end, const char *word)
{
	size_t n = strlen(word);
	return (size_t)(end - p) == n && memcmp(p, word, n) == 0;
}

/* Parses a hex number that must fill [p, end) exactly. */
static bool stop_hex_whole(const char *p, const char *end, uint32_t *out)
{
	return rsp_hex_u32(&p, end, out) && p == end;
}

/* Whether [p, end) is non-empty and all hex digits. */
static bool stop_all_hex(const char *p, const char *end)
{
	if (p == end)
		return false;
	for (; p < end; p++) {
		if (rsp_hex_digit_value((unsigned char)*p) < 0)
			return false;
	}
	return true;
}

/* "n:r" with n all hex: a register number and its value in target order. */
static br_status_t stop_register(const stop_parse_t *ctx, const char *key, const char *key_end,
                                 const char *value, const char *value_end)
{
	rsp_stop_reply_t *out = ctx->out;
	uint32_t regno;
	size_t digits = (size_t)(value_end - value);
	if (!stop_hex_whole(key, key_end, &regno))
		return stop_malformed(ctx, "register number out of range");
	if (!stop_all_hex(value, value_end) || digits % RSP_HEX_PER_BYTE != 0)
		return stop_malformed(ctx, "register value is not whole hex bytes");
	size_t size = digits / RSP_HEX_PER_BYTE;
	if (size > RSP_STOP_REGISTER_MAX_BYTES || out->register_count == RSP_STOP_REGISTERS_MAX) {
		out->registers_dropped++;
		return BR_OK;
	}
	rsp_stop_register_t *reg = &out->registers[out->register_count];
	if (!rsp_hex_le(&value, value_end, size, &reg->value))
		return stop_malformed(ctx, "register value");
	reg->regno = regno;
	reg->size = (unsigned)size;
	out->register_count++;
	return BR_OK;
}

/* "thread:p<pid>.<tid>" or "thread:<tid>" (Thread IDs). */
static br_status_t stop_thread(const stop_parse_t *ctx, const char *p, const char *end)
{
	rsp_stop_reply_t *out = ctx->out;
	if (rsp_expect_char(&p, end, RSP_THREAD_PROCESS)) {
		if (!rsp_hex_u32(&p, end, &out->pid) ||
		    !rsp_expect_char(&p, end, RSP_THREAD_SEPARATOR))
			return stop_malformed(ctx, "thread id");
		out->has_pid = true;
	}
	if (!stop_hex_whole(p, end, &out->tid))
		return stop_malformed(ctx, "thread id");
	out->has_thread = true;
	return BR_OK;
}

/* A keyword pair: known ones fill the reply, unknown ones are skipped. */
static br_status_t stop_keyword(const stop_parse_t *ctx, const char *key, const char *key_end,
                                const char *value, const char *value_end)
{
	rsp_stop_reply_t *out = ctx->out;
	if (stop_word_is(key, key_end, STOP_THREAD_KEY))
		return stop_thread(ctx, value, value_end);
	for (size_t i = 0; i < sizeof(stop_keywords) / sizeof(stop_keywords[0]); i++) {
		const stop_keyword_t *kw = &stop_keywords[i];
		if (!stop_word_is(key, key_end, kw->name))
			continue;
		if (kw->has_address && !stop_hex_whole(value, value_end, &out->watch_address))
			return stop_malformed(ctx, "watchpoint address");
		out->reason = kw->reason;
		return BR_OK;
	}
	return BR_OK;
}

/* The "n1:r1;n2:r2;..." list after "T AA". */
static br_status_t stop_pairs(const stop_parse_t *ctx, const char *p, const char *end)
{
	while (p < end) {
		const char *key = p;
		while (p < end && *p != RSP_PAIR_SEPARATOR && *p != RSP_LIST_SEPARATOR)
			p++;
		const char *key_end = p;
		if (key == key_end)
			return stop_malformed(ctx, "empty key in a T pair");
		if (!rsp_expect_char(&p, end, RSP_PAIR_SEPARATOR))
			return stop_malformed(ctx, "T pair without ':'");
		const char *value = p;
		const char *value_end = memchr(value, RSP_LIST_SEPARATOR, (size_t)(end - value));
		if (value_end == NULL)
			value_end = end;
		br_status_t st;
		if (stop_all_hex(key, key_end))
			st = stop_register(ctx, key, key_end, value, value_end);
		else
			st = stop_keyword(ctx, key, key_end, value, value_end);
		if (st != BR_OK)
			return st;
		p = value_end < end ? value_end + 1 : end;
	}
	return BR_OK;
}

/* "W AA" / "X AA", optionally followed by ";process:pid". */
static br_status_t stop_exit(const stop_parse_t *ctx, const char *p, const char *end)
{
	rsp_stop_reply_t *out = ctx->out;
	if (!rsp_hex_u32(&p, end, &out->code))
		return stop_malformed(ctx, "exit code");
	if (p == end)
		return BR_OK;
	if (!rsp_expect_char(&p, end, RSP_LIST_SEPARATOR))
		return stop_malformed(ctx, "text after the exit code");
	const char *key = p;
	while (p < end && *p != RSP_PAIR_SEPARATOR)
		p++;
	if (!stop_word_is(key, p, STOP_PROCESS_KEY) ||
	    !rsp_expect_char(&p, end, RSP_PAIR_SEPARATOR))
		return stop_malformed(ctx, "expected ';process:pid'");
	if (!stop_hex_whole(p, end, &out->pid))
		return stop_malformed(ctx, "process id");
	out->has_pid = true;
	return BR_OK;
}

/* "O XX..." console output. */
static br_status_t stop_output(const stop_parse_t *ctx, const char *p, const char *end)
{
	rsp_stop_reply_t *out = ctx->out;
	size_t digits = (size_t)(end - p);
	if (digits % RSP_HEX_PER_BYTE != 0 || (digits > 0 && !stop_all_hex(p, end)))
		return stop_malformed(ctx, "console output is not whole hex bytes");
	size_t n = digits / RSP_HEX_PER_BYTE;
	if (n > RSP_STOP_OUTPUT_MAX) {
		n = RSP_STOP_OUTPUT_MAX;
		out->output.truncated = true;
	}
	if (!rsp_hex_bytes(&p, end, (uint8_t *)out->output.text, n))
		return stop_malformed(ctx, "console output");
	out->output.len = n;
	out->output.text[n] = '\0';
	return BR_OK;
}

/* Whether c may appear in a File-I/O call name ("write", "gettimeofday"). */
static bool stop_name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_';
}

/* "F call-id,parameter..." where a parameter is "hex" or "hex/hex". */
static br_status_t stop_fileio(const stop_parse_t *ctx, const char *p, const char *end)
{
	rsp_stop_reply_t *out = ctx->out;
	const char *name = p;
	while (p < end && stop_name_char(*p))
		p++;
	size_t name_len = (size_t)(p - name);
	if (name_len == 0 || name_len > RSP_FILEIO_NAME_MAX)
		return stop_malformed(ctx, "File-I/O call name");
	memcpy(out->fileio.name, name, name_len);
	out->fileio.name[name_len] = '\0';
	while (p < end) {
		if (!rsp_expect_char(&p, end, RSP_ARG_SEPARATOR))
			return stop_malformed(ctx, "expected ',' before a File-I/O parameter");
		if (out->fileio.argc == RSP_FILEIO_ARGS_MAX)
			return stop_malformed(ctx, "too many File-I/O parameters");
		rsp_fileio_arg_t *arg = &out->fileio.args[out->fileio.argc];
		if (!rsp_hex_u32(&p, end, &arg->value))
			return stop_malformed(ctx, "File-I/O parameter");
		if (rsp_expect_char(&p, end, RSP_LENGTH_SEPARATOR)) {
			if (!rsp_hex_u32(&p, end, &arg->length))
				return stop_malformed(ctx, "File-I/O pointer/length");
			arg->has_length = true;
		}
		out->fileio.argc++;
	}
	return BR_OK;
}

br_status_t rsp_stop_reply_parse(const char *payload, size_t len, rsp_stop_reply_t *out,
                                 br_error_t *err)
{
	const stop_parse_t ctx = {payload, len, out, err};
	/* Cleared up to the console text, which gets only its NUL: clearing its
	 * 8 KiB on every stop was most of a halt's own CPU time. */
	memset(out, 0, offsetof(rsp_stop_reply_t, output.text));
	out->output.text[0] = '\0';
	memset(&out->fileio, 0, sizeof(out->fileio));
	if (len == 0)
		return stop_malformed(&ctx, "empty");
	const char *p = payload + 1;
	const char *end = payload + len;
	uint8_t byte;
	switch (payload[0]) {
	case STOP_SIGNAL:
		out->kind = RSP_STOP_SIGNAL;
		if (!rsp_hex_bytes(&p, end, &byte, 1) || p != end)
			return stop_malformed(&ctx, "expected 'S' and two hex digits");
		out->code = byte;
		return BR_OK;
	case STOP_SIGNAL_PAIRS:
		out->kind = RSP_STOP_SIGNAL;
		if (!rsp_hex_bytes(&p, end, &byte, 1))
			return stop_malformed(&ctx, "expected 'T' and two hex digits");
		out->code = byte;
		return stop_pairs(&ctx, p, end);
	case STOP_EXITED:
		out->kind = RSP_STOP_EXITED;
		return stop_exit(&ctx, p, end);
	case STOP_TERMINATED:
		out->kind = RSP_STOP_TERMINATED;
		return stop_exit(&ctx, p, end);
	case STOP_OUTPUT:
		out->kind = RSP_STOP_OUTPUT;
		return stop_output(&ctx, p, end);
	case STOP_FILEIO:
		out->kind = RSP_STOP_FILEIO;
		return stop_fileio(&ctx, p, end);
	case STOP_ERROR:
		out->kind = RSP_STOP_ERROR;
		if (!rsp_hex_bytes(&p, end, &byte, 1) || p != end)
			return stop_malformed(&ctx, "expected 'E' and two hex digits");
		out->code = byte;
		return BR_OK;
	default:
		return stop_malformed(&ctx, "unknown reply letter");
	}
}

bool rsp_stop_reply_register(const rsp_stop_reply_t *reply, uint32_t regno, uint64_t *value)
{
	for (size_t i = 0; i < reply->register_count; i++) {
		if (reply->registers[i].regno == regno) {
			*value = reply->registers[i].value;
			return true;
		}
	}
	return false;
}
