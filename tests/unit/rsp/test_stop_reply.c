/*
 * Stop replies and asynchronous replies: what QEMU and OpenOCD really send,
 * and a table of malformed payloads that must each be BR_ERR_PROTOCOL with
 * a message quoting the payload.
 */
#include "check.h"

#include "rsp/stop_reply.h"

#include <stdlib.h>
#include <string.h>

static rsp_stop_reply_t reply; /* large: keep it off the stack */

static br_status_t parse(const char *payload)
{
	br_error_t err;
	br_error_clear(&err);
	br_status_t st = rsp_stop_reply_parse(payload, strlen(payload), &reply, &err);
	CHECK_MSG(st == err.status, "\"%s\": status %d, err %d", payload, (int)st, (int)err.status);
	return st;
}

static void test_signal(void)
{
	CHECK(parse("S05") == BR_OK && reply.kind == RSP_STOP_SIGNAL && reply.code == 5);
	CHECK(parse("S1f") == BR_OK && reply.code == 0x1f);

	/* QEMU 7.2 */
	CHECK(parse("T05thread:p01.01;") == BR_OK);
	CHECK(reply.kind == RSP_STOP_SIGNAL && reply.code == 5);
	CHECK(reply.has_thread && reply.has_pid && reply.pid == 1 && reply.tid == 1);
	CHECK(reply.register_count == 0 && reply.reason == RSP_STOP_REASON_NONE);

	CHECK(parse("T02thread:01;") == BR_OK && reply.code == 2);
	CHECK(reply.has_thread && !reply.has_pid && reply.tid == 1);
	CHECK(parse("T05") == BR_OK && !reply.has_thread);
	CHECK(parse("T05thread:1") == BR_OK && reply.tid == 1); /* no final ';' */

	uint64_t v = 0;
	CHECK(parse("T0505:00000000;0d:f0ff0120;0f:78563412;thread:p01.01;swbreak:;") == BR_OK);
	CHECK(reply.register_count == 3 && reply.registers_dropped == 0);
	CHECK(rsp_stop_reply_register(&reply, 0xf, &v) && v == 0x12345678);
	CHECK(rsp_stop_reply_register(&reply, 0xd, &v) && v == 0x2001fff0);
	CHECK(rsp_stop_reply_register(&reply, 5, &v) && v == 0);
	CHECK(!rsp_stop_reply_register(&reply, 0, &v));
	CHECK(reply.registers[1].regno == 0xd && reply.registers[1].size == 4);
	CHECK(reply.reason == RSP_STOP_REASON_SWBREAK);

	CHECK(parse("T05hwbreak:;thread:p01.01;") == BR_OK &&
	      reply.reason == RSP_STOP_REASON_HWBREAK);
	CHECK(parse("T05watch:20000100;") == BR_OK && reply.reason == RSP_STOP_REASON_WATCH &&
	      reply.watch_address == 0x20000100);
	CHECK(parse("T05rwatch:8000;") == BR_OK && reply.reason == RSP_STOP_REASON_RWATCH &&
	      reply.watch_address == 0x8000);
	CHECK(parse("T05awatch:0;") == BR_OK && reply.reason == RSP_STOP_REASON_AWATCH);
	CHECK(parse("T05swbreak:ignored;") == BR_OK && reply.reason == RSP_STOP_REASON_SWBREAK);

	/* unknown keywords are skipped, whatever their value */
	CHECK(parse("T05core:0;library:;replaylog:begin;foo:b;fork:p2.3;thread:2;") == BR_OK);
	CHECK(reply.tid == 2);

	/* widths: a 64-bit d register kept, a 128-bit q register skipped */
	CHECK(parse("T0511:efcdab8967452301;12:00112233445566778899aabbccddeeff;0f:01;") == BR_OK);
	CHECK(reply.register_count == 2 && reply.registers_dropped == 1);
	CHECK(rsp_stop_reply_register(&reply, 0x11, &v) && v == 0x0123456789abcdefULL);
	CHECK(rsp_stop_reply_register(&reply, 0xf, &v) && v == 1 && reply.registers[1].size == 1);

	/* more registers than kept */
	char many[1024];
	size_t n = 0;
	n += (size_t)snprintf(many + n, sizeof(many) - n, "T05");
	for (unsigned r = 0; r < RSP_STOP_REGISTERS_MAX + 8; r++)
		n += (size_t)snprintf(many + n, sizeof(many) - n, "%x:%02x000000;", r, r);
	CHECK(parse(many) == BR_OK);
	CHECK(reply.register_count == RSP_STOP_REGISTERS_MAX && reply.registers_dropped == 8);
	CHECK(rsp_stop_reply_register(&reply, RSP_STOP_REGISTERS_MAX - 1, &v) &&
	      v == RSP_STOP_REGISTERS_MAX - 1);
}

