/*
 * Fuzz target: the readers of controller/upload's inputs fed arbitrary
 * bytes — a spool item (upload/item_json.c) and an upload config
 * (config/upload_config.c). Invariants:
 *
 * - BR_OK or BR_ERR_INPUT with a one-line message starting with the file's
 *   name, never a crash, a leak or an out-of-bounds read;
 * - an item it accepts, written back and read again, is the same item
 *   (every field, the body byte for byte): what the spool holds is what is
 *   sent, however often it is rewritten.
 */
#include "fuzz_target.h"

#include <stdlib.h>
#include <string.h>

#include "config/upload_config.h"
#include "upload/item_json.h"

#define FUZZ_NAME "fuzz.json"

static bool same_text(const char *a, const char *b)
{
	return (a == NULL && b == NULL) || (a != NULL && b != NULL && strcmp(a, b) == 0);
}

static void fuzz_same(const br_upload_item_t *a, const br_upload_item_t *b)
{
	fuzz_require(same_text(a->id, b->id) && same_text(a->sink, b->sink) &&
		     same_text(a->kind, b->kind) && same_text(a->run_file, b->run_file),
		     "names differ");
	fuzz_require(same_text(a->method, b->method) && same_text(a->url, b->url) &&
		     same_text(a->content_type, b->content_type) &&
		     same_text(a->idempotency_key, b->idempotency_key),
		     "request differs");
	fuzz_require(a->auth == b->auth && same_text(a->username, b->username) &&
		     same_text(a->auth_header, b->auth_header) &&
		     same_text(a->token_env, b->token_env) &&
		     same_text(a->token_file, b->token_file) && same_text(a->ca_file, b->ca_file),
		     "auth differs");
	fuzz_require(a->attempts == b->attempts && a->timeout_ms == b->timeout_ms &&
		     a->connect_timeout_ms == b->connect_timeout_ms &&
		     a->rejected_status == b->rejected_status &&
		     same_text(a->last_error, b->last_error) &&
		     same_text(a->rejected_message, b->rejected_message),
		     "state differs");
	fuzz_require(a->body_len == b->body_len && memcmp(a->body, b->body, a->body_len) == 0,
		     "body differs");
}

static void check_failure(br_status_t st, const br_error_t *err)
{
	fuzz_require(st == BR_ERR_INPUT, "error status");
	fuzz_require(memchr(err->message, '\0', sizeof(err->message)) != NULL, "message NUL");
	fuzz_require(strncmp(err->message, FUZZ_NAME ":", strlen(FUZZ_NAME) + 1U) == 0,
		     "message names the file");
	fuzz_require(strchr(err->message, '\n') == NULL, "one line");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	br_error_t err;
	br_error_clear(&err);
	br_upload_config_t cfg;
	br_status_t st = br_upload_config_parse(FUZZ_NAME, data, size, &cfg, &err);
	if (st != BR_OK)
		check_failure(st, &err);
	else
		br_upload_config_free(&cfg);

	br_upload_item_t item;
	br_error_clear(&err);
	st = br_upload_item_parse(FUZZ_NAME, data, size, &item, &err);
	if (st != BR_OK) {
		check_failure(st, &err);
		fuzz_require(item.body == NULL && item.url == NULL, "empty on failure");
		return 0;
	}
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	fuzz_require(f != NULL, "memstream");
	br_upload_item_write(&item, f);
	fclose(f);
	br_upload_item_t again;
	br_error_clear(&err);
	st = br_upload_item_parse(FUZZ_NAME, (const uint8_t *)text, len, &again, &err);
	if (st != BR_OK)
		fprintf(stderr, "rewritten item refused: %s\n%s\n", err.message, text);
	fuzz_require(st == BR_OK, "a written item reads back");
	fuzz_same(&item, &again);
	br_upload_item_free(&again);
	br_upload_item_free(&item);
	free(text);
	return 0;
}
