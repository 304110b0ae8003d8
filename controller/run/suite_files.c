#include "run/suite_files.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "yaml/cfg_error.h"
#include "elf/elf_file.h"
#include "measure/stub_layout.h"

/* Whether layout's bench table holds name. */
static bool layout_has(const br_stub_layout_t *layout, const char *name)
{
	for (uint32_t i = 0; i < layout->bench_count; i++) {
		if (strncmp(layout->bench_names[i], name, sizeof(layout->bench_names[i])) == 0)
			return true;
	}
	return false;
}

/* The stub benches the suite lists must be in the firmware's table. */
static br_status_t check_benches(const br_suite_t *suite, const br_stub_layout_t *layout,
                                 const char *firmware, br_error_t *err)
{
	for (size_t k = 0; k < suite->bench_count; k++) {
		const br_suite_bench_t *b = &suite->benches[k];
		if (b->kind != BR_SUITE_ENTRY_STUB || layout_has(layout, b->name.value))
			continue;
		char have[BR_STUB_BENCH_NAMES_JOINED];
		br_stub_bench_names_join(layout->bench_names, layout->bench_count, have,
		                         sizeof(have));
		return br_cfg_error(err, suite->path, b->name.mark,
		                    "bench '%s' is not in the firmware %s (it has: %s); add it to "
		                    "the firmware's suite table or remove it from the suite file",
		                    b->name.value, firmware, have);
	}
	return BR_OK;
}

/* The firmware's stub layout; a failure at the suite's firmware: key when the
 * image is the one it names. */
static br_status_t check_firmware(const br_suite_t *suite, const char *firmware, br_error_t *err)
{
	bool from_suite =
	    suite->firmware_path != NULL && strcmp(firmware, suite->firmware_path) == 0;
	br_elf_t *elf = NULL;
	br_stub_layout_t layout;
	br_status_t st = br_elf_open(firmware, &elf, err);
	if (st == BR_OK)
		st = br_stub_layout_from_elf(elf, &layout, err);
	br_elf_close(elf);
	if (st != BR_OK && from_suite) {
		br_error_t why = *err;
		return br_cfg_error(err, suite->path, suite->file.firmware.mark, "firmware: %s",
		                    why.message);
	}
	if (st != BR_OK)
		return st;
	return check_benches(suite, &layout, firmware, err);
}

br_status_t br_suite_files_check(const br_suite_t *suite, const char *firmware, br_error_t *err)
{
	bool stub = suite->bench_count == 0;
	for (size_t k = 0; k < suite->bench_count; k++) {
		const br_suite_bench_t *b = &suite->benches[k];
		if (b->kind == BR_SUITE_ENTRY_STUB) {
			stub = true;
			continue;
		}
		br_elf_t *elf = NULL;
		if (br_elf_open(b->elf_path, &elf, err) != BR_OK) {
			br_error_t why = *err;
			return br_cfg_error(err, suite->path, b->elf.mark, "bench %s: elf: %s",
			                    b->name.value, why.message);
		}
		br_elf_close(elf);
	}
	if (stub && firmware != NULL)
		return check_firmware(suite, firmware, err);
	return BR_OK;
}