static void test_exit(void)
{
	CHECK(parse("W00") == BR_OK && reply.kind == RSP_STOP_EXITED && reply.code == 0 &&
	      !reply.has_pid);
	CHECK(parse("W01;process:1") == BR_OK && reply.code == 1 && reply.has_pid &&
	      reply.pid == 1);
	CHECK(parse("W1") == BR_OK && reply.code == 1);
	CHECK(parse("X09") == BR_OK && reply.kind == RSP_STOP_TERMINATED && reply.code == 9);
	CHECK(parse("X0b;process:2a") == BR_OK && reply.pid == 0x2a);
	CHECK(parse("E0E") == BR_OK && reply.kind == RSP_STOP_ERROR && reply.code == 0xe);
	CHECK(parse("E01") == BR_OK && reply.code == 1);
}

static void test_output(void)
{
	CHECK(parse("O48656c6c6f0a") == BR_OK && reply.kind == RSP_STOP_OUTPUT);
	CHECK(reply.output.len == 6 && strcmp(reply.output.text, "Hello\n") == 0 &&
	      !reply.output.truncated);
	/* OpenOCD's empty keep-alive */
	CHECK(parse("O") == BR_OK && reply.output.len == 0 && reply.output.text[0] == '\0');
	CHECK(parse("O00ff") == BR_OK && reply.output.len == 2 &&
	      (uint8_t)reply.output.text[1] == 0xff);

	size_t bytes = RSP_STOP_OUTPUT_MAX + 10;
	char *big = malloc(2 * bytes + 2);
	big[0] = 'O';
	for (size_t i = 0; i < bytes; i++) {
		big[1 + 2 * i] = '4';
		big[2 + 2 * i] = '1';
	}
	big[1 + 2 * bytes] = '\0';
	CHECK(parse(big) == BR_OK && reply.output.truncated &&
	      reply.output.len == RSP_STOP_OUTPUT_MAX &&
	      reply.output.text[RSP_STOP_OUTPUT_MAX] == '\0' &&
	      reply.output.text[RSP_STOP_OUTPUT_MAX - 1] == 'A');
	big[2 * bytes] = 'g'; /* a bad digit past the kept part still fails */
	CHECK(parse(big) == BR_ERR_PROTOCOL);
	free(big);
}

static void test_fileio(void)
{
	/* QEMU 7.2 semihosting SYS_WRITE0: padded */
	CHECK(parse("Fwrite,00000002,20000100,0000000c") == BR_OK);
	CHECK(reply.kind == RSP_STOP_FILEIO && strcmp(reply.fileio.name, "write") == 0);
	CHECK(reply.fileio.argc == 3 && reply.fileio.args[0].value == 2 &&
	      reply.fileio.args[1].value == 0x20000100 && reply.fileio.args[2].value == 0xc &&
	      !reply.fileio.args[1].has_length);
	/* OpenOCD: unpadded */
	CHECK(parse("Fwrite,1,20000100,c") == BR_OK && reply.fileio.argc == 3 &&
	      reply.fileio.args[0].value == 1 && reply.fileio.args[2].value == 0xc);
	/* pointer/length parameters */
	CHECK(parse("Fopen,20000000/6,0,1a4") == BR_OK && reply.fileio.argc == 3 &&
	      reply.fileio.args[0].has_length && reply.fileio.args[0].length == 6 &&
	      reply.fileio.args[0].value == 0x20000000 && reply.fileio.args[2].value == 0x1a4);
	CHECK(parse("Frename,20000000/5,20000010/9") == BR_OK && reply.fileio.argc == 2 &&
	      reply.fileio.args[1].length == 9);
	CHECK(parse("Fgettimeofday,20000000,0") == BR_OK &&
	      strcmp(reply.fileio.name, "gettimeofday") == 0);
	CHECK(parse("Fsystem") == BR_OK && reply.fileio.argc == 0);
	CHECK(parse("Fa,1,2,3,4") == BR_OK && reply.fileio.argc == 4);
}

