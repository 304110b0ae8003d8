/*
 * br_host_sync — the one place where the host stops the stub (see host_sync.h).
 *
 * It must stay a real, separate function at every optimisation level: not
 * inlined, not removed as empty, not cloned, not folded with another function
 * of the same code (identical code folding), and opaque to the caller so that
 * memory is re-read after it returns. `noipa` gives all of that (it implies
 * noinline, noclone and no_icf); the volatile asm with a memory clobber gives
 * the function a body of its own that the compiler may not delete; `used` keeps
 * the symbol even if a future caller were optimised away. Its section,
 * .br_host_sync, puts it alone on a page of code (stub/link.ld.in).
 */
#include "host_sync.h"

__attribute__((noinline, noipa, used, section(".br_host_sync"))) void br_host_sync(void)
{
	__asm__ volatile("nop /* br_host_sync: the host's breakpoint */" : : : "memory");
}
