/*
 * Every byte and limit of the GDB Remote Serial Protocol that this layer uses,
 * named once. Each comment names the rule of the GDB manual ("Debugging with
 * GDB", appendix "Remote Protocol", sections Overview, Notification Packets,
 * General Query Packets, Stop Reply Packets, File-I/O Remote Protocol
 * Extension) that the constant implements.
 */
#ifndef BENCHRACK_RSP_PROTOCOL_H
#define BENCHRACK_RSP_PROTOCOL_H

#include <stdint.h>

/* --- Framing (Overview) --------------------------------------------------- */

/* "A packet is introduced with the character '$'". */
#define RSP_START '$'
/* "...the terminating character '#' followed by a two-digit checksum". */
#define RSP_END '#'
/* Notification Packets: "A notification packet has the form '% data # checksum'"
 * and is never acknowledged (OpenOCD's %oocd_keepalive). */
#define RSP_NOTIFY '%'
/* "The binary data representation uses 7d (ASCII '}') as an escape character." */
#define RSP_ESCAPE '}'
/* "Any escaped byte is transmitted as the escape character followed by the
 * original character XORed with 0x20." */
#define RSP_ESCAPE_XOR 0x20U
/* "Run-length encoding replaces runs of identical characters with one instance
 * of the repeated character, followed by a '*' and a repeat count." */
#define RSP_RUNLENGTH '*'
/* "A value of n is sent as n+29." */
#define RSP_RUNLENGTH_BIAS 29U
/* "For a repeat count greater or equal to 3, this produces a printable ASCII
 * character": counts 0..2 (count characters below ' ') are invalid. */
#define RSP_RUNLENGTH_MIN_CHAR ' '
/* "The printable characters '#' and '$' or with a numeric value greater than
 * 126 must not be used" as a repeat count. */
#define RSP_RUNLENGTH_MAX_CHAR '~'
/* The most additional copies one run-length sequence can add ('~' - 29 = 97). */
#define RSP_RUNLENGTH_MAX_REPEAT (RSP_RUNLENGTH_MAX_CHAR - RSP_RUNLENGTH_BIAS)
/* "The two-digit checksum is computed as the modulo 256 sum of all characters
 * between the leading '$' and the trailing '#'", sent as two hex digits. */
#define RSP_CHECKSUM_DIGITS 2U
/* '$', '#' and the RSP_CHECKSUM_DIGITS checksum digits around every payload. */
#define RSP_FRAME_OVERHEAD 4U

/* --- Acknowledgment and interrupt (Overview, Interrupts) ------------------ */

/* "either '+' (to indicate the package was received correctly)..." */
#define RSP_ACK '+'
/* "...or '-' (to request retransmission)". */
#define RSP_NAK '-'
/* Interrupts: "the BREAK character ... or a Ctrl-C (0x03) is sent" to stop a
 * running target. */
#define RSP_INTERRUPT 0x03U

/* --- Limits ---------------------------------------------------------------- */

/* General Query Packets, qSupported: "PacketSize=bytes" has no default in the
 * manual; GDB itself assumes 399 payload bytes when a stub advertises none
 * (the classic sample stubs' 400-byte buffer less the terminating NUL). */
#define RSP_DEFAULT_PACKET_SIZE 399U
/* Hard ceiling on a decoded payload this controller will hold, whatever a
 * caller asks for: 1 MiB, far above OpenOCD's PacketSize=4000 (16 KiB). */
#define RSP_PAYLOAD_LIMIT (1024U * 1024U)

/* --- Payload syntax (General Query Packets, Stop Reply Packets) ------------ */

/* "The parameters themselves should be separated by ',' or ';'" and qSupported
 * features, stop-reply "n:r" pairs are ';'-separated. */
#define RSP_LIST_SEPARATOR ';'
/* Stop Reply Packets: "n:r" pairs; Thread IDs "p<pid>.<tid>". */
#define RSP_PAIR_SEPARATOR ':'
/* File-I/O "Fcall-id,parameter..." and "addr,length" arguments. */
#define RSP_ARG_SEPARATOR ','
/* File-I/O: a pointer to a string is passed as "pointer/length". */
#define RSP_LENGTH_SEPARATOR '/'
/* Thread IDs (multiprocess): "p" then pid, "." then tid. */
#define RSP_THREAD_PROCESS 'p'
#define RSP_THREAD_SEPARATOR '.'
/* qSupported reply: "name=value", "name+", "name-", "name?". */
#define RSP_FEATURE_VALUE '='
#define RSP_FEATURE_SUPPORTED '+'
#define RSP_FEATURE_UNSUPPORTED '-'
#define RSP_FEATURE_PROBE '?'

/* Adds one raw byte to a running checksum (modulo 256, per the Overview). */
static inline uint8_t rsp_checksum_add(uint8_t sum, uint8_t byte)
{
	return (uint8_t)(sum + byte);
}

#endif
