/*
 * common/error: an error kept aside and handed on (br_error_copy) reaches the
 * caller's err whole, and a caller that passed no err (NULL) still gets the
 * status; br_error_set and br_error_prefix keep the same rule.
 */
#include <string.h>

#include "check.h"
#include "common/error.h"

int main(void)
{
	br_error_t kept;
	CHECK(br_error_set(&kept, BR_ERR_TARGET, "reading %d bytes failed", 4) == BR_ERR_TARGET);

	br_error_t err;
	br_error_clear(&err);
	CHECK(br_error_copy(&err, &kept) == BR_ERR_TARGET);
	CHECK(err.status == BR_ERR_TARGET && strcmp(err.message, "reading 4 bytes failed") == 0);
	CHECK(br_error_copy(NULL, &kept) == BR_ERR_TARGET);

	CHECK(br_error_set(NULL, BR_ERR_PROTOCOL, "out of step") == BR_ERR_PROTOCOL);
	CHECK(br_error_prefix(&err, "at 0x%08x", 0x20000000U) == BR_ERR_TARGET);
	CHECK(strcmp(err.message, "at 0x20000000: reading 4 bytes failed") == 0);
	return check_finish();
}
