/*
 * QEMU's execution log as profile/exec_log.c reads it, on lines written here
 * in QEMU 7.2's shapes (DESIGN.md, and as -d exec,nochain,int prints them)
 * for the real fixture image (fw_region.S): a call of step (heavy, then
 * light) as --exact --function step counts it: a "Stopped execution of TB
 * chain" line and a "cpu_io_recompile: rewound" line each take back the line
 * before them; an exception taken inside heavy puts its handler above heavy
 * and its return takes it off; the pass ends at step's return, and lines
 * after it are not looked at; lines may arrive cut anywhere.
 *
 * usage: test_exec_log FW_PROFILE_REGION_ELF
 */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "fixture_elf.h"
#include "elf/elf_symbols.h"
#include "profile/exec_log.h"

static size_t line(char *buf, size_t cap, uint32_t pc)
{
	return (size_t)snprintf(buf, cap,
	                        "Trace 0: 0x7f3524000100 [00800408/%08x/00000110/ff020201] fn\n",
	                        (unsigned)pc);
}

/* The count of the chain whose names are want (root first), or 0. */
static uint64_t chain_count(const br_profile_t *p, const char *const *want, size_t depth)
{
	for (size_t i = 0; i < p->nchains; i++) {
		const br_profile_chain_t *c = &p->chains[i];
		bool same = c->depth == depth;
		for (size_t d = 0; same && d < depth; d++)
			same = strcmp(p->frames[c->frames[d]].name, want[d]) == 0;
		if (same)
			return c->count;
	}
	return 0;
}

int main(int argc, char **argv)
{
	br_elf_t *elf = fixture_elf_open(argc, argv);
	if (elf == NULL)
		return 2;
	br_error_t err;
	uint32_t r = fixture_sym(elf, "Reset_Handler"), s = fixture_sym(elf, "step"),
	         h = fixture_sym(elf, "heavy"), l = fixture_sym(elf, "light"),
	         rs = fixture_sym(elf, "region_start"), f = fixture_sym(elf, "fault");
	br_span_t span;
	CHECK(br_span_function(elf, "step", &span, &err) == BR_OK);
	br_profile_t p;
	br_profile_data_init(&p, BR_PROFILE_EXACT);
	br_exec_log_options_t o = {.elf = elf, .span = &span, .max_steps = 1000};
	br_exec_log_t x;
	br_exec_log_init(&x, &o, &p);

	static char log[8192];
	size_t n = 0;
	const uint32_t before[] = {r, rs, r + 4U, r + 8U, s, s + 2U, h};
	for (size_t i = 0; i < sizeof(before) / sizeof(before[0]); i++)
		n += line(log + n, sizeof(log) - n, before[i]);
	n += (size_t)snprintf(log + n, sizeof(log) - n,
	                      "Stopped execution of TB chain before 0x7f7638005480 [%08x] heavy\n",
	                      (unsigned)h);
	n += line(log + n, sizeof(log) - n, h);
	n += (size_t)snprintf(log + n, sizeof(log) - n,
	                      "cpu_io_recompile: rewound execution of TB to %08x\n", (unsigned)h);
	n += line(log + n, sizeof(log) - n, h);      /* heavy: 1 */
	n += line(log + n, sizeof(log) - n, h + 4U); /* 2 */
	n += (size_t)snprintf(log + n, sizeof(log) - n,
	                      "Taking exception 5 [IRQ] on CPU 0\n"
	                      "...taking pending nonsecure exception 19\n"
	                      "...loaded new PC 0x%08x\n",
	                      (unsigned)(f | 1U));
	n += line(log + n, sizeof(log) - n, f); /* fault, above heavy: 1 */
	n += (size_t)snprintf(log + n, sizeof(log) - n,
	                      "Taking exception 8 [QEMU v7M exception exit] on CPU 0\n"
	                      "Exception return: magic PC fffffff9 previous exception 19\n"
	                      "...successful exception return\n");
	const uint32_t after[] = {h + 6U, h + 8U, h + 10U, s + 6U,  l,       l + 4U,
	                          l + 6U, l + 8U, l + 10U, s + 10U, r + 12U, r + 14U};
	for (size_t i = 0; i < sizeof(after) / sizeof(after[0]); i++)
		n += line(log + n, sizeof(log) - n, after[i]);
	/* Fed in pieces of 7 bytes: lines cut anywhere. */
	bool done = false;
	for (size_t at = 0; at < n && !done; at += 7U)
		done = br_exec_log_feed(&x, log + at, n - at < 7U ? n - at : 7U);
	CHECK(done && x.done && !x.over);
	const char *heavy[] = {"Reset_Handler", "step", "heavy"};
	const char *light[] = {"Reset_Handler", "step", "light"};
	const char *own[] = {"Reset_Handler", "step"};
	const char *handler[] = {"Reset_Handler", "step", "heavy", "fault"};
	CHECK_MSG(chain_count(&p, heavy, 3) == 5, "heavy %llu",
	          (unsigned long long)chain_count(&p, heavy, 3));
	CHECK(chain_count(&p, light, 3) == 5);
	CHECK_MSG(chain_count(&p, own, 2) == 4, "step %llu",
	          (unsigned long long)chain_count(&p, own, 2));
	CHECK(chain_count(&p, handler, 4) == 1);
	CHECK_MSG(p.counted == 15, "counted %llu", (unsigned long long)p.counted);
	CHECK(p.nchains == 4);
	br_exec_log_free(&x);
	br_profile_data_free(&p);

	/* The same pass with --max-steps 3: over, its length still counted. */
	br_profile_data_init(&p, BR_PROFILE_EXACT);
	o.max_steps = 3;
	br_exec_log_init(&x, &o, &p);
	done = br_exec_log_feed(&x, log, n);
	CHECK(done && x.over && p.counted == 3 && x.pass_count == 15);
	br_exec_log_free(&x);
	br_profile_data_free(&p);
	br_elf_close(elf);
	return check_finish();
}
