/*
 * A whole-number option value, checked against its range once for every
 * command: the message names the command, the option, the range the value
 * must be in (never a bound the command then refuses) and what was given.
 */
#ifndef BENCHRACK_CLI_OPTION_NUMBER_H
#define BENCHRACK_CLI_OPTION_NUMBER_H

#include <stdbool.h>

/*
 * Parses text (decimal, or hexadecimal after 0x; a leading zero is not
 * octal) as a whole number from min to max into *out; false, *out
 * unchanged, for anything else. Prints nothing.
 */
bool br_cli_whole_parse(const char *text, unsigned long long min, unsigned long long max,
                        unsigned long long *out);

/*
 * Parses arg (decimal, or hexadecimal after 0x) as a whole number from min to
 * max for option opt of `benchrack cmd`. Returns 0 and stores it in *out, or
 * prints "benchrack CMD: OPT takes a whole number from MIN to MAX, not 'ARG'"
 * on stderr and returns -1 (*out unchanged).
 */
int br_cli_option_whole(const char *cmd, const char *opt, const char *arg, unsigned long long min,
                        unsigned long long max, unsigned long long *out);

#endif
