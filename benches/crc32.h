/* CRC-32/IEEE 802.3 (crc32.c): reflected, polynomial 0x04C11DB7 (0xEDB88320
 * reflected), initial value and final XOR 0xFFFFFFFF — the CRC of zlib,
 * Ethernet and PNG. Check value: crc32_ieee_update(0, "123456789", 9) is
 * 0xCBF43926. */
#ifndef BENCHES_CRC32_H
#define BENCHES_CRC32_H

#include <stdint.h>

/* CRC of an empty message; the value to start a running CRC with. */
#define CRC32_IEEE_EMPTY 0x00000000U

/*
 * Continue the CRC `crc` (of the data so far, CRC32_IEEE_EMPTY at first) over
 * len bytes at data and return the CRC of the whole. Table driven, four bits
 * at a time, with no data-dependent branch: every byte costs the same number
 * of instructions. Never inlined or cloned, so its cost is that of one symbol,
 * crc32_ieee_update, at every optimisation level.
 */
uint32_t crc32_ieee_update(uint32_t crc, const uint8_t *data, uint32_t len);

#endif
