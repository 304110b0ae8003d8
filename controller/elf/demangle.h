/*
 * Symbol names as the programmer wrote them: C++ (Itanium ABI, `_Z...`) and
 * Rust (legacy `_ZN...17h<hash>E` and v0 `_R...`) demangled by libiberty,
 * the demangler GCC and binutils use (Debian's libiberty-dev).
 */
#ifndef BENCHRACK_ELF_DEMANGLE_H
#define BENCHRACK_ELF_DEMANGLE_H

#include <stddef.h>

/*
 * The demangled form of symbol: "dsp::Fir::step(short)" for
 * "_ZN3dsp3Fir4stepEs", "mycrate::dsp::fir_step" for a Rust symbol of either
 * scheme (the legacy hash and v0 crate disambiguators left out). Returns a
 * string the caller frees, or NULL when symbol is not a mangled name (a C
 * name) or cannot be demangled.
 */
char *br_demangle(const char *symbol);

/*
 * The length of demangled's name without its parameter list and
 * qualifiers: 14 for "dsp::Fir::step(short) const" ("dsp::Fir::step"),
 * the whole length when it has none (a Rust path, a C name). The parameter
 * list is the first "(" outside template arguments.
 */
size_t br_demangled_base_length(const char *demangled);

#endif
