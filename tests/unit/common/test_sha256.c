/*
 * common/sha256: the digests of FIPS 180-4's examples ("abc", the two-block
 * 56-byte message) and of the lengths around the padding's edge, against
 * sha256sum's (coreutils) figures.
 */
#include <string.h>

#include "check.h"
#include "common/sha256.h"

int main(void)
{
	static const struct {
		const char *text;
		const char *hex;
	} cases[] = {
	    {"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
	    {"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
	    {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
	     "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
	    /* 55, 63 and 64 bytes: the length in one block, in the next, a full block */
	    {"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
	     "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"},
	    {"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
	     "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34"},
	    {"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
	     "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char hex[BR_SHA256_HEX_SIZE];
		br_sha256_hex((const unsigned char *)cases[i].text, strlen(cases[i].text), hex);
		CHECK(strcmp(hex, cases[i].hex) == 0);
	}
	char hex[BR_SHA256_HEX_SIZE];
	br_error_t err;
	br_error_clear(&err);
	CHECK(br_sha256_file("/nonexistent/x.elf", 1024U, hex, &err) == BR_ERR_INPUT);
	CHECK(strstr(err.message, "/nonexistent/x.elf") != NULL);
	return check_finish();
}
