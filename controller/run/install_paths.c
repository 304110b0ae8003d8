#include "run/install_paths.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PATHS_BYTES 4096U

static const char *data_rel = ".";
static const char *firmware_rel = ".";
static const char *configs_rel = ".";

void br_install_paths_set(const char *installed_data_rel, const char *build_firmware_rel,
                          const char *build_configs_rel)
{
	data_rel = installed_data_rel;
	firmware_rel = build_firmware_rel;
	configs_rel = build_configs_rel;
}

/* The folder of the running executable, without a trailing slash, or "."
 * when /proc/self/exe cannot be read. */
static const char *exe_dir(void)
{
	static char dir[PATHS_BYTES];
	if (dir[0] != '\0')
		return dir;
	ssize_t n = readlink("/proc/self/exe", dir, sizeof(dir) - 1U);
	if (n <= 0 || (size_t)n >= sizeof(dir) - 1U) {
		snprintf(dir, sizeof(dir), ".");
		return dir;
	}
	dir[n] = '\0';
	char *last = strrchr(dir, '/');
	if (last == NULL)
		snprintf(dir, sizeof(dir), ".");
	else if (last == dir)
		dir[1] = '\0';
	else
		*last = '\0';
	return dir;
}

/* dst = a + "/" + b; false (dst empty) when it does not fit. */
static bool join(char *dst, size_t cap, const char *a, const char *b)
{
	int n = snprintf(dst, cap, "%s/%s", a, b);
	if (n < 0 || (size_t)n >= cap) {
		dst[0] = '\0';
		return false;
	}
	return true;
}

static bool is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The installed data folder (BINDIR/<relative DATADIR>/benchrack) when this
 * executable is an installed one, else NULL. */
static const char *installed_data(void)
{
	static char data[PATHS_BYTES];
	static int known = -1;
	if (known < 0) {
		char configs[PATHS_BYTES];
		known = join(data, sizeof(data), exe_dir(), data_rel) &&
		                join(configs, sizeof(configs), data, "configs") && is_dir(configs)
		            ? 1
		            : 0;
	}
	return known == 1 ? data : NULL;
}

const char *br_configs_dir(void)
{
	static char dir[PATHS_BYTES];
	if (dir[0] == '\0') {
		const char *data = installed_data();
		if (data != NULL)
			join(dir, sizeof(dir), data, "configs");
		else
			join(dir, sizeof(dir), exe_dir(), configs_rel);
	}
	return dir;
}

/* The firmware folder: installed, or this build tree's benches/. */
static void firmware_dir(char *dir, size_t cap)
{
	const char *data = installed_data();
	if (data != NULL)
		join(dir, cap, data, "firmware");
	else
		join(dir, cap, exe_dir(), firmware_rel);
}

const char *br_host_benches(void)
{
	static char path[PATHS_BYTES];
	char dir[PATHS_BYTES];
	firmware_dir(dir, sizeof(dir));
	join(path, sizeof(path), dir, "host/benchrack-host-benches");
	return path;
}

const char *br_default_firmware(const char *board)
{
	static char path[PATHS_BYTES];
	char dir[PATHS_BYTES];
	firmware_dir(dir, sizeof(dir));
	if (board != NULL && board[0] != '\0') {
		char name[PATHS_BYTES];
		struct stat st;
		int n = snprintf(name, sizeof(name), "suite-O2-%s.elf", board);
		if (n > 0 && (size_t)n < sizeof(name) && join(path, sizeof(path), dir, name) &&
		    stat(path, &st) == 0)
			return path;
	}
	join(path, sizeof(path), dir, "suite-O2.elf");
	return path;
}
