#include "elf/demangle.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <libiberty/demangle.h>

#include "common/xalloc.h"

/* What libiberty's callback interface writes into: a growing string. The
 * callback variants allocate nothing themselves. */
typedef struct demangle_buffer {
	char *text;
	size_t length, capacity;
} demangle_buffer_t;

static void buffer_append(const char *piece, size_t length, void *opaque)
{
	demangle_buffer_t *b = opaque;
	if (b->length + length + 1U > b->capacity) {
		size_t capacity = b->capacity == 0 ? 64U : b->capacity;
		while (b->length + length + 1U > capacity)
			capacity *= 2U;
		b->text = xrealloc(b->text, capacity);
		b->capacity = capacity;
	}
	memcpy(b->text + b->length, piece, length);
	b->length += length;
	b->text[b->length] = '\0';
}

char *br_demangle(const char *symbol)
{
	demangle_buffer_t b = {0};
	bool done = false;
	/* Rust first: its legacy scheme is Itanium-shaped, and the C++
	 * demangler would keep the hash as a last path element. Both schemes
	 * are told apart from C++ by libiberty (v0's _R prefix, legacy's
	 * trailing 17h<16 hex digits>E). */
	if (strncmp(symbol, "_R", 2) == 0 || strncmp(symbol, "_ZN", 3) == 0)
		done =
		    rust_demangle_callback(symbol, DMGL_PARAMS | DMGL_ANSI, buffer_append, &b) != 0;
	if (!done && strncmp(symbol, "_Z", 2) == 0) {
		free(b.text);
		b = (demangle_buffer_t){0};
		done = cplus_demangle_v3_callback(symbol, DMGL_PARAMS | DMGL_ANSI, buffer_append,
		                                  &b) != 0;
	}
	if (!done || b.text == NULL) {
		free(b.text);
		return NULL;
	}
	return b.text;
}

size_t br_demangled_base_length(const char *demangled)
{
	static const char operator_call[] = "operator()";
	int angle = 0;
	for (size_t i = 0; demangled[i] != '\0'; i++) {
		char c = demangled[i];
		/* "operator()" is a name, not a parameter list; "operator<" and
		 * "operator<<" are names, not template arguments. */
		if (strncmp(demangled + i, operator_call, sizeof(operator_call) - 1U) == 0) {
			i += sizeof(operator_call) - 2U;
			continue;
		}
		if (strncmp(demangled + i, "operator", 8) == 0) {
			i += 7U;
			while (demangled[i + 1U] == '<' || demangled[i + 1U] == '>' ||
			       demangled[i + 1U] == '=' || demangled[i + 1U] == '-')
				i++;
			continue;
		}
		if (c == '<')
			angle++;
		else if (c == '>' && angle > 0)
			angle--;
		else if (c == '(' && angle == 0 && i > 0)
			return i;
	}
	return strlen(demangled);
}
