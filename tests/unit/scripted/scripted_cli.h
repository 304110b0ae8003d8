/*
 * What the scripted tests (test_scripted_session.c, test_scripted_run.c)
 * share: their command line, and the PEER placeholder of their expected
 * error texts.
 */
#ifndef BENCHRACK_TESTS_SCRIPTED_CLI_H
#define BENCHRACK_TESTS_SCRIPTED_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Runs one conversation against a server at 127.0.0.1:port with the image
 * at elf, prints its outcome; true when it measured. */
typedef bool (*scripted_live_fn)(uint16_t port, const char *elf);
/* Runs the cases of scripts in dir (only: that script's case alone, NULL:
 * every case and every extra check), recording failures with CHECK. */
typedef void (*scripted_cases_fn)(const char *dir, const char *elf, const char *only);

/* The command line of a scripted test, SIGPIPE ignored first:
 * "--live PORT ELF" runs live and returns 0 when it measured, else 1;
 * "SCRIPTS_DIR ELF [SCRIPT]" runs cases and returns -1, after which the
 * caller returns check_finish() (which fails when SCRIPT names no case:
 * no check ran); anything else prints the usage and returns 2. */
int scripted_cli_dispatch(int argc, char **argv, scripted_live_fn live, scripted_cases_fn cases);

/* text with every "PEER" replaced by peer, into out (cap bytes, always
 * terminated; cut short when it does not fit). */
void scripted_expand_peer(const char *text, const char *peer, char *out, size_t cap);

#endif
