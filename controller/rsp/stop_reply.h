/*
 * Parsing stop replies and the asynchronous replies that arrive while the
 * target runs (GDB manual, "Stop Reply Packets", "File-I/O Remote Protocol
 * Extension", and 'O' console output):
 *
 *	S AA                   stopped with signal AA
 *	T AA n1:r1;n2:r2;...   stopped with signal AA; registers and reasons
 *	W AA[;process:pid]     exited with status AA
 *	X AA[;process:pid]     terminated by signal AA
 *	O XX...                console output, hex-encoded
 *	F call-id[,arg...]     File-I/O request (semihosting)
 *	E NN                   error
 *
 * In 'T' pairs, n is a register number when it is all hex digits (its value
 * r is in target byte order: little endian on Cortex-M), otherwise a keyword:
 * thread, swbreak, hwbreak, watch, rwatch, awatch are understood, other
 * keywords are skipped as the manual requires. Each pair ends at ';' or at the
 * end of the payload.
 */
#ifndef BENCHRACK_RSP_STOP_REPLY_H
#define BENCHRACK_RSP_STOP_REPLY_H

#include "common/error.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Registers kept from one 'T' reply; more are counted as dropped. */
#define RSP_STOP_REGISTERS_MAX 32U
/* Widest register value kept, in bytes (a 64-bit d register); wider values are
 * validated and skipped. */
#define RSP_STOP_REGISTER_MAX_BYTES 8U
/* Console bytes kept from one 'O' reply: half of OpenOCD's 16 KiB PacketSize. */
#define RSP_STOP_OUTPUT_MAX 8192U
/* Longest File-I/O call name ("gettimeofday" is 12). */
#define RSP_FILEIO_NAME_MAX 16U
/* Most File-I/O parameters of any call ("open" and "lseek" take 3). */
#define RSP_FILEIO_ARGS_MAX 4U

typedef enum rsp_stop_kind {
	RSP_STOP_SIGNAL,     /* S or T: the target stopped, signal in code */
	RSP_STOP_EXITED,     /* W: the process exited, status in code */
	RSP_STOP_TERMINATED, /* X: the process was killed, signal in code */
	RSP_STOP_OUTPUT,     /* O: console output; the target is still running */
	RSP_STOP_FILEIO,     /* F: a File-I/O request; the target waits for 'F' reply */
	RSP_STOP_ERROR,      /* E: error number in code */
} rsp_stop_kind_t;

/* Why a 'T' stop happened, when the server says so. */
typedef enum rsp_stop_reason {
	RSP_STOP_REASON_NONE,
	RSP_STOP_REASON_SWBREAK, /* swbreak: a software breakpoint */
	RSP_STOP_REASON_HWBREAK, /* hwbreak: a hardware breakpoint */
	RSP_STOP_REASON_WATCH,   /* watch:addr, a write watchpoint */
	RSP_STOP_REASON_RWATCH,  /* rwatch:addr, a read watchpoint */
	RSP_STOP_REASON_AWATCH,  /* awatch:addr, an access watchpoint */
} rsp_stop_reason_t;

typedef struct rsp_stop_register {
	uint32_t regno; /* the target description's register number (15 = pc) */
	uint64_t value; /* decoded from target (little-endian) byte order */
	unsigned size;  /* bytes, 1..RSP_STOP_REGISTER_MAX_BYTES */
} rsp_stop_register_t;

typedef struct rsp_fileio_arg {
	uint32_t value;  /* the parameter (or the pointer, for "pointer/length") */
	uint32_t length; /* the length after '/', when has_length */
	bool has_length;
} rsp_fileio_arg_t;

typedef struct rsp_stop_reply {
	rsp_stop_kind_t kind;
	uint32_t code; /* signal (S, T, X), exit status (W), error number (E) */

	/* T: the stopping thread ("thread:p01.01;" or "thread:1;"). */
	bool has_thread;
	bool has_pid; /* also set by W/X ";process:pid" */
	uint32_t pid;
	uint32_t tid;

	/* T: the reason, and the data address for the watch reasons. */
	rsp_stop_reason_t reason;
	uint32_t watch_address;

	/* T: expedited registers, in the order sent. */
	size_t register_count;
	size_t registers_dropped; /* beyond RSP_STOP_REGISTERS_MAX or too wide */
	rsp_stop_register_t registers[RSP_STOP_REGISTERS_MAX];

	/* O: the decoded console bytes, NUL-terminated. */
	struct {
		size_t len;
		bool truncated; /* more than RSP_STOP_OUTPUT_MAX bytes were sent */
		char text[RSP_STOP_OUTPUT_MAX + 1];
	} output;

	/* F: "Fwrite,00000002,20000100,0000000c" (QEMU, padded) or
	 * "Fwrite,2,20000100,c" (OpenOCD, unpadded). */
	struct {
		char name[RSP_FILEIO_NAME_MAX + 1];
		size_t argc;
		rsp_fileio_arg_t args[RSP_FILEIO_ARGS_MAX];
	} fileio;
} rsp_stop_reply_t;

/*
 * Parses len bytes of payload (a decoded packet, not necessarily
 * NUL-terminated) into *out, which is cleared first (output.text only to its
 * first byte, a NUL) and owned by the caller.
 * Returns BR_OK, or BR_ERR_PROTOCOL with err saying what is wrong and quoting
 * a bounded, escaped prefix of the payload (out is then unspecified). "OK" is
 * not a stop reply: the caller checks for it before calling.
 */
br_status_t rsp_stop_reply_parse(const char *payload, size_t len, rsp_stop_reply_t *out,
                                 br_error_t *err);

/*
 * Looks up register regno among reply's expedited registers. Returns true and
 * sets *value when it was sent, false otherwise.
 */
bool rsp_stop_reply_register(const rsp_stop_reply_t *reply, uint32_t regno, uint64_t *value);

#endif
