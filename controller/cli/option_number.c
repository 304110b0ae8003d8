#include "cli/option_number.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#define OPTION_DECIMAL 10
#define OPTION_HEX 16

int br_cli_option_whole(const char *cmd, const char *opt, const char *arg, unsigned long long min,
                        unsigned long long max, unsigned long long *out)
{
	/* Decimal unless 0x: a leading zero is not octal here. */
	int base = arg[0] == '0' && (arg[1] == 'x' || arg[1] == 'X') ? OPTION_HEX : OPTION_DECIMAL;
	const char *digits = base == OPTION_HEX ? arg + 2 : arg;
	char *end = NULL;
	errno = 0;
	unsigned long long v = strtoull(digits, &end, base);
	bool bad = !isxdigit((unsigned char)digits[0]) || *end != '\0' || errno == ERANGE ||
	           v < min || v > max;
	if (bad) {
		fprintf(stderr,
		        "benchrack %s: %s takes a whole number from %llu to %llu, not '%s'\n", cmd,
		        opt, min, max, arg);
		return -1;
	}
	*out = v;
	return 0;
}
