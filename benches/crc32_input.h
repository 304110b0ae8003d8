/* The fixed message the CRC benches checksum (crc32_input.c). */
#ifndef BENCHES_CRC32_INPUT_H
#define BENCHES_CRC32_INPUT_H

#include <stdint.h>

#define CRC32_INPUT_BYTES 256U

/* Byte i is (i * 167 + 13) mod 256: every value once, in a scrambled order.
 * In flash (const), so no start-up copy is involved. */
extern const uint8_t crc32_input[CRC32_INPUT_BYTES];

#endif
