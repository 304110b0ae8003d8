#include "profile/shadow.h"

void br_shadow_update(br_shadow_t *s, uint32_t pc, uint32_t id, uint32_t entry, bool call,
                      uint32_t ret, uint32_t sp)
{
	bool returned = false;
	for (size_t d = s->depth; d-- > 1;) {
		const br_shadow_frame_t *f = &s->f[d];
		if (f->ret_known && f->ret == pc && (sp == 0 || sp >= f->sp)) {
			while (d > 1 && s->f[d].tail)
				d--;
			s->depth = d;
			returned = true;
			break;
		}
	}
	br_shadow_frame_t *top = &s->f[s->depth - 1];
	if (s->depth >= BR_SHADOW_MAX_DEPTH)
		return;
	if (call && pc == entry) {
		br_shadow_frame_t *f = &s->f[s->depth++];
		f->id = id;
		f->ret = ret;
		f->sp = sp;
		f->ret_known = true;
		f->tail = false;
	} else if (top->id == id) {
		return;
	} else if (pc == entry && !returned) {
		br_shadow_frame_t *f = &s->f[s->depth++];
		*f = *top;
		f->id = id;
		f->tail = true;
	} else {
		top->id = id;
	}
}

size_t br_shadow_chain(br_shadow_t *s)
{
	for (size_t d = 0; d < s->depth; d++)
		s->chain[d] = s->f[d].id;
	return s->depth;
}
