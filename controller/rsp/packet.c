#include "rsp/packet.h"

#include "rsp/hex.h"
#include "rsp/protocol.h"

#define PACKET_NIBBLE_BITS 4U

uint8_t rsp_checksum(const void *data, size_t len)
{
	const uint8_t *bytes = data;
	uint8_t sum = 0;
	for (size_t i = 0; i < len; i++)
		sum = rsp_checksum_add(sum, bytes[i]);
	return sum;
}

/* rsp_packet_needs_escape, inlined in the loops below (a public function of
 * a position-independent library is called, not inlined, byte by byte). */
static inline bool needs_escape(uint8_t byte)
{
	return byte == RSP_START || byte == RSP_END || byte == RSP_ESCAPE || byte == RSP_RUNLENGTH;
}

bool rsp_packet_needs_escape(uint8_t byte)
{
	return needs_escape(byte);
}

size_t rsp_packet_encoded_len(const void *payload, size_t len)
{
	const uint8_t *bytes = payload;
	size_t n = RSP_FRAME_OVERHEAD + len;
	for (size_t i = 0; i < len; i++) {
		if (needs_escape(bytes[i]))
			n++;
	}
	return n;
}

size_t rsp_packet_encode(const void *payload, size_t len, char *out, size_t out_cap)
{
	const uint8_t *bytes = payload;
	if (len > SIZE_MAX / 2 - RSP_FRAME_OVERHEAD ||
	    rsp_packet_encoded_len(payload, len) > out_cap)
		return 0;
	size_t pos = 0;
	uint8_t sum = 0;
	out[pos++] = RSP_START;
	for (size_t i = 0; i < len; i++) {
		uint8_t b = bytes[i];
		if (needs_escape(b)) {
			out[pos++] = RSP_ESCAPE;
			sum = rsp_checksum_add(sum, RSP_ESCAPE);
			b ^= RSP_ESCAPE_XOR;
		}
		out[pos++] = (char)b;
		sum = rsp_checksum_add(sum, b);
	}
	out[pos++] = RSP_END;
	out[pos++] = rsp_hex_digit(sum >> PACKET_NIBBLE_BITS);
	out[pos++] = rsp_hex_digit(sum);
	return pos;
}
