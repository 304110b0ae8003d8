#include "config/board_locate.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#define LOCATE_LIST_BYTES 768U

static bool is_file(const char *path)
{
	struct stat sb;
	return stat(path, &sb) == 0 && S_ISREG(sb.st_mode);
}

bool br_config_ref_is_path(const char *ref)
{
	size_t n = strlen(ref);
	return strchr(ref, '/') != NULL || (n > 5 && strcmp(ref + n - 5, ".yaml") == 0) ||
	       (n > 4 && strcmp(ref + n - 4, ".yml") == 0);
}

/* <dir>/<ref>.yaml of the first of dirs that has it into out (true), else
 * false with every path tried, ", "-separated, in looked. */
static bool search(const char *ref, const char *const *dirs, size_t count, char *out, size_t cap,
                   char *looked, size_t looked_cap)
{
	size_t n = 0;
	looked[0] = '\0';
	for (size_t i = 0; i < count; i++) {
		snprintf(out, cap, "%s/%s.yaml", dirs[i], ref);
		if (is_file(out))
			return true;
		if (n < looked_cap)
			n += (size_t)snprintf(looked + n, looked_cap - n, "%s%s", i > 0 ? ", " : "",
			                      out);
	}
	return false;
}

br_status_t br_board_locate(const char *ref, const char *base_dir, const char *const *dirs,
                            size_t count, char *out, size_t cap, br_error_t *err)
{
	if (br_config_ref_is_path(ref)) {
		if (ref[0] == '/' || base_dir[0] == '\0')
			snprintf(out, cap, "%s", ref);
		else
			snprintf(out, cap, "%s/%s", base_dir, ref);
		if (is_file(out))
			return BR_OK;
		return br_error_set(err, BR_ERR_INPUT, "board file %s not found", out);
	}
	char looked[LOCATE_LIST_BYTES];
	if (search(ref, dirs, count, out, cap, looked, sizeof(looked)))
		return BR_OK;
	return br_error_set(err, BR_ERR_INPUT,
	                    "board '%s' not found (looked for %s); name a board of configs/boards "
	                    "or give the board file's path",
	                    ref, looked);
}

br_status_t br_config_locate_named(const char *kind, const char *ref, const char *configs_dir,
                                   char *out, size_t cap, br_error_t *err)
{
	char own[LOCATE_LIST_BYTES], installed[LOCATE_LIST_BYTES];
	snprintf(own, sizeof(own), "configs/%ss", kind);
	snprintf(installed, sizeof(installed), "%s/%ss", configs_dir, kind);
	const char *dirs[] = {own, installed};
	char looked[LOCATE_LIST_BYTES];
	if (search(ref, dirs, sizeof(dirs) / sizeof(dirs[0]), out, cap, looked, sizeof(looked)))
		return BR_OK;
	return br_error_set(err, BR_ERR_INPUT,
	                    "%s '%s' not found (looked for %s); name a %s of configs/%ss or give "
	                    "the file's path",
	                    kind, ref, looked, kind, kind);
}
