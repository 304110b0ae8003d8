#include "rsp/decoder.h"

#include "common/xalloc.h"
#include "rsp/hex.h"
#include "rsp/protocol.h"

#include <stdlib.h>
#include <string.h>

/* The buffer starts this big (or at the cap, if smaller) and doubles on demand:
 * most replies ('OK', stop replies, a register) are short. */
#define DECODER_INITIAL_ALLOC 256U
#define DECODER_NIBBLE_BITS 4U

/* Ensures buf holds at least `need` bytes (need <= max_payload + 1). */
static void decoder_reserve(rsp_decoder_t *dec, size_t need)
{
	if (need <= dec->alloc)
		return;
	size_t alloc = dec->alloc;
	while (alloc < need)
		alloc *= 2;
	if (alloc > dec->max_payload + 1)
		alloc = dec->max_payload + 1;
	dec->buf = xrealloc(dec->buf, alloc);
	dec->alloc = alloc;
}

void rsp_decoder_init(rsp_decoder_t *dec, size_t max_payload)
{
	if (max_payload > RSP_PAYLOAD_LIMIT)
		max_payload = RSP_PAYLOAD_LIMIT;
	dec->max_payload = max_payload;
	dec->alloc =
	    (max_payload < DECODER_INITIAL_ALLOC ? max_payload : DECODER_INITIAL_ALLOC) + 1;
	dec->buf = xmalloc(dec->alloc);
	dec->buf[0] = '\0';
	dec->len = 0;
	rsp_decoder_reset(dec);
}

void rsp_decoder_free(rsp_decoder_t *dec)
{
	if (dec == NULL)
		return;
	free(dec->buf);
	dec->buf = NULL;
	dec->alloc = 0;
	dec->len = 0;
	dec->state = RSP_DECODER_IDLE;
	dec->ready = false;
}

void rsp_decoder_reset(rsp_decoder_t *dec)
{
	dec->state = RSP_DECODER_IDLE;
	dec->fault = RSP_DECODER_FAULT_NONE;
	dec->notification = false;
	dec->have_last = false;
	dec->checksum_hex_ok = true;
	dec->ready = false;
	dec->last = 0;
	dec->sum = 0;
	dec->received_sum = 0;
	dec->len = 0;
}

/* Begins a frame: '$' (a packet) or '%' (a notification). */
static void decoder_frame_start(rsp_decoder_t *dec, bool notification)
{
	rsp_decoder_reset(dec);
	dec->state = RSP_DECODER_PAYLOAD;
	dec->notification = notification;
}

static void decoder_fault(rsp_decoder_t *dec, rsp_decoder_fault_t fault)
{
	if (dec->fault == RSP_DECODER_FAULT_NONE)
		dec->fault = fault;
}

/* Appends one decoded byte, or records OVERSIZE once the cap is reached. */
static void decoder_append(rsp_decoder_t *dec, uint8_t byte)
{
	dec->last = byte;
	dec->have_last = true;
	if (dec->len >= dec->max_payload) {
		decoder_fault(dec, RSP_DECODER_FAULT_OVERSIZE);
		return;
	}
	decoder_reserve(dec, dec->len + 2);
	dec->buf[dec->len++] = (char)byte;
}

/* Adds a raw frame byte to the checksum. */
static void decoder_sum(rsp_decoder_t *dec, uint8_t byte)
{
	dec->sum = rsp_checksum_add(dec->sum, byte);
}

static rsp_event_t decoder_feed_idle(rsp_decoder_t *dec, uint8_t byte)
{
	switch (byte) {
	case RSP_ACK:
		return RSP_EVENT_ACK;
	case RSP_NAK:
		return RSP_EVENT_NAK;
	case RSP_INTERRUPT:
		return RSP_EVENT_INTERRUPT;
	case RSP_NOTIFY:
		decoder_frame_start(dec, true);
		return RSP_EVENT_NONE;
	default:
		return RSP_EVENT_GARBAGE;
	}
}

static void decoder_feed_payload(rsp_decoder_t *dec, uint8_t byte)
{
	switch (byte) {
	case RSP_END:
		dec->state = RSP_DECODER_CHECKSUM_HIGH;
		return;
	case RSP_ESCAPE:
		decoder_sum(dec, byte);
		dec->state = RSP_DECODER_ESCAPE;
		return;
	case RSP_RUNLENGTH:
		decoder_sum(dec, byte);
		/* A run repeats "the preceding character": none yet is a fault. */
		if (!dec->have_last)
			decoder_fault(dec, RSP_DECODER_FAULT_RUNLENGTH);
		dec->state = RSP_DECODER_RUNLENGTH;
		return;
	default:
		decoder_sum(dec, byte);
		decoder_append(dec, byte);
		return;
	}
}

static void decoder_feed_escape(rsp_decoder_t *dec, uint8_t byte)
{
	if (byte == RSP_END) {
		decoder_fault(dec, RSP_DECODER_FAULT_ESCAPE);
		dec->state = RSP_DECODER_CHECKSUM_HIGH;
		return;
	}
	decoder_sum(dec, byte);
	decoder_append(dec, byte ^ RSP_ESCAPE_XOR);
	dec->state = RSP_DECODER_PAYLOAD;
}

