#include "upload/item.h"

#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"

void br_upload_item_free(br_upload_item_t *item)
{
	char **fields[] = {&item->id,
	                   &item->sink,
	                   &item->kind,
	                   &item->run_file,
	                   &item->spooled,
	                   &item->method,
	                   &item->url,
	                   &item->content_type,
	                   &item->idempotency_key,
	                   &item->auth_header,
	                   &item->username,
	                   &item->token_env,
	                   &item->token_file,
	                   &item->ca_file,
	                   &item->last_error,
	                   &item->rejected_at,
	                   &item->rejected_message,
	                   &item->body};
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		free(*fields[i]);
	memset(item, 0, sizeof(*item));
}

void br_upload_item_set(char **field, const char *value)
{
	free(*field);
	*field = value != NULL ? xstrdup(value) : NULL;
}

const char *br_upload_auth_name(br_upload_auth_t auth)
{
	static const char *const names[] = {"none", "bearer", "token", "basic", "header"};
	return (unsigned)auth < sizeof(names) / sizeof(names[0]) ? names[auth] : "?";
}