/* Each must fail with BR_ERR_PROTOCOL. */
static const char *const malformed[] = {
    "",
    "Q05",
    "OK",
    "S",
    "S5",
    "S055",
    "Sxx",
    "T",
    "T5",
    "T5g",
    "T05;",
    "T05thread",
    "T05thread;",
    "T05:1;",
    "T05thread:",
    "T05thread:p01;",
    "T05thread:p.1;",
    "T05thread:-1;",
    "T05thread:p01.;",
    "T05thread:1x;",
    "T050f:7856341;",
    "T050f:;",
    "T050f:xxxxxxxx;",
    "T050f:785634zz;",
    "T05100000000:00;",
    "T05watch:;",
    "T05watch:zz;",
    "T05awatch:100000000;",
    "T05thread:1;;",
    "W",
    "Wxx",
    "W00;",
    "W00x",
    "W00;pid:1",
    "W00;process",
    "W00;process:",
    "W00;process:zz",
    "W00;process:1;",
    "W100000000",
    "X",
    "X09;",
    "O4",
    "O4g",
    "Ozz",
    "F",
    "F,1",
    "Fwrite,",
    "Fwrite,1,",
    "Fwrite,,1",
    "Fwrite,zz",
    "Fwrite;1",
    "Fwrite,1,2,3,4,5",
    "Fopen,1/",
    "Fopen,1/x",
    "Fopen,/1",
    "Fwr-ite,1",
    "Fabcdefghijklmnopq,1",
    "E",
    "E1",
    "E123",
    "Exx",
    "E.errtext",
};

static void test_malformed(void)
{
	for (size_t i = 0; i < sizeof(malformed) / sizeof(malformed[0]); i++) {
		br_error_t err;
		br_error_clear(&err);
		br_status_t st =
		    rsp_stop_reply_parse(malformed[i], strlen(malformed[i]), &reply, &err);
		CHECK_MSG(st == BR_ERR_PROTOCOL, "\"%s\" accepted", malformed[i]);
		CHECK_MSG(err.status == BR_ERR_PROTOCOL, "\"%s\"", malformed[i]);
		CHECK_MSG(strstr(err.message, "malformed stop reply") != NULL, "\"%s\": %s",
		          malformed[i], err.message);
		char quoted[128];
		snprintf(quoted, sizeof(quoted), "\"%s\"", malformed[i]);
		CHECK_MSG(strstr(err.message, quoted) != NULL, "\"%s\" not quoted: %s",
		          malformed[i], err.message);
	}
	/* a NULL error context is allowed */
	CHECK(rsp_stop_reply_parse("Q", 1, &reply, NULL) == BR_ERR_PROTOCOL);
}

static void test_quoting(void)
{
	br_error_t err;
	br_error_clear(&err);
	CHECK(rsp_stop_reply_parse("T\x01\xff", 3, &reply, &err) == BR_ERR_PROTOCOL);
	CHECK_MSG(strstr(err.message, "\"T\\x01\\xff\"") != NULL, "%s", err.message);

	char longer[300];
	memset(longer, 'Z', sizeof(longer));
	br_error_clear(&err);
	CHECK(rsp_stop_reply_parse(longer, sizeof(longer), &reply, &err) == BR_ERR_PROTOCOL);
	CHECK_MSG(strstr(err.message, "...") != NULL && strlen(err.message) < 200, "%s",
	          err.message);

	/* the length bounds the parse, not a NUL */
	CHECK(rsp_stop_reply_parse("S05trailing", 3, &reply, &err) == BR_OK && reply.code == 5);
	CHECK(rsp_stop_reply_parse("S0", 2, &reply, &err) == BR_ERR_PROTOCOL);
}

int main(void)
{
	test_signal();
	test_exit();
	test_output();
	test_fileio();
	test_malformed();
	test_quoting();
	return check_finish();
}
