/*
 * A dashboard's URL, as libcurl reads it: parsed by curl_url() (the parser
 * the request itself goes through), never by matching text, so that what is
 * checked is what is sent. Two questions are asked of it: is the host this
 * machine (may a token go there over plain http?), and does a request URL
 * lie under a sink's URL (may a spooled upload go there?).
 */
#ifndef BENCHRACK_CONFIG_SINK_URL_H
#define BENCHRACK_CONFIG_SINK_URL_H

#include <stdbool.h>

/* What the checks need of a URL. */
typedef struct br_sink_url {
	bool https;       /* scheme https (else http) */
	bool credentials; /* user or password in the authority */
	bool query, fragment;
	bool loopback; /* the host is a loopback address literal or "localhost" */
} br_sink_url_t;

/*
 * Parses url (absolute, http or https, with a host) into *out. Returns false
 * when libcurl does not take it as such (another scheme, no host, spaces,
 * control characters, a malformed authority).
 *
 * Local means exactly a loopback address literal (127.0.0.0/8, ::1, as
 * libcurl normalises them: 127.1 and 2130706433 are 127.0.0.1) or the name
 * localhost: never a name that merely starts like one
 * (127.0.0.1.example.invalid resolves wherever its owner likes).
 */
bool br_sink_url_parse(const char *url, br_sink_url_t *out);

/*
 * True when request is a URL under base: the same scheme, host (case
 * aside) and port (the scheme's default filled in), no credentials, and a
 * path that is base's path or continues it after a '/'. False when either
 * does not parse. Used to tell whether a spooled upload goes to the server
 * a sink of the current configuration names.
 */
bool br_sink_url_within(const char *base, const char *request);

#endif
