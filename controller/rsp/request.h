/*
 * What kind of request a packet is, from its first characters (GDB manual,
 * "Packets"): whether sending it twice is harmless (the client may resend it
 * when neither an acknowledgement nor a reply came), and whether it resumes
 * the target (its reply is a stop reply that comes only when the target stops
 * again, or nothing at all).
 */
#ifndef BENCHRACK_RSP_REQUEST_H
#define BENCHRACK_RSP_REQUEST_H

#include <stdbool.h>
#include <stddef.h>

/*
 * True when executing the request twice leaves the target as once and
 * produces the same reply: reads (m, x, p, g, qCRC, qXfer:...:read, qSupported,
 * qAttached, qC, qfThreadInfo, qsThreadInfo), writes of given values
 * (M, X, P, G), breakpoint insertion and removal (Z, z: the manual requires
 * them to be idempotent) and thread selection (H). False for everything that
 * runs, resets, erases, detaches, kills, toggles a mode or runs a monitor
 * command, and for anything unknown.
 */
bool rsp_request_is_replayable(const char *payload, size_t len);

/*
 * True when the request resumes the target: c, s, C, S, vCont;c/s/C/S...,
 * and a File-I/O reply (F...), after which the target runs on.
 */
bool rsp_request_resumes(const char *payload, size_t len);

#endif
