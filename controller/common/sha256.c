#include "common/sha256.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/file_read.h"

#define SHA256_BLOCK 64U
#define SHA256_ROUNDS 64U
#define SHA256_LENGTH_AT 56U /* where the message's bit length starts in the last block */

/* FIPS 180-4 section 4.2.2: the first 32 bits of the fractional parts of the
 * cube roots of the first 64 primes. */
static const uint32_t k[SHA256_ROUNDS] = {
    0x428a2f98U, 0x71374491U, 0xb5c0fbcfU, 0xe9b5dba5U, 0x3956c25bU, 0x59f111f1U, 0x923f82a4U,
    0xab1c5ed5U, 0xd807aa98U, 0x12835b01U, 0x243185beU, 0x550c7dc3U, 0x72be5d74U, 0x80deb1feU,
    0x9bdc06a7U, 0xc19bf174U, 0xe49b69c1U, 0xefbe4786U, 0x0fc19dc6U, 0x240ca1ccU, 0x2de92c6fU,
    0x4a7484aaU, 0x5cb0a9dcU, 0x76f988daU, 0x983e5152U, 0xa831c66dU, 0xb00327c8U, 0xbf597fc7U,
    0xc6e00bf3U, 0xd5a79147U, 0x06ca6351U, 0x14292967U, 0x27b70a85U, 0x2e1b2138U, 0x4d2c6dfcU,
    0x53380d13U, 0x650a7354U, 0x766a0abbU, 0x81c2c92eU, 0x92722c85U, 0xa2bfe8a1U, 0xa81a664bU,
    0xc24b8b70U, 0xc76c51a3U, 0xd192e819U, 0xd6990624U, 0xf40e3585U, 0x106aa070U, 0x19a4c116U,
    0x1e376c08U, 0x2748774cU, 0x34b0bcb5U, 0x391c0cb3U, 0x4ed8aa4aU, 0x5b9cca4fU, 0x682e6ff3U,
    0x748f82eeU, 0x78a5636fU, 0x84c87814U, 0x8cc70208U, 0x90befffaU, 0xa4506cebU, 0xbef9a3f7U,
    0xc67178f2U,
};

/* Section 5.3.3: the initial hash value. */
static const uint32_t h0[8] = {0x6a09e667U, 0xbb67ae85U, 0x3c6ef372U, 0xa54ff53aU,
                               0x510e527fU, 0x9b05688cU, 0x1f83d9abU, 0x5be0cd19U};

static inline uint32_t rotr(uint32_t x, unsigned n)
{
	return (x >> n) | (x << (32U - n));
}

/* Section 6.2.2: one 512-bit block into the hash state h. */
static void sha256_block(uint32_t h[8], const unsigned char *p)
{
	uint32_t w[SHA256_ROUNDS];
	for (unsigned t = 0; t < 16U; t++)
		w[t] = (uint32_t)p[4U * t] << 24 | (uint32_t)p[4U * t + 1U] << 16 |
		       (uint32_t)p[4U * t + 2U] << 8 | (uint32_t)p[4U * t + 3U];
	for (unsigned t = 16; t < SHA256_ROUNDS; t++) {
		uint32_t s0 = rotr(w[t - 15U], 7) ^ rotr(w[t - 15U], 18) ^ (w[t - 15U] >> 3);
		uint32_t s1 = rotr(w[t - 2U], 17) ^ rotr(w[t - 2U], 19) ^ (w[t - 2U] >> 10);
		w[t] = w[t - 16U] + s0 + w[t - 7U] + s1;
	}
	uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
	for (unsigned t = 0; t < SHA256_ROUNDS; t++) {
		uint32_t t1 = hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) +
		              k[t] + w[t];
		uint32_t t2 =
		    (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
		hh = g;
		g = f;
		f = e;
		e = d + t1;
		d = c;
		c = b;
		b = a;
		a = t1 + t2;
	}
	h[0] += a;
	h[1] += b;
	h[2] += c;
	h[3] += d;
	h[4] += e;
	h[5] += f;
	h[6] += g;
	h[7] += hh;
}

void br_sha256_hex(const unsigned char *data, size_t size, char hex[BR_SHA256_HEX_SIZE])
{
	uint32_t h[8];
	memcpy(h, h0, sizeof(h));
	size_t full = size - size % SHA256_BLOCK;
	for (size_t i = 0; i < full; i += SHA256_BLOCK)
		sha256_block(h, data + i);
	/* Section 5.1.1: a 1 bit, zeros, then the length in bits (big-endian). */
	unsigned char last[2U * SHA256_BLOCK];
	memset(last, 0, sizeof(last));
	size_t rest = size - full;
	memcpy(last, data + full, rest);
	last[rest] = 0x80U;
	size_t blocks = rest < SHA256_LENGTH_AT ? 1U : 2U;
	uint64_t bits = (uint64_t)size * 8U;
	for (unsigned i = 0; i < 8U; i++)
		last[blocks * SHA256_BLOCK - 1U - i] = (unsigned char)(bits >> (8U * i));
	for (size_t i = 0; i < blocks; i++)
		sha256_block(h, last + i * SHA256_BLOCK);
	for (unsigned i = 0; i < 8U; i++)
		snprintf(hex + 8U * i, 9U, "%08x", (unsigned)h[i]);
}

br_status_t br_sha256_file(const char *path, size_t max_bytes, char hex[BR_SHA256_HEX_SIZE],
                           br_error_t *err)
{
	unsigned char *data = NULL;
	size_t size = 0;
	br_status_t st = br_file_read_all(path, max_bytes, &data, &size, err);
	if (st != BR_OK)
		return st;
	br_sha256_hex(data, size, hex);
	free(data);
	return BR_OK;
}
