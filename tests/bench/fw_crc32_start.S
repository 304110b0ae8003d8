/*
 * Start-up of the Embench-style benchmark firmware (fw_crc32.c): a plain
 * image with its own vector table (tests/machines/machine_vectors.inc) and
 * linker script (fw_crc32.ld), no stub. Reset fills the CRC table and the
 * data once (crc_init), then runs the region for ever:
 *   region_from .. region_to   one crc_pass: a table-driven CRC-32 of
 *                              CRC_BYTES bytes, compiled C at -O2
 * With -DFAR_WORK the C code lies 8 KiB away from the region's two
 * breakpoints, on pages of its own (the layout of bench_user_path.py's far
 * floor); without it, everything shares their 1 KiB page, as a small
 * firmware's code does.
 */
#include "../machines/machine_vectors.inc"

	.thumb_func
	.global reset
reset:
	bl crc_init
	.thumb_func
	.global region_from
region_from:
	bl crc_pass
	.thumb_func
	.global region_to
region_to:
	b region_from

	.thumb_func
	.global fault
fault:
	b fault
#ifdef FAR_WORK
	.balign 8192
#endif
