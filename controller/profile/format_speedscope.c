/* speedscope's file format (the schema at BR_PROFILE_SPEEDSCOPE_SCHEMA):
 * shared frames, one "sampled" profile whose samples are the distinct chains
 * (frame indices, root first) and whose weights are their counts. */
#include "profile/format.h"

#include "results/json_writer.h"

void br_profile_write_speedscope(FILE *out, const br_profile_t *p, const char *version)
{
	br_json_t j;
	br_json_init(&j, out);
	char exporter[64];
	snprintf(exporter, sizeof(exporter), "benchrack %s", version);
	br_json_object_begin(&j);
	br_json_key(&j, "$schema");
	br_json_string(&j, BR_PROFILE_SPEEDSCOPE_SCHEMA);
	br_json_key(&j, "exporter");
	br_json_string(&j, exporter);
	br_json_key(&j, "name");
	br_json_string(&j, p->elf_path);
	br_json_key(&j, "activeProfileIndex");
	br_json_uint(&j, 0);
	br_json_key(&j, "shared");
	br_json_object_begin(&j);
	br_json_key(&j, "frames");
	br_json_array_begin(&j);
	for (size_t i = 0; i < p->nframes; i++) {
		br_json_object_begin(&j);
		br_json_key(&j, "name");
		br_json_string(&j, p->frames[i].name);
		if (p->frames[i].file != NULL) {
			br_json_key(&j, "file");
			br_json_string(&j, p->frames[i].file);
			br_json_key(&j, "line");
			br_json_uint(&j, p->frames[i].line);
		}
		br_json_object_end(&j);
	}
	br_json_array_end(&j);
	br_json_object_end(&j);
	br_json_key(&j, "profiles");
	br_json_array_begin(&j);
	br_json_object_begin(&j);
	br_json_key(&j, "type");
	br_json_string(&j, "sampled");
	char name[BR_PROFILE_TEXT + 32];
	snprintf(name, sizeof(name), "%s (%s)", p->region,
	         p->mode == BR_PROFILE_EXACT ? "exact instruction counts" : "samples");
	br_json_key(&j, "name");
	br_json_string(&j, name);
	br_json_key(&j, "unit");
	br_json_string(&j, "none");
	uint64_t total = 0;
	for (size_t i = 0; i < p->nchains; i++)
		total += p->chains[i].count;
	br_json_key(&j, "startValue");
	br_json_uint(&j, 0);
	br_json_key(&j, "endValue");
	br_json_uint(&j, total);
	br_json_key(&j, "samples");
	br_json_array_begin(&j);
	for (size_t i = 0; i < p->nchains; i++) {
		br_json_array_begin(&j);
		for (size_t d = 0; d < p->chains[i].depth; d++)
			br_json_uint(&j, p->chains[i].frames[d]);
		br_json_array_end(&j);
	}
	br_json_array_end(&j);
	br_json_key(&j, "weights");
	br_json_array_begin(&j);
	for (size_t i = 0; i < p->nchains; i++)
		br_json_uint(&j, p->chains[i].count);
	br_json_array_end(&j);
	br_json_object_end(&j);
	br_json_array_end(&j);
	br_json_object_end(&j);
	br_json_finish(&j);
}
