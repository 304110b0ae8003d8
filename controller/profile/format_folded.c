/* folded stacks: "root;caller;leaf COUNT" (the format flamegraph.pl's
 * stackcollapse scripts produce and inferno reads). Frame names never hold
 * ';' or ' ' (C symbols, [unknown], 0x addresses). */
#include "profile/format.h"

#include <inttypes.h>

void br_profile_write_folded(FILE *out, const br_profile_t *p)
{
	for (size_t i = 0; i < p->nchains; i++) {
		const br_profile_chain_t *c = &p->chains[i];
		if (c->depth == 0 || c->count == 0)
			continue;
		for (size_t d = 0; d < c->depth; d++)
			fprintf(out, "%s%s", d > 0 ? ";" : "", p->frames[c->frames[d]].name);
		fprintf(out, " %" PRIu64 "\n", c->count);
	}
}
