/*
 * Tables for the pure parts of controller/debug: the memory-map XML parser
 * (good and bad documents), the target-description scanner (register numbers
 * of QEMU's and OpenOCD's descriptions), CPUID and FPB_CTRL decoding, and the
 * flavour table's consistency.
 */
#include <string.h>

#include "check.h"
#include "debug/core_state.h"
#include "debug/cortex_m.h"
#include "debug/flavour.h"
#include "debug/memory_map.h"
#include "debug/server_sched.h"
#include "debug/tdesc.h"

/* As OpenOCD 0.12 sends it for an STM32F4 (abridged). */
static const char openocd_map[] =
    "<?xml version=\"1.0\"?>\n<!DOCTYPE memory-map PUBLIC \"+//IDN gnu.org//DTD GDB Memory Map "
    "V1.0//EN\" \"http://sourceware.org/gdb/gdb-memory-map.dtd\">\n<memory-map>\n"
    "<memory type=\"ram\" start=\"0x0\" length=\"0x8000000\"/>\n"
    "<memory type=\"flash\" start=\"0x08000000\" length=\"0x10000\">\n"
    "<property name=\"blocksize\">0x4000</property>\n</memory>\n"
    "<memory type=\"flash\" start=\"0x08010000\" length=\"0x10000\">\n"
    "<property name=\"blocksize\">0x10000</property>\n</memory>\n"
    "<memory type=\"ram\" start=\"0x08020000\" length=\"0xf7fe0000\"/>\n</memory-map>\n";

static const char *const bad_maps[] = {
    "<memory-map><memory type=\"disk\" start=\"0\" length=\"1\"/></memory-map>",
    "<memory-map><memory type=\"ram\" length=\"1\"/></memory-map>",
    "<memory-map><memory type=\"ram\" start=\"x\" length=\"1\"/></memory-map>",
    "<memory-map><memory type=\"ram\" start=\"0\" length=\"0\"/></memory-map>",
    "<memory-map><memory type=\"ram\" start=\"0xffffff00\" length=\"0x200\"/></memory-map>",
    ("<memory-map><memory type=\"ram\" start=\"0\" length=\"16\"/>"
     "<memory type=\"rom\" start=\"8\" length=\"16\"/></memory-map>"),
    "<memory-map><memory type=\"ram\" start=\"0\" length=\"16\"",
};

/* QEMU 7.2's target.xml includes its m-profile annex; xpsr is regnum 25. */
static const char qemu_target[] =
    "<?xml version=\"1.0\"?><!DOCTYPE target SYSTEM \"gdb-target.dtd\"><target>"
    "<architecture>arm</architecture><xi:include href=\"arm-m-profile.xml\"/>"
    "<xi:include href=\"arm-vfp-sysregs.xml\"/></target>";
static const char qemu_annex[] =
    "<feature name=\"org.gnu.gdb.arm.m-profile\"><reg name=\"r0\" bitsize=\"32\"/>"
    "<reg name=\"r1\" bitsize=\"32\"/><reg name=\"r2\" bitsize=\"32\"/>"
    "<reg name=\"r3\" bitsize=\"32\"/><reg name=\"r4\" bitsize=\"32\"/>"
    "<reg name=\"r5\" bitsize=\"32\"/><reg name=\"r6\" bitsize=\"32\"/>"
    "<reg name=\"r7\" bitsize=\"32\"/><reg name=\"r8\" bitsize=\"32\"/>"
    "<reg name=\"r9\" bitsize=\"32\"/><reg name=\"r10\" bitsize=\"32\"/>"
    "<reg name=\"r11\" bitsize=\"32\"/><reg name=\"r12\" bitsize=\"32\"/>"
    "<reg name=\"sp\" bitsize=\"32\" type=\"data_ptr\"/>"
    "<reg name=\"lr\" bitsize=\"32\"/><reg name=\"pc\" bitsize=\"32\" type=\"code_ptr\"/>"
    "<reg name=\"xpsr\" bitsize=\"32\" regnum=\"25\"/></feature>";

