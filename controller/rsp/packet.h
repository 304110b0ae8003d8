/*
 * The send side of RSP framing: checksum and `$payload#xx` encoding. The
 * receive side is decoder.h.
 */
#ifndef BENCHRACK_RSP_PACKET_H
#define BENCHRACK_RSP_PACKET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The modulo-256 sum of len bytes of data: the RSP checksum of a raw (already
 * escaped) payload. */
uint8_t rsp_checksum(const void *data, size_t len);

/* Whether byte must be sent as '}' followed by byte ^ 0x20 inside a frame:
 * '$', '#', '}' always, and '*' so no receiver takes it for run-length. */
bool rsp_packet_needs_escape(uint8_t byte);

/*
 * The number of bytes rsp_packet_encode writes for this payload: the frame
 * overhead ('$', '#', two checksum digits) plus one byte per payload byte and
 * one more per escaped byte.
 */
size_t rsp_packet_encoded_len(const void *payload, size_t len);

/*
 * Frames len bytes of payload (any bytes: binary-safe, for 'X' packets) as
 * `$payload#xx` into out (out_cap bytes), escaping '$', '#', '}' and '*', with
 * the checksum over the escaped bytes. Never run-length encodes. Writes no NUL.
 * Returns the number of bytes written, or 0 when the frame does not fit in
 * out_cap (out may then be partly written). The caller owns both buffers.
 */
size_t rsp_packet_encode(const void *payload, size_t len, char *out, size_t out_cap);

#endif
