/* plain_markers: two marked source lines for `--from FILE:LINE --to FILE:LINE`
 * (see plain.h). Tests find the lines by their marker comments; keep each
 * marker on the line of the statement it marks. */
#include "plain.h"

#define PLAIN_MARK_START 1U
#define PLAIN_MARK_STEP 2U
#define PLAIN_MARK_MASK 3U
#define PLAIN_MARK_END 4U

__attribute__((noipa)) void plain_markers(void)
{
	plain_sink = PLAIN_MARK_START; /* marker: from */
	plain_sink += PLAIN_MARK_STEP;
	plain_sink ^= PLAIN_MARK_MASK;
	plain_sink = PLAIN_MARK_END; /* marker: to */
}
