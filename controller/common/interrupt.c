#include "common/interrupt.h"

#include <signal.h>
#include <string.h>

static volatile sig_atomic_t interrupt_signal;

void br_interrupt_request(int sig)
{
	if (interrupt_signal == 0)
		interrupt_signal = sig;
}

int br_interrupt_signal(void)
{
	return (int)interrupt_signal;
}

br_status_t br_interrupt_error(br_error_t *err)
{
	int sig = br_interrupt_signal();
	const char *name = sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "a signal";
	return br_error_set(err, BR_ERR_INFRA, "interrupted by %s (signal %d)", name, sig);
}

void br_interrupt_install(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = br_interrupt_request;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}
