#include "common/edit_distance.h"

#include <stdint.h>
#include <string.h>

size_t br_edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la >= BR_EDIT_DISTANCE_MAX_LEN || lb >= BR_EDIT_DISTANCE_MAX_LEN)
		return SIZE_MAX;
	size_t row[BR_EDIT_DISTANCE_MAX_LEN + 1U];
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];
		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j];
			size_t best = diag + (a[i - 1] == b[j - 1] ? 0U : 1U);
			if (up + 1U < best)
				best = up + 1U;
			if (row[j - 1] + 1U < best)
				best = row[j - 1] + 1U;
			row[j] = best;
			diag = up;
		}
	}
	return row[lb];
}
