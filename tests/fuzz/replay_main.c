/*
 * A fuzz target as a plain program: feeds every file named on the command
 * line, and every regular file in every directory named there (in name
 * order), to LLVMFuzzerTestOneInput once. Exits 0 when at least one input
 * ran and none aborted; 1 on an unreadable path or when nothing ran.
 */
#include "fuzz_target.h"

#include <dirent.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

/* Reads path whole into an exactly-sized heap buffer (so ASan sees any read
 * past the end) and runs it. Returns false when it cannot be read. */
static bool replay_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (f == NULL) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		return false;
	}
	struct stat st;
	if (fstat(fileno(f), &st) != 0 || st.st_size < 0) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		fclose(f);
		return false;
	}
	size_t size = (size_t)st.st_size;
	uint8_t *data = malloc(size == 0 ? 1 : size);
	if (data == NULL || fread(data, 1, size, f) != size) {
		fprintf(stderr, "replay: %s: short read\n", path);
		free(data);
		fclose(f);
		return false;
	}
	fclose(f);
	LLVMFuzzerTestOneInput(data, size);
	free(data);
	return true;
}

/* Runs every regular file of dir; adds to *count. */
static bool replay_dir(const char *dir, size_t *count)
{
	struct dirent **names;
	int n = scandir(dir, &names, NULL, alphasort);
	if (n < 0) {
		fprintf(stderr, "replay: %s: %s\n", dir, strerror(errno));
		return false;
	}
	bool ok = true;
	for (int i = 0; i < n; i++) {
		char path[4096];
		struct stat st;
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]->d_name);
		if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
			if (replay_file(path))
				(*count)++;
			else
				ok = false;
		}
		free(names[i]);
	}
	free(names);
	return ok;
}

int main(int argc, char **argv)
{
	size_t count = 0;
	bool ok = true;
	for (int i = 1; i < argc; i++) {
		struct stat st;
		if (stat(argv[i], &st) != 0) {
			fprintf(stderr, "replay: %s: %s\n", argv[i], strerror(errno));
			ok = false;
		} else if (S_ISDIR(st.st_mode)) {
			ok = replay_dir(argv[i], &count) && ok;
		} else if (replay_file(argv[i])) {
			count++;
		} else {
			ok = false;
		}
	}
	printf("replayed %zu inputs\n", count);
	return ok && count > 0 ? 0 : 1;
}
