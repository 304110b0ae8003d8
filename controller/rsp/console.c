#include "rsp/console.h"

#include <stdint.h>
#include <string.h>

#include "rsp/hex.h"

#define CONSOLE_MONITOR_PREFIX "qRcmd,"

bool rsp_all_hex(const char *text, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		if (rsp_hex_digit_value((unsigned char)text[i]) < 0)
			return false;
	}
	return true;
}

bool rsp_reply_is_console(const char *reply, size_t len)
{
	return len >= 3U && reply[0] == 'O' && (len - 1U) % 2U == 0U &&
	       rsp_all_hex(reply + 1, len - 1U);
}

bool rsp_hex_text_append(const char *hex, size_t len, char *out, size_t cap, size_t *used)
{
	const char *cursor = hex;
	const char *end = hex + len;
	while (cursor < end) {
		uint8_t byte;
		if (!rsp_hex_bytes(&cursor, end, &byte, 1))
			return false;
		if (out != NULL && *used + 1U < cap) {
			out[*used] = (char)byte;
			(*used)++;
			out[*used] = '\0';
		}
	}
	return true;
}

bool rsp_console_append(const char *reply, size_t len, char *out, size_t cap, size_t *used)
{
	if (!rsp_reply_is_console(reply, len))
		return false;
	return rsp_hex_text_append(reply + 1, len - 1U, out, cap, used);
}

bool rsp_request_is_monitor(const char *request)
{
	return strncmp(request, CONSOLE_MONITOR_PREFIX, strlen(CONSOLE_MONITOR_PREFIX)) == 0;
}
