/*
 * Names as written: controller/elf/demangle.c on real mangled strings (g++'s
 * Itanium names, rustc's legacy and v0 names), and symbol lookup by those
 * names in an ARM ELF whose symbol table holds them (fixture/mangled.c):
 * C++ by name and by name with parameter types, an overload set ambiguous
 * with its candidates listed, Rust legacy and v0 paths, and function names
 * shown demangled.
 *
 * usage: test_demangle [--elf=FIXTURE]   (without --elf: the demangler table only)
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "elf/demangle.h"
#include "elf/elf_file.h"
#include "elf/elf_symbols.h"

typedef struct demangle_case {
	const char *mangled;
	const char *demangled; /* NULL: not a mangled name */
	const char *base;      /* the name without its parameters */
} demangle_case_t;

static const demangle_case_t cases[] = {
    {"_ZN3dsp3Fir4stepEs", "dsp::Fir::step(short)", "dsp::Fir::step"},
    {"_ZNK3dsp3Fir4stepEs", "dsp::Fir::step(short) const", "dsp::Fir::step"},
    {"_ZN3dsp3mixEi", "dsp::mix(int)", "dsp::mix"},
    {"_ZN3dsp3mixIiEEvT_", "void dsp::mix<int>(int)", "void dsp::mix<int>"},
    {"_ZN12_GLOBAL__N_13fooEi", "(anonymous namespace)::foo(int)", "(anonymous namespace)::foo"},
    {"_ZN3dsp3FirclEs", "dsp::Fir::operator()(short)", "dsp::Fir::operator()"},
    {"_ZN3dsp3FirltERKS0_", "dsp::Fir::operator<(dsp::Fir const&)", "dsp::Fir::operator<"},
    {"_ZN69_$LT$std..os..fd..owned..OwnedFd$u20$as$u20$core..ops..drop..Drop$GT$4drop17h797f0218dc1a33abE",
     "<std::os::fd::owned::OwnedFd as core::ops::drop::Drop>::drop",
     "<std::os::fd::owned::OwnedFd as core::ops::drop::Drop>::drop"},
    {"_RNvCsaljjC7ZTCQu_3log6logger", "log::logger", "log::logger"},
    {"_RNvCs69hjMPjVIJK_4test13test_function", "test::test_function", "test::test_function"},
    {"_RNvCsbkii2mvYdKU_7___rustc14___rust_realloc", "__rustc::__rust_realloc",
     "__rustc::__rust_realloc"},
    {"main", NULL, NULL},
    {"crc32_update", NULL, NULL},
    {"_Z", NULL, NULL},
    {"_Zfoo", NULL, NULL},
    {"_R", NULL, NULL},
};

static void check_table(void)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const demangle_case_t *c = &cases[i];
		char *d = br_demangle(c->mangled);
		if (c->demangled == NULL) {
			CHECK_MSG(d == NULL, "%s demangled to '%s'", c->mangled, d);
		} else {
			CHECK_MSG(d != NULL && strcmp(d, c->demangled) == 0, "%s -> '%s' (want '%s')",
				  c->mangled, d != NULL ? d : "(null)", c->demangled);
			if (d != NULL)
				CHECK_MSG(br_demangled_base_length(d) == strlen(c->base),
					  "base of '%s' is %zu bytes (want '%s')", d,
					  br_demangled_base_length(d), c->base);
		}
		free(d);
	}
}

/* name resolves, to the same address as the raw symbol raw. */
static void check_resolves(const br_elf_t *elf, const char *name, const char *raw)
{
	br_elf_symbol_t by_name, by_raw;
	br_error_t err;
	br_error_clear(&err);
	br_status_t st = br_elf_symbol_find(elf, name, &by_name, &err);
	CHECK_MSG(st == BR_OK, "'%s': %s", name, err.message);
	CHECK_MSG(br_elf_symbol_find(elf, raw, &by_raw, &err) == BR_OK, "'%s': %s", raw,
		  err.message);
	if (st == BR_OK)
		CHECK_MSG(by_name.address == by_raw.address && by_name.is_function,
			  "'%s' at 0x%08x, '%s' at 0x%08x", name, by_name.address, raw,
			  by_raw.address);
}