int main(void)
{
	br_memory_map_t map;
	br_error_t err;
	CHECK(br_memory_map_parse(openocd_map, strlen(openocd_map), &map, &err) == BR_OK);
	CHECK(map.count == 4);
	const br_region_t *r = br_memory_map_find(&map, 0x08000100U);
	CHECK(r != NULL && r->kind == BR_REGION_FLASH && r->blocksize == 0x4000U);
	r = br_memory_map_find(&map, 0x08010000U);
	CHECK(r != NULL && r->kind == BR_REGION_FLASH && r->blocksize == 0x10000U);
	r = br_memory_map_find(&map, 0x20000000U);
	CHECK(r != NULL && r->kind == BR_REGION_RAM);
	CHECK(br_memory_map_find(&map, 0xFFFFFFFFU) != NULL);
	CHECK(br_memory_map_parse("", 0, &map, &err) == BR_OK && map.count == 0);
	for (size_t i = 0; i < sizeof(bad_maps) / sizeof(bad_maps[0]); i++)
		CHECK_MSG(br_memory_map_parse(bad_maps[i], strlen(bad_maps[i]), &map, &err) ==
		              BR_ERR_PROTOCOL,
		          "accepted: %s", bad_maps[i]);

	br_tdesc_t d;
	br_tdesc_init(&d);
	br_tdesc_scan(&d, qemu_target, strlen(qemu_target));
	CHECK(d.include_count == 2 && strcmp(d.includes[0], "arm-m-profile.xml") == 0);
	br_tdesc_scan(&d, qemu_annex, strlen(qemu_annex));
	for (unsigned i = 0; i < 16; i++)
		CHECK_MSG(d.found[i] && d.regnum[i] == i, "r%u", i);
	CHECK(d.found[BR_TDESC_XPSR] && d.regnum[BR_TDESC_XPSR] == 25U);
	br_tdesc_init(&d);
	static const char openocd_regs[] =
	    "<reg name=\"pc\" bitsize=\"32\" regnum=\"15\"/>"
	    "<reg name=\"xPSR\" bitsize=\"32\" regnum=\"16\"/><reg name=\"msp\" bitsize=\"32\"/>";
	br_tdesc_scan(&d, openocd_regs, strlen(openocd_regs));
	CHECK(d.found[15] && d.regnum[15] == 15U && d.found[16] && d.regnum[16] == 16U);
	CHECK(d.next_regnum == 18U);
	br_tdesc_scan(&d, "<reg name=", 10); /* truncated: skipped, no crash */

	static const struct {
		uint32_t cpuid;
		const char *core;
	} cpus[] = {
	    {0x410FC241U, "Cortex-M4"},  {0x410FC240U, "Cortex-M4"},  {0x412FC230U, "Cortex-M3"},
	    {0x410CC200U, "Cortex-M0"},  {0x410CC601U, "Cortex-M0+"}, {0x411FC272U, "Cortex-M7"},
	    {0x410FD213U, "Cortex-M33"}, {0x00000000U, NULL},         {0x41000000U, NULL},
	    {0x510FC240U, NULL},
	};
	for (size_t i = 0; i < sizeof(cpus) / sizeof(cpus[0]); i++) {
		br_cortex_m_info_t info;
		br_cortex_m_decode_cpuid(cpus[i].cpuid, &info);
		CHECK_MSG((info.core == NULL && cpus[i].core == NULL) ||
		              (info.core != NULL && cpus[i].core != NULL &&
		               strcmp(info.core, cpus[i].core) == 0),
		          "CPUID 0x%08x", cpus[i].cpuid);
	}
	/* FPB_CTRL: NUM_CODE = [14:12]:[7:4]; Cortex-M4 has 6, M7 8. */
	CHECK(br_cortex_m_fpb_comparators(0x00000260U) == 6U);
	CHECK(br_cortex_m_fpb_comparators(0x10000081U) == 8U);
	CHECK(br_cortex_m_fpb_comparators(0x00007070U) == 0x77U);
	CHECK(br_cortex_m_fpb_comparators(0U) == 0U);

	/* The flavour table: every row named, found by name, QEMU and OpenOCD facts. */
	CHECK(br_flavour_count() == 6);
	for (size_t i = 0; i < br_flavour_count(); i++) {
		const br_flavour_t *f = br_flavour_at(i);
		CHECK(f->name != NULL && f->description != NULL && br_flavour_find(f->name) == f);
		CHECK(strstr(br_flavour_names(), f->name) != NULL);
		CHECK(!f->steps_over_breakpoints); /* none of these servers does */
	}
	CHECK(br_flavour_find("nope") == NULL && br_flavour_at(99) == NULL);
	CHECK(br_flavour_qemu()->max_read_bytes == 0x800U && br_flavour_qemu()->detach_needs_pid);
	CHECK(br_flavour_openocd()->broken_reply_chars == 1020U);
	CHECK(strcmp(br_flavour_openocd()->reset_command, "reset halt") == 0);
	CHECK(strcmp(br_flavour_qemu()->reset_command, "system_reset") == 0);
	CHECK(br_flavour_generic()->reset_command == NULL);

	/* What the core was doing: exception names and the fault status decoded
	 * (ARMv7-M ARM B1.5.2, B3.2.15-18). */
	char text[256];
	br_core_exception_name(0, text, sizeof(text));
	CHECK(strcmp(text, "Thread mode") == 0);
	br_core_exception_name(15, text, sizeof(text));
	CHECK(strcmp(text, "SysTick") == 0);
	br_core_exception_name(21, text, sizeof(text));
	CHECK(strcmp(text, "IRQ 5") == 0);
	br_core_state_t cs = {.pc = 0x08000068U, .xpsr = 0x01000000U};
	br_core_state_describe(&cs, text, sizeof(text));
	CHECK(text[0] == '\0'); /* Thread mode: nothing to add */
	cs.xpsr = 0x01000003U;
	cs.faults_read = true;
	cs.hfsr = 0x40000000U;
	cs.cfsr = 0x00010000U;
	br_core_state_describe(&cs, text, sizeof(text));
	CHECK_MSG(strcmp(text, "IPSR 3 (HardFault); HFSR 0x40000000: FORCED; CFSR 0x00010000: "
	                       "UNDEFINSTR") == 0,
	          "%s", text);
	cs.xpsr = 0x01000005U;
	cs.hfsr = 0;
	cs.cfsr = 0x00008200U; /* PRECISERR with BFARVALID */
	cs.bfar = 0x30000000U;
	br_core_state_describe(&cs, text, sizeof(text));
	CHECK_MSG(strcmp(text, "IPSR 5 (BusFault); HFSR 0x00000000: none set; CFSR 0x00008200: "
	                       "PRECISERR BFARVALID; BFAR 0x30000000") == 0,
	          "%s", text);

	/* A starved server: its busiest waiting thread against the wall time. */
	br_server_t server = {.name = "qemu-system-arm"};
	br_server_sched_t a = {.known = true, .at_ns = 0, .count = 2,
	                       .threads = {{1, 100, 100}, {2, 5000, 10}}};
	br_server_sched_t b = a;
	b.at_ns = 4000000000;
	b.threads[1].wait_ns = 10 + 3000000000ULL; /* 3 s of 4 s waiting */
	b.threads[1].run_ns = 5000 + 500000000ULL;
	CHECK(br_server_sched_starved(&server, &a, &b, text, sizeof(text)));
	CHECK_MSG(strcmp(text, "qemu-system-arm waited for a CPU 3 s of the 4 s (75 %) and ran "
	                       "0.5 s") == 0,
	          "%s", text);
	b.threads[1].wait_ns = 10 + 1000000000ULL; /* 1 s of 4: not starved */
	CHECK(!br_server_sched_starved(&server, &a, &b, text, sizeof(text)));
	b.threads[0].wait_ns = 100 + 1500000000ULL; /* with the other's 1 s: 2.5 s of 4 */
	CHECK(br_server_sched_starved(&server, &a, &b, text, sizeof(text)));
	CHECK_MSG(strstr(text, "2.5 s of the 4 s (62 %)") != NULL, "%s", text);
	b.threads[0].wait_ns = 100 + 3900000000ULL; /* 4.9 s of 4: at most the wall */
	CHECK(br_server_sched_starved(&server, &a, &b, text, sizeof(text)));
	CHECK_MSG(strstr(text, "4 s of the 4 s (100 %)") != NULL, "%s", text);
	b.threads[0].wait_ns = 100;
	b.threads[1].tid = 3; /* another thread: nothing to compare */
	b.threads[1].wait_ns = 10 + 3500000000ULL;
	CHECK(!br_server_sched_starved(&server, &a, &b, text, sizeof(text)));
	a.known = false;
	CHECK(!br_server_sched_starved(&server, &a, &b, text, sizeof(text)));
	return check_finish();
}