static void decoder_feed_runlength(rsp_decoder_t *dec, uint8_t byte)
{
	if (byte == RSP_END) {
		decoder_fault(dec, RSP_DECODER_FAULT_RUNLENGTH);
		dec->state = RSP_DECODER_CHECKSUM_HIGH;
		return;
	}
	decoder_sum(dec, byte);
	dec->state = RSP_DECODER_PAYLOAD;
	if (byte < RSP_RUNLENGTH_MIN_CHAR || byte > RSP_RUNLENGTH_MAX_CHAR) {
		decoder_fault(dec, RSP_DECODER_FAULT_RUNLENGTH);
		return;
	}
	if (!dec->have_last)
		return; /* the fault was recorded at the '*' */
	unsigned repeat = byte - RSP_RUNLENGTH_BIAS;
	for (unsigned i = 0; i < repeat; i++)
		decoder_append(dec, dec->last);
}

static rsp_event_t decoder_frame_end(rsp_decoder_t *dec)
{
	dec->state = RSP_DECODER_IDLE;
	dec->buf[dec->len] = '\0';
	dec->ready = true;
	if (!dec->checksum_hex_ok || dec->received_sum != dec->sum)
		return RSP_EVENT_BAD_CHECKSUM;
	switch (dec->fault) {
	case RSP_DECODER_FAULT_OVERSIZE:
		return RSP_EVENT_OVERSIZE;
	case RSP_DECODER_FAULT_RUNLENGTH:
		return RSP_EVENT_BAD_RUNLENGTH;
	case RSP_DECODER_FAULT_ESCAPE:
		return RSP_EVENT_BAD_ESCAPE;
	case RSP_DECODER_FAULT_NONE:
		break;
	}
	return dec->notification ? RSP_EVENT_NOTIFICATION : RSP_EVENT_PACKET;
}

/* Reads one checksum character; returns its value, or 0 and notes a non-hex. */
static uint8_t decoder_checksum_digit(rsp_decoder_t *dec, uint8_t byte)
{
	int value = rsp_hex_digit_value(byte);
	if (value < 0) {
		dec->checksum_hex_ok = false;
		return 0;
	}
	return (uint8_t)value;
}

rsp_event_t rsp_decoder_feed(rsp_decoder_t *dec, uint8_t byte)
{
	dec->ready = false;
	/* '$' is never data: it (re)starts a packet from any state. */
	if (byte == RSP_START) {
		decoder_frame_start(dec, false);
		return RSP_EVENT_NONE;
	}
	switch (dec->state) {
	case RSP_DECODER_IDLE:
		return decoder_feed_idle(dec, byte);
	case RSP_DECODER_PAYLOAD:
		decoder_feed_payload(dec, byte);
		return RSP_EVENT_NONE;
	case RSP_DECODER_ESCAPE:
		decoder_feed_escape(dec, byte);
		return RSP_EVENT_NONE;
	case RSP_DECODER_RUNLENGTH:
		decoder_feed_runlength(dec, byte);
		return RSP_EVENT_NONE;
	case RSP_DECODER_CHECKSUM_HIGH:
		dec->received_sum =
		    (uint8_t)(decoder_checksum_digit(dec, byte) << DECODER_NIBBLE_BITS);
		dec->state = RSP_DECODER_CHECKSUM_LOW;
		return RSP_EVENT_NONE;
	case RSP_DECODER_CHECKSUM_LOW:
		dec->received_sum |= decoder_checksum_digit(dec, byte);
		return decoder_frame_end(dec);
	}
	return RSP_EVENT_NONE;
}

size_t rsp_decoder_feed_plain(rsp_decoder_t *dec, const uint8_t *bytes, size_t n)
{
	if (dec->state != RSP_DECODER_PAYLOAD || dec->len >= dec->max_payload)
		return 0;
	size_t room = dec->max_payload - dec->len;
	if (n > room)
		n = room;
	size_t k = 0;
	uint8_t sum = dec->sum;
	while (k < n) {
		uint8_t b = bytes[k];
		if (b == RSP_START || b == RSP_END || b == RSP_ESCAPE || b == RSP_RUNLENGTH)
			break;
		sum = rsp_checksum_add(sum, b);
		k++;
	}
	if (k == 0)
		return 0;
	decoder_reserve(dec, dec->len + k + 1U);
	memcpy(dec->buf + dec->len, bytes, k);
	dec->len += k;
	dec->sum = sum;
	dec->last = bytes[k - 1U];
	dec->have_last = true;
	dec->ready = false;
	return k;
}

const char *rsp_decoder_payload(const rsp_decoder_t *dec, size_t *len)
{
	if (!dec->ready) {
		if (len != NULL)
			*len = 0;
		return NULL;
	}
	if (len != NULL)
		*len = dec->len;
	return dec->buf;
}

bool rsp_decoder_in_frame(const rsp_decoder_t *dec)
{
	return dec->state != RSP_DECODER_IDLE;
}

size_t rsp_decoder_max_payload(const rsp_decoder_t *dec)
{
	return dec->max_payload;
}