static void check_elf(const char *path)
{
	br_elf_t *elf = NULL;
	br_error_t err;
	br_error_clear(&err);
	if (br_elf_open(path, &elf, &err) != BR_OK) {
		CHECK_MSG(false, "%s", err.message);
		return;
	}
	check_resolves(elf, "dsp::Fir::step", "_ZN3dsp3Fir4stepEs");
	check_resolves(elf, "dsp::Fir::step(short)", "_ZN3dsp3Fir4stepEs");
	check_resolves(elf, "dsp::mix(int)", "_ZN3dsp3mixEi");
	check_resolves(elf, "dsp::mix(short)", "_ZN3dsp3mixEs");
	check_resolves(elf, "dsp::mix<int>", "_ZN3dsp3mixIiEEvT_");
	check_resolves(elf, "<std::os::fd::owned::OwnedFd as core::ops::drop::Drop>::drop",
		       "_ZN69_$LT$std..os..fd..owned..OwnedFd$u20$as$u20$core..ops..drop..Drop$"
		       "GT$4drop17h797f0218dc1a33abE");
	check_resolves(elf, "log::logger", "_RNvCsaljjC7ZTCQu_3log6logger");
	check_resolves(elf, "test::test_function", "_RNvCs69hjMPjVIJK_4test13test_function");
	check_resolves(elf, "mangled_main", "mangled_main");

	/* An overload set: both candidates listed, with what to write instead. */
	br_elf_symbol_t sym;
	br_error_clear(&err);
	br_status_t st = br_elf_symbol_find(elf, "dsp::mix", &sym, &err);
	CHECK_MSG(st == BR_ERR_INPUT && strstr(err.message, "ambiguous") != NULL &&
			  strstr(err.message, "dsp::mix(short) at 0x") != NULL &&
			  strstr(err.message, "dsp::mix(int) at 0x") != NULL &&
			  strstr(err.message, "2 candidates") != NULL,
		  "dsp::mix: %s", err.message);
	/* Near misses are not found. */
	br_error_clear(&err);
	CHECK(br_elf_symbol_find(elf, "dsp::Fir::ste", &sym, &err) == BR_ERR_INPUT);
	CHECK(strstr(err.message, "not found") != NULL);
	br_error_clear(&err);
	CHECK(br_elf_symbol_find(elf, "dsp::Fir::step(int)", &sym, &err) == BR_ERR_INPUT);
	br_error_clear(&err);
	CHECK(br_elf_symbol_find(elf, "logger", &sym, &err) == BR_ERR_INPUT);

	/* Reports name functions as written. */
	bool seen_cpp = false, seen_legacy = false, seen_v0 = false, seen_raw = false;
	br_elf_function_iter_t it;
	br_elf_function_t fn;
	br_elf_functions_begin(elf, &it);
	while (br_elf_functions_next(&it, &fn)) {
		seen_cpp |= strcmp(fn.name, "dsp::Fir::step(short)") == 0;
		seen_legacy |=
		    strcmp(fn.name, "<std::os::fd::owned::OwnedFd as core::ops::drop::Drop>::drop") == 0;
		seen_v0 |= strcmp(fn.name, "log::logger") == 0;
		seen_raw |= strncmp(fn.name, "_Z", 2) == 0 || strncmp(fn.name, "_R", 2) == 0;
	}
	CHECK(seen_cpp && seen_legacy && seen_v0);
	CHECK(!seen_raw);
	br_elf_symbol_t step;
	if (br_elf_symbol_find(elf, "dsp::Fir::step", &step, NULL) == BR_OK) {
		char where[128];
		br_elf_symbol_describe(elf, step.address + 2U, where, sizeof(where));
		CHECK_MSG(strstr(where, "(dsp::Fir::step(short)+0x2)") != NULL, "%s", where);
	}
	br_elf_close(elf);
}

int main(int argc, char **argv)
{
	check_table();
	for (int i = 1; i < argc; i++) {
		if (strncmp(argv[i], "--elf=", 6) == 0)
			check_elf(argv[i] + 6);
	}
	return check_finish();
}
