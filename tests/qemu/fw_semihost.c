/*
 * Test firmware: prints through Arm semihosting (SYS_WRITE0 to the debugger's
 * stderr, SYS_OPEN ":tt" + SYS_WRITE to its stdout), then ends with
 * SYS_EXIT. Run under QEMU with -semihosting-config enable=on,target=gdb,
 * every call reaches the controller as a File-I/O request.
 * (Arm "Semihosting for AArch32 and AArch64", operations 0x01, 0x04, 0x05,
 * 0x18; on M-profile the call is `bkpt 0xab` with r0 = operation, r1 = argument.)
 */
#include <stdint.h>

#include "main.h"

#define SYS_OPEN 0x01U
#define SYS_WRITE0 0x04U
#define SYS_WRITE 0x05U
#define SYS_EXIT 0x18U
/* SYS_OPEN mode 4: "w" (ISO C fopen modes, in semihosting order). */
#define SEMIHOSTING_MODE_W 4U
/* SYS_EXIT reason: ADP_Stopped_ApplicationExit. */
#define ADP_STOPPED_APPLICATION_EXIT 0x20026U

static uint32_t semihost(uint32_t op, const void *arg)
{
	register uint32_t r0 __asm__("r0") = op;
	register const void *r1 __asm__("r1") = arg;
	__asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
	return r0;
}

static const char to_stderr[] = "semihosting: hello on stderr\n";
static const char to_stdout[] = "semihosting: hello on stdout\n";
static const char console[] = ":tt";

_Noreturn void br_main(void)
{
	semihost(SYS_WRITE0, to_stderr);
	const uint32_t open_args[3] = {(uint32_t)(uintptr_t)console, SEMIHOSTING_MODE_W,
	                               (uint32_t)(sizeof(console) - 1U)};
	uint32_t handle = semihost(SYS_OPEN, open_args);
	const uint32_t write_args[3] = {handle, (uint32_t)(uintptr_t)to_stdout,
	                                (uint32_t)(sizeof(to_stdout) - 1U)};
	semihost(SYS_WRITE, write_args);
	semihost(SYS_EXIT, (const void *)(uintptr_t)ADP_STOPPED_APPLICATION_EXIT);
	for (;;) {
	}
}
