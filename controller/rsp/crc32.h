/*
 * The checksum of the 'qCRC:addr,length' packet (GDB manual, "General Query
 * Packets": "the CRC-32 ... of the specified memory region"): polynomial
 * 0x04C11DB7 processed most significant bit first, not reflected, no final
 * XOR, seeded with 0xFFFFFFFF by the server. GDB computes the same locally to
 * compare-sections; so does `benchrack` to verify a load.
 */
#ifndef BENCHRACK_RSP_CRC32_H
#define BENCHRACK_RSP_CRC32_H

#include <stddef.h>
#include <stdint.h>

/* The seed a qCRC reply starts from. */
#define RSP_CRC32_SEED 0xFFFFFFFFU

/* Continues crc over len bytes of data and returns the new value. */
uint32_t rsp_crc32_update(uint32_t crc, const void *data, size_t len);

#endif
