/*
 * aes (after Embench IoT's nettle-aes, written here): AES-128 (FIPS 197)
 * encryption of 24 blocks in CBC mode, the key expanded once a pass. The
 * S-box is made at start-up from the inverse in GF(2^8) and the affine map
 * (FIPS 197 5.1.1), so no table is typed in. Each step of a round is its
 * own function.
 */
#include <stdint.h>

#include "workload.h"

#define AES_ROUNDS 10U
#define AES_BLOCKS 24U

static uint8_t sbox[256];
static uint8_t round_keys[(AES_ROUNDS + 1U) * 16U];
static uint8_t blocks[AES_BLOCKS][16];

static uint8_t rotl8(uint8_t x, unsigned n)
{
	return (uint8_t)((x << n) | (x >> (8U - n)));
}

/* p walks the powers of 3 in GF(2^8) and q those of its inverse, 1/3, so
 * q is p's inverse at every step; the S-box of p is q's affine image. */
void wl_init(void)
{
	uint8_t p = 1U, q = 1U;
	do {
		p = (uint8_t)(p ^ (p << 1) ^ ((p & 0x80U) != 0U ? 0x1bU : 0U));
		q = (uint8_t)(q ^ (q << 1));
		q = (uint8_t)(q ^ (q << 2));
		q = (uint8_t)(q ^ (q << 4));
		if ((q & 0x80U) != 0U)
			q ^= 0x09U;
		sbox[p] =
		    (uint8_t)(q ^ rotl8(q, 1) ^ rotl8(q, 2) ^ rotl8(q, 3) ^ rotl8(q, 4) ^ 0x63U);
	} while (p != 1U);
	sbox[0] = 0x63U;
}

WL_KEEP static void aes_expand_key(const uint8_t key[16])
{
	uint8_t rcon = 1U;
	for (unsigned i = 0U; i < 16U; i++)
		round_keys[i] = key[i];
	for (unsigned i = 16U; i < sizeof(round_keys); i += 4U) {
		uint8_t t[4];
		for (unsigned k = 0U; k < 4U; k++)
			t[k] = round_keys[i - 4U + k];
		if (i % 16U == 0U) {
			uint8_t first = t[0];
			t[0] = (uint8_t)(sbox[t[1]] ^ rcon);
			t[1] = sbox[t[2]];
			t[2] = sbox[t[3]];
			t[3] = sbox[first];
			rcon = (uint8_t)((rcon << 1) ^ ((rcon & 0x80U) != 0U ? 0x1bU : 0U));
		}
		for (unsigned k = 0U; k < 4U; k++)
			round_keys[i + k] = round_keys[i - 16U + k] ^ t[k];
	}
}

WL_KEEP static void aes_add_round_key(uint8_t s[16], unsigned round)
{
	for (unsigned i = 0U; i < 16U; i++)
		s[i] ^= round_keys[round * 16U + i];
}

WL_KEEP static void aes_sub_bytes(uint8_t s[16])
{
	for (unsigned i = 0U; i < 16U; i++)
		s[i] = sbox[s[i]];
}

/* The state is column-major: s[4 * column + row]. */
WL_KEEP static void aes_shift_rows(uint8_t s[16])
{
	for (unsigned row = 1U; row < 4U; row++) {
		for (unsigned n = 0U; n < row; n++) {
			uint8_t first = s[row];
			for (unsigned c = 0U; c < 3U; c++)
				s[4U * c + row] = s[4U * (c + 1U) + row];
			s[12U + row] = first;
		}
	}
}

WL_KEEP static uint8_t aes_xtime(uint8_t x)
{
	return (uint8_t)((x << 1) ^ ((x & 0x80U) != 0U ? 0x1bU : 0U));
}

WL_KEEP static void aes_mix_columns(uint8_t s[16])
{
	for (unsigned c = 0U; c < 4U; c++) {
		uint8_t *col = &s[4U * c];
		uint8_t all = col[0] ^ col[1] ^ col[2] ^ col[3];
		uint8_t first = col[0];
		col[0] ^= all ^ aes_xtime(col[0] ^ col[1]);
		col[1] ^= all ^ aes_xtime(col[1] ^ col[2]);
		col[2] ^= all ^ aes_xtime(col[2] ^ col[3]);
		col[3] ^= all ^ aes_xtime(col[3] ^ first);
	}
}

WL_KEEP static void aes_encrypt(uint8_t s[16])
{
	aes_add_round_key(s, 0U);
	for (unsigned round = 1U; round < AES_ROUNDS; round++) {
		aes_sub_bytes(s);
		aes_shift_rows(s);
		aes_mix_columns(s);
		aes_add_round_key(s, round);
	}
	aes_sub_bytes(s);
	aes_shift_rows(s);
	aes_add_round_key(s, AES_ROUNDS);
}

void wl_benchmark(void)
{
	uint8_t key[16];
	wl_srand(26U);
	for (unsigned i = 0U; i < 16U; i++)
		key[i] = (uint8_t)wl_rand();
	for (unsigned b = 0U; b < AES_BLOCKS; b++)
		for (unsigned i = 0U; i < 16U; i++)
			blocks[b][i] = (uint8_t)(b + i);
	aes_expand_key(key);
	for (unsigned b = 0U; b < AES_BLOCKS; b++) {
		if (b > 0U)
			for (unsigned i = 0U; i < 16U; i++)
				blocks[b][i] ^= blocks[b - 1U][i];
		aes_encrypt(blocks[b]);
	}
	wl_sink =
	    (uint32_t)blocks[AES_BLOCKS - 1U][0] | ((uint32_t)blocks[AES_BLOCKS - 1U][15] << 8);
}
