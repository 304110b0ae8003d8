/*
 * The receive side of RSP framing: a push decoder fed one byte at a time. It
 * owns no I/O, so half a packet, or three packets, in one read() are the same
 * to it, and it is unit-tested and fuzzed directly.
 *
 * Rules it implements (GDB manual, "Remote Protocol", Overview and
 * Notification Packets), and the decisions where the manual is silent:
 *
 * - Between frames, '+' is an ACK, '-' a NAK, 0x03 an INTERRUPT, '$' starts a
 *   packet, '%' starts a notification; any other byte is GARBAGE, skipped.
 * - Inside a frame, '}' escapes the next byte (XOR 0x20) and '*' repeats the
 *   previous decoded byte (count character n + 29, ' '..'~' except '#' and
 *   '$'). The checksum is the modulo-256 sum of the raw bytes between the
 *   start character and '#' (escapes, '*' and counts included); its two hex
 *   digits are accepted in either case.
 * - '$' is never data: wherever it appears inside a frame (payload, after '}',
 *   as a run-length count, in the checksum) it abandons the partial frame and
 *   starts a new packet, as GDB's own reader does. That byte returns
 *   RSP_EVENT_NONE: an abandoned frame was never complete, so there is
 *   nothing to acknowledge or NAK. A '$' used as a run-length count (which
 *   the manual forbids) is therefore such a restart, not BAD_RUNLENGTH.
 * - '#' is never data either: it ends the frame wherever it appears, even
 *   right after '}' (BAD_ESCAPE) or '*' (BAD_RUNLENGTH).
 * - Every frame is consumed through its two checksum characters before its
 *   event is returned, so the caller acts on whole frames and stays in step.
 *   A frame with a wrong (or non-hex) checksum is BAD_CHECKSUM whatever else
 *   is wrong with it, since a damaged byte explains everything; a frame whose
 *   checksum matches but whose content is malformed reports its first fault.
 */
#ifndef BENCHRACK_RSP_DECODER_H
#define BENCHRACK_RSP_DECODER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum rsp_event {
	RSP_EVENT_NONE,          /* byte consumed, nothing complete yet */
	RSP_EVENT_ACK,           /* '+' between frames */
	RSP_EVENT_NAK,           /* '-' between frames */
	RSP_EVENT_INTERRUPT,     /* 0x03 between frames */
	RSP_EVENT_PACKET,        /* $payload#xx, checksum good; payload ready */
	RSP_EVENT_NOTIFICATION,  /* %payload#xx, checksum good (OpenOCD %oocd_keepalive) */
	RSP_EVENT_BAD_CHECKSUM,  /* complete frame, checksum wrong or not hex: caller NAKs */
	RSP_EVENT_OVERSIZE,      /* decoded payload exceeded the cap: frame discarded */
	RSP_EVENT_BAD_RUNLENGTH, /* '*' first in the payload, or its count char outside
	                            ' '..'~', or '#': frame discarded */
	RSP_EVENT_BAD_ESCAPE,    /* '}' followed by the frame's '#': frame discarded */
	RSP_EVENT_GARBAGE,       /* a byte between frames that starts nothing: skipped */
} rsp_event_t;

typedef enum rsp_decoder_state {
	RSP_DECODER_IDLE,          /* between frames */
	RSP_DECODER_PAYLOAD,       /* after '$' or '%' */
	RSP_DECODER_ESCAPE,        /* after '}' */
	RSP_DECODER_RUNLENGTH,     /* after '*' */
	RSP_DECODER_CHECKSUM_HIGH, /* after '#' */
	RSP_DECODER_CHECKSUM_LOW,  /* after the first checksum character */
} rsp_decoder_state_t;

/* The frame-level faults, in the order they can first occur; the first wins. */
typedef enum rsp_decoder_fault {
	RSP_DECODER_FAULT_NONE,
	RSP_DECODER_FAULT_OVERSIZE,
	RSP_DECODER_FAULT_RUNLENGTH,
	RSP_DECODER_FAULT_ESCAPE,
} rsp_decoder_fault_t;

/* A decoder. Embed it anywhere; its fields are private to decoder.c. */
typedef struct rsp_decoder {
	rsp_decoder_state_t state;
	rsp_decoder_fault_t fault; /* first fault of the current frame */
	bool notification;         /* the current frame began with '%' */
	bool have_last;            /* a decoded byte exists for '*' to repeat */
	bool checksum_hex_ok;      /* both checksum characters were hex so far */
	bool ready;                /* the last feed completed a frame */
	uint8_t last;              /* the last decoded byte */
	uint8_t sum;               /* running checksum of the raw bytes */
	uint8_t received_sum;      /* the checksum being read */
	char *buf;                 /* decoded payload, NUL-terminated when ready */
	size_t len;                /* decoded bytes kept in buf */
	size_t alloc;              /* bytes allocated for buf */
	size_t max_payload;        /* the cap on len */
} rsp_decoder_t;

/*
 * Prepares dec to decode frames whose decoded payload is at most max_payload
 * bytes (clamped to RSP_PAYLOAD_LIMIT; 0 accepts only empty payloads). The
 * buffer grows on demand up to the cap. Aborts on out-of-memory (xalloc). The
 * decoder owns its buffer until rsp_decoder_free.
 */
void rsp_decoder_init(rsp_decoder_t *dec, size_t max_payload);

/* Releases dec's buffer; dec may be initialised again afterwards. NULL-safe. */
void rsp_decoder_free(rsp_decoder_t *dec);

/* Drops any partial frame and returns to IDLE (e.g. after a timeout or a
 * reconnect). The cap and the buffer are kept. */
void rsp_decoder_reset(rsp_decoder_t *dec);

/*
 * Consumes one byte and returns what, if anything, it completed (see
 * rsp_event_t and the rules at the top of this file).
 */
rsp_event_t rsp_decoder_feed(rsp_decoder_t *dec, uint8_t byte);

/*
 * Consumes the plain payload bytes at the start of bytes[0..n) — while a
 * packet's payload is being read, up to the first byte with a meaning of its
 * own ('$', '#', '}', '*') and never past the payload cap — exactly as that
 * many rsp_decoder_feed calls would, none of which completes anything.
 * Returns how many it took (0 when the decoder is not in a payload): the
 * caller feeds the rest one byte at a time. For bulk replies, whose 4 KiB of
 * hex digits would otherwise take a call per byte.
 */
size_t rsp_decoder_feed_plain(rsp_decoder_t *dec, const uint8_t *bytes, size_t n);

/*
 * The decoded payload of the frame the last rsp_decoder_feed completed:
 * unescaped, run-length expanded and NUL-terminated (it may itself contain
 * NULs: use *len), owned by dec and valid until the next feed, reset or free.
 * Meaningful after PACKET and NOTIFICATION; after BAD_CHECKSUM, OVERSIZE,
 * BAD_RUNLENGTH and BAD_ESCAPE it is what was decoded (truncated at the cap),
 * for diagnostics only. After any other event, returns NULL with *len 0.
 * len may be NULL.
 */
const char *rsp_decoder_payload(const rsp_decoder_t *dec, size_t *len);

/* Whether a frame has started and not yet ended (the decoder is not IDLE). */
bool rsp_decoder_in_frame(const rsp_decoder_t *dec);

/* The cap on a decoded payload, after clamping. */
size_t rsp_decoder_max_payload(const rsp_decoder_t *dec);

#endif
