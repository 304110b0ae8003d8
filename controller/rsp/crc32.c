#include "rsp/crc32.h"

/* CRC-32 generator polynomial, MSB-first form. */
#define RSP_CRC32_POLY 0x04C11DB7U
#define RSP_CRC32_TOP_BIT 0x80000000U

uint32_t rsp_crc32_update(uint32_t crc, const void *data, size_t len)
{
	const uint8_t *p = data;
	for (size_t i = 0; i < len; i++) {
		crc ^= (uint32_t)p[i] << 24;
		for (int bit = 0; bit < 8; bit++)
			crc = (crc & RSP_CRC32_TOP_BIT) != 0U ? (crc << 1) ^ RSP_CRC32_POLY
			                                      : crc << 1;
	}
	return crc;
}
