#include "upload/base64.h"

#include <stdint.h>

#define B64_GROUP_IN 3U
#define B64_GROUP_OUT 4U
#define B64_SIX_BITS 0x3FU

static const char standard[] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
static const char url_alphabet[] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

size_t br_base64_length(size_t len)
{
	return (len + B64_GROUP_IN - 1U) / B64_GROUP_IN * B64_GROUP_OUT;
}

size_t br_base64_encode(const void *data, size_t len, bool url_safe, char *out, size_t cap)
{
	size_t need = br_base64_length(len);
	if (cap == 0)
		return 0;
	out[0] = '\0';
	if (need >= cap)
		return 0;
	const char *alphabet = url_safe ? url_alphabet : standard;
	const unsigned char *in = data;
	size_t o = 0;
	for (size_t i = 0; i < len; i += B64_GROUP_IN) {
		size_t left = len - i;
		uint32_t group = (uint32_t)in[i] << 16;
		if (left > 1U)
			group |= (uint32_t)in[i + 1U] << 8;
		if (left > 2U)
			group |= in[i + 2U];
		out[o++] = alphabet[(group >> 18) & B64_SIX_BITS];
		out[o++] = alphabet[(group >> 12) & B64_SIX_BITS];
		out[o++] = left > 1U ? alphabet[(group >> 6) & B64_SIX_BITS] : '=';
		out[o++] = left > 2U ? alphabet[group & B64_SIX_BITS] : '=';
	}
	out[o] = '\0';
	return o;
}
