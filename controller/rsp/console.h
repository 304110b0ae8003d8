/*
 * Console output packets (GDB manual, "Stop Reply Packets": `O XX...`, the
 * hex of text for the debugger's console). They come while the target runs
 * and, before the final OK or E nn, as the text of a monitor command's
 * answer (`qRcmd`, "General Query Packets"). Pure functions, no I/O.
 */
#ifndef BENCHRACK_RSP_CONSOLE_H
#define BENCHRACK_RSP_CONSOLE_H

#include <stdbool.h>
#include <stddef.h>

/* True when reply (len bytes) is a console packet with text: 'O' then a
 * non-empty, even number of hex digits (so "OK" is not one). */
bool rsp_reply_is_console(const char *reply, size_t len);

/* True when the len bytes of text are all hex digits. */
bool rsp_all_hex(const char *text, size_t len);

/*
 * Appends the text hex-encoded in the len bytes at hex to out (cap bytes,
 * kept NUL-terminated, truncated to fit; out may be NULL), *used counting
 * the characters kept. False when hex is not hex digits in pairs.
 */
bool rsp_hex_text_append(const char *hex, size_t len, char *out, size_t cap, size_t *used);

/* rsp_hex_text_append of a console packet's text (rsp_reply_is_console). */
bool rsp_console_append(const char *reply, size_t len, char *out, size_t cap, size_t *used);

/* True when request is a monitor command (qRcmd,...), whose answer may come
 * as console packets before its final reply. */
bool rsp_request_is_monitor(const char *request);

#endif
