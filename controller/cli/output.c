#include "cli/output.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static bool progress_showing;

bool br_cli_colour(FILE *stream)
{
	const char *no_color = getenv("NO_COLOR");
	if (no_color != NULL && no_color[0] != '\0')
		return false;
	return isatty(fileno(stream)) != 0;
}

void br_cli_firmware_output(void *ctx, int fd, const char *text, size_t len)
{
	(void)ctx;
	(void)fd;
	br_cli_progress_done(NULL);
	fprintf(stderr, "firmware: %.*s", (int)len, text);
}

void br_cli_progress(void *ctx, unsigned index, unsigned count, const char *name)
{
	(void)ctx;
	if (!isatty(STDERR_FILENO))
		return;
	fprintf(stderr, "\r\033[K[%u/%u] %s", index + 1U, count, name);
	fflush(stderr);
	progress_showing = true;
}

void br_cli_load_progress(void *ctx, size_t done, size_t total)
{
	(void)ctx;
	if (!isatty(STDERR_FILENO))
		return;
	fprintf(stderr, "\r\033[Kloading: %zu of %zu bytes", done, total);
	fflush(stderr);
	progress_showing = true;
}

void br_cli_load_done(void *ctx, const char *path, const br_image_load_result_t *load)
{
	(void)ctx;
	if (!isatty(STDERR_FILENO))
		return;
	br_cli_progress_done(NULL);
	const br_target_load_report_t *r = &load->report;
	const char *how = r->verified_by_crc ? "qCRC" : "reading back";
	if (load->written)
		fprintf(stderr,
		        "loaded %s: %zu bytes in %zu segments written (%zu to flash), verified "
		        "by %s\n",
		        path, r->bytes, r->segments, r->flash_bytes, how);
	else
		fprintf(stderr,
		        "loaded %s: already on the target (%sverified by %s), nothing "
		        "written\n",
		        path, load->build_id_compared ? "build-id note equal, " : "", how);
	fflush(stderr);
}

void br_cli_progress_done(void *ctx)
{
	(void)ctx;
	if (!progress_showing)
		return;
	fputs("\r\033[K", stderr);
	fflush(stderr);
	progress_showing = false;
}
