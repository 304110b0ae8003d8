/*
 * No counter to start: the board's figures are QEMU's own instruction count,
 * which has no register (counter `icount`). Chosen for the per-board images
 * of stub/meson.build whose board file says `counter: icount`.
 *
 * The host still names a counter address in each request: a word of the
 * result area that the stub only ever stores to (BR_CS_OFFSET_WATCH,
 * control_block.h), on which it sets a read watchpoint. Each of the bench
 * loop's two counter reads then stops the core, and the host reads QEMU's
 * count there: the samples are the host's, exact, and the loads' values
 * are not used. Starting nothing keeps every QEMU timer unarmed.
 */
#include "counter.h"

void br_counter_enable(void)
{
}
