#include "cli/option_number.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#define OPTION_DECIMAL 10
#define OPTION_HEX 16

bool br_cli_whole_parse(const char *text, unsigned long long min, unsigned long long max,
                        unsigned long long *out)
{
	/* Decimal unless 0x: a leading zero is not octal here. */
	int base =
	    text[0] == '0' && (text[1] == 'x' || text[1] == 'X') ? OPTION_HEX : OPTION_DECIMAL;
	const char *digits = base == OPTION_HEX ? text + 2 : text;
	char *end = NULL;
	errno = 0;
	unsigned long long v = strtoull(digits, &end, base);
	if (!isxdigit((unsigned char)digits[0]) || *end != '\0' || errno == ERANGE || v < min ||
	    v > max)
		return false;
	*out = v;
	return true;
}

int br_cli_option_whole(const char *cmd, const char *opt, const char *arg, unsigned long long min,
                        unsigned long long max, unsigned long long *out)
{
	if (!br_cli_whole_parse(arg, min, max, out)) {
		fprintf(stderr,
		        "benchrack %s: %s takes a whole number from %llu to %llu, not '%s'\n", cmd,
		        opt, min, max, arg);
		return -1;
	}
	return 0;
}
