#include "measure/stub_layout.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "elf/elf_image.h"
#include "elf/elf_symbols.h"

uint32_t br_stub_le32(const uint8_t *buf, size_t off)
{
	return (uint32_t)buf[off] | (uint32_t)buf[off + 1U] << 8 | (uint32_t)buf[off + 2U] << 16 |
	       (uint32_t)buf[off + 3U] << 24;
}

br_status_t br_stub_layout_check_header(const uint8_t *block, const char *where, br_error_t *err)
{
	uint32_t magic = br_stub_le32(block, offsetof(br_control_block_t, magic));
	uint32_t version = br_stub_le32(block, offsetof(br_control_block_t, version));
	uint32_t size = br_stub_le32(block, offsetof(br_control_block_t, size));
	if (magic != BR_CB_MAGIC)
		return br_error_set(err, BR_ERR_INPUT,
		                    "%s: control block magic is 0x%08x, expected 0x%08x: "
		                    "the firmware was not built with benchrack's stub",
		                    where, magic, BR_CB_MAGIC);
	if (version != BR_CB_VERSION || size != BR_CB_SIZE)
		return br_error_set(err, BR_ERR_INPUT,
		                    "%s: control block version %u (size %u), this benchrack speaks "
		                    "version %u (size %u): rebuild the firmware with this stub/",
		                    where, version, size, BR_CB_VERSION, (unsigned)BR_CB_SIZE);
	return BR_OK;
}

/* Reads bench `index`'s name through the table at `table` into out: up to
 * BR_CB_NAME_BYTES - 1 characters, stopping at the NUL or at the end of the
 * section that holds it. */
static br_status_t read_name(const br_elf_t *elf, uint32_t table, uint32_t index, char *out,
                             br_error_t *err)
{
	uint8_t entry[BR_CB_BENCH_ENTRY_BYTES];
	br_status_t st = br_elf_read_initial(elf, table + index * BR_CB_BENCH_ENTRY_BYTES, entry,
	                                     sizeof(entry), err);
	if (st != BR_OK)
		return br_error_prefix(err, "bench table entry %u", index);
	uint32_t name = br_stub_le32(entry, BR_CB_BENCH_ENTRY_NAME);
	memset(out, 0, BR_CB_NAME_BYTES);
	for (uint32_t i = 0; i + 1U < BR_CB_NAME_BYTES; i++) {
		char c = '\0';
		st = br_elf_read_initial(elf, name + i, &c, 1U, err);
		if (st != BR_OK && i == 0U)
			return br_error_prefix(err, "bench %u's name", index);
		if (st != BR_OK || c == '\0')
			break;
		out[i] = c;
	}
	return BR_OK;
}

br_status_t br_stub_layout_from_elf(const br_elf_t *elf, br_stub_layout_t *layout, br_error_t *err)
{
	const char *path = br_elf_path(elf);
	br_elf_symbol_t cb, sync;
	br_status_t st = br_elf_symbol_find(elf, BR_CONTROL_BLOCK_SYMBOL, &cb, err);
	if (st != BR_OK)
		return br_error_set(err, BR_ERR_INPUT,
		                    "%s has no control block (symbol %s): it is not a benchrack "
		                    "suite firmware; measure it with `benchrack measure` instead",
		                    path, BR_CONTROL_BLOCK_SYMBOL);
	st = br_elf_symbol_find(elf, BR_HOST_SYNC_SYMBOL, &sync, err);
	if (st != BR_OK)
		return br_error_set(err, BR_ERR_INPUT,
		                    "%s has a control block but no %s: "
		                    "rebuild it with benchrack's stub/",
		                    path, BR_HOST_SYNC_SYMBOL);
	if (cb.size != 0 && cb.size != BR_CB_SIZE)
		return br_error_set(err, BR_ERR_INPUT,
		                    "%s: control block is %u bytes, this benchrack expects %u: "
		                    "rebuild the firmware with this stub/",
		                    path, cb.size, (unsigned)BR_CB_SIZE);
	uint8_t block[BR_CB_SIZE];
	st = br_elf_read_initial(elf, cb.address, block, sizeof(block), err);
	if (st != BR_OK)
		return st;
	st = br_stub_layout_check_header(block, path, err);
	if (st != BR_OK)
		return st;
	memset(layout, 0, sizeof(*layout));
	layout->control_block = cb.address;
	layout->host_sync = sync.address;
	layout->state = br_stub_le32(block, BR_CB_OFFSET_STATE_ADDRESS);
	layout->bench_count = br_stub_le32(block, BR_CB_OFFSET_BENCH_COUNT);
	layout->max_samples = br_stub_le32(block, BR_CB_OFFSET_MAX_SAMPLES);
	layout->samples_address = br_stub_le32(block, BR_CB_OFFSET_SAMPLES_ADDRESS);
	if (layout->bench_count > BR_CB_MAX_BENCHES || layout->max_samples == 0 ||
	    layout->max_samples > BR_CB_MAX_SAMPLES)
		return br_error_set(err, BR_ERR_INPUT,
		                    "%s: control block claims %u benches (at most %u) and a buffer "
		                    "of %u samples (1 to %u): rebuild the firmware with this stub/",
		                    path, layout->bench_count, BR_CB_MAX_BENCHES,
		                    layout->max_samples, BR_CB_MAX_SAMPLES);
	uint32_t table = br_stub_le32(block, BR_CB_OFFSET_BENCH_TABLE);
	for (uint32_t i = 0; i < layout->bench_count; i++) {
		st = read_name(elf, table, i, layout->bench_names[i], err);
		if (st != BR_OK)
			return br_error_prefix(err, "%s", path);
	}
	return BR_OK;
}

void br_stub_bench_names_join(const char names[][BR_CB_NAME_BYTES], uint32_t count, char *out,
                              size_t cap)
{
	if (cap == 0)
		return;
	out[0] = '\0';
	size_t n = 0;
	for (uint32_t i = 0; i < count && n < cap; i++)
		n += (size_t)snprintf(out + n, cap - n, "%s%s", i > 0 ? ", " : "", names[i]);
}
