#include "measure/span.h"

#include <string.h>

#include "elf/elf_symbols.h"

br_status_t br_span_range(const br_elf_t *elf, const char *from, const char *to, br_span_t *out,
                          br_error_t *err)
{
	memset(out, 0, sizeof(*out));
	out->kind = BR_SPAN_RANGE;
	br_status_t st = br_location_resolve(elf, from, &out->from, err);
	if (st != BR_OK)
		return br_error_prefix(err, "--from %s", from);
	st = br_location_resolve(elf, to, &out->to, err);
	if (st != BR_OK)
		return br_error_prefix(err, "--to %s", to);
	return BR_OK;
}

br_status_t br_span_function(const br_elf_t *elf, const char *name, br_span_t *out, br_error_t *err)
{
	memset(out, 0, sizeof(*out));
	out->kind = BR_SPAN_FUNCTION;
	br_status_t st = br_location_resolve(elf, name, &out->from, err);
	if (st != BR_OK)
		return br_error_prefix(err, "--function %s", name);
	br_elf_function_t fn;
	if (!br_elf_symbol_at(elf, out->from.address, &fn) || fn.address != out->from.address)
		return br_error_set(err, BR_ERR_USAGE,
		                    "--function %s: %s is not the entry of a function; give a "
		                    "function's name (or measure a range with --from/--to)",
		                    name, out->from.describe);
	out->to = out->from;
	return BR_OK;
}

const char *br_span_kind_name(br_span_kind_t kind)
{
	return kind == BR_SPAN_FUNCTION ? "function" : "range";
}
