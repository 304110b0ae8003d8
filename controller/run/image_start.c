#include "run/image_start.h"

#include <stdbool.h>

static br_status_t load(br_target_t *t, const br_image_start_t *s, br_image_load_result_t *out,
                        br_error_t *err)
{
	br_status_t st =
	    br_image_load(t, s->path, s->policy, s->progress, s->progress_ctx, out, err);
	if (st != BR_OK)
		return br_error_prefix(err, "loading %s (load: %s)", s->path,
		                       br_image_policy_name(s->policy));
	return BR_OK;
}

static br_status_t reset(br_target_t *t, const br_image_start_t *s, bool *done, br_error_t *err)
{
	br_status_t st = br_target_reset_halt(t, done, err);
	if (st != BR_OK)
		return br_error_prefix(err, "resetting %s", s->server);
	return BR_OK;
}

br_status_t br_image_start(br_target_t *t, const br_image_start_t *s, br_image_load_result_t *out,
                           br_error_t *err)
{
	bool reset_first = t->flavour->reset_restores_boot_image;
	bool reset_done = false;
	br_status_t st = BR_OK;
	if (reset_first)
		st = reset(t, s, &reset_done, err);
	if (st == BR_OK)
		st = load(t, s, out, err);
	if (st == BR_OK && !reset_first)
		st = reset(t, s, &reset_done, err);
	/* After a reset before the load, the core's SP and PC are those of
	 * whatever vector table the reset read (on mps2-an505, QEMU's reset
	 * reads it before putting the -kernel image back): the image's own are
	 * written, as its reset would set them; so too where the core could
	 * not be reset (the generic path found no debugger in DHCSR). */
	if (st == BR_OK && (reset_first || !reset_done))
		st = br_target_start_at_vector(t, &s->vec, err);
	if (st == BR_OK && br_target_check_at_vector(t, &s->vec, s->table, err) != BR_OK)
		return br_error_prefix(err, "resetting %s", s->server);
	return st;
}
