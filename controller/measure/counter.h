/*
 * A counter is data, not code (DESIGN.md, "Counters"): where it is, how wide,
 * which way it counts, what one tick means, and which register bits make it
 * count. Everything that reads a counter takes one of these; the kinds differ
 * only in their addresses and enable writes, never in the code that uses
 * them (measure/counter_target.h applies and reads them).
 */
#ifndef BENCHRACK_MEASURE_COUNTER_H
#define BENCHRACK_MEASURE_COUNTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum br_counter_kind {
	BR_COUNTER_DWT,     /* DWT_CYCCNT: core cycles (not on QEMU, not on Cortex-M0) */
	BR_COUNTER_SYSTICK, /* SysTick current value: 24-bit, counts down */
	BR_COUNTER_MMIO,    /* any free-running memory-mapped up-counter */
	BR_COUNTER_ICOUNT,  /* QEMU's own instruction count (record mode): 64-bit, exact */
} br_counter_kind_t;

/* The monitor command whose answer carries QEMU's instruction count in
 * record mode (-icount shift=0,rr=record,rrfile=FILE), and the text before
 * the count in that answer: "Recording execution 'FILE': instruction count
 * = N" (DESIGN.md, "An exact instruction counter on every machine"). */
#define BR_COUNTER_ICOUNT_MONITOR "info replay"
#define BR_COUNTER_ICOUNT_PREFIX "instruction count = "
/* The longest answer kept (the file name is benchrack's own, short). */
#define BR_COUNTER_ICOUNT_TEXT 256U

/* The instruction rate QEMU's icount is taken never to exceed: measured at
 * ~460 M instructions/s with no breakpoint inserted on these machines
 * (DESIGN.md); 2e9 leaves a margin of four. Guard halts come at a quarter of
 * its period (2^32 / 2e9 / 4 = 0.54 s). */
#define BR_COUNTER_QEMU_MAX_IPS 2000000000ULL

/* The most enable writes one counter needs (DWT on Cortex-M7: three). */
#define BR_COUNTER_MAX_WRITES 4U

/*
 * One register write that makes a counter count: the bits `mask` of the
 * register at `address` must hold `value`. Applied read-modify-write, and only
 * when they do not already (the firmware may have set the counter up itself,
 * e.g. SysTick with its own reload: that is left alone).
 */
typedef struct br_counter_write {
	uint32_t address;
	uint32_t mask;
	uint32_t value;
} br_counter_write_t;

typedef struct br_counter {
	br_counter_kind_t kind;
	const char *name;    /* "tim2", "dwt", ... */
	uint32_t address;    /* the register that holds the count (0: icount, no register) */
	unsigned width_bits; /* 32, or 24 for SysTick; 64 for QEMU's icount */
	bool counts_down;
	uint64_t clock_hz; /* ticks per second; 0 when a tick is not a time (QEMU icount) */
	/* The most ticks it can advance per second of host time: clock_hz, or
	 * for QEMU's instruction count a stated maximum instruction rate
	 * (BR_COUNTER_QEMU_MAX_IPS); 0: not known (wraps cannot be told). */
	uint64_t max_rate_hz;
	const char *unit; /* "instructions (QEMU icount)", "cycles" */
	/* Written in order before measuring, when the bits differ (see above),
	 * unless the bits `running_mask` of the register at `running_address`
	 * are all set already: the firmware runs the counter itself, and its
	 * set-up is left exactly as it is. running_address 0: no such check. */
	br_counter_write_t enable[BR_COUNTER_MAX_WRITES];
	size_t enable_count;
	uint32_t running_address;
	uint32_t running_mask;
	/* Bits of the register at running_address that, once the enable writes
	 * are made, say the counter does not exist on this core (DWT_CTRL's
	 * NOCYCCNT), and why in words; 0: no such bits. */
	uint32_t absent_mask;
	const char *absent_text;
	/* A register whose value + 1 is the counter's period (SysTick's reload,
	 * SYST_RVR), read when measuring starts; 0: the period is 2^width_bits. */
	uint32_t reload_address;
} br_counter_t;

/*
 * A counter as found on a target when measuring starts (counter_target.h):
 * the counter, its period as read there, and what the host had to write.
 */
typedef struct br_counter_state {
	br_counter_t counter; /* a copy */
	uint64_t period;      /* ticks from one value to the same again: 2^width, or reload + 1 */
	double wrap_seconds;  /* period / clock_hz; 0 when a tick is not a host time */
	size_t writes_made;   /* enable writes the host made (0: it already counted) */
} br_counter_state_t;

/* Fills *state for c with its full-width period (no target involved). */
void br_counter_state_init(br_counter_state_t *state, const br_counter_t *c);

/* Ticks from start to end within state's period (br_counter_delta_period). */
uint32_t br_counter_state_delta(const br_counter_state_t *state, uint32_t start, uint32_t end);

/* Ticks from start to end for any counter: a 64-bit one (QEMU's icount)
 * by plain subtraction, any other as br_counter_state_delta. */
uint64_t br_counter_state_delta64(const br_counter_state_t *state, uint64_t start, uint64_t end);

/* True for a counter read through the server's monitor (QEMU's icount),
 * not at a memory address: the stub cannot read it on the target. */
bool br_counter_is_monitor(const br_counter_t *c);

/*
 * True when a core counted by c cannot be stopped while it runs: QEMU in
 * record mode (icount, the only mode that has the count) answers no 0x03
 * interrupt while the firmware runs (measured 12-01, QEMU 7.2), so a wait
 * for a breakpoint ends at its timeout with the core still running, and
 * nobody can say where it is. BR_COUNTER_UNINTERRUPTIBLE_TEXT says so.
 */
bool br_counter_uninterruptible(const br_counter_t *c);
#define BR_COUNTER_UNINTERRUPTIBLE_TEXT                                                            \
	"where the core is is unknown: QEMU in record mode (counter icount) answers no "           \
	"interrupt while the firmware runs, so benchrack could not stop the core to look"

/*
 * Parses QEMU's `info replay` answer in text: the number after
 * BR_COUNTER_ICOUNT_PREFIX into *count. False when it is not there (record
 * mode not active: "Record/replay is not active") or not a number.
 */
bool br_counter_icount_parse(const char *text, uint64_t *count);

/* The mask of valid bits: 0xFFFFFFFF for 32 bits, 0x00FFFFFF for 24. */
uint32_t br_counter_mask(const br_counter_t *c);

/* Ticks from start to end, modulo the counter's width and in its direction. */
uint32_t br_counter_delta(const br_counter_t *c, uint32_t start, uint32_t end);

/*
 * Ticks from start to end for a counter whose values run through
 * 0 .. period - 1 and wrap (period 2^width, or a reload value + 1), in its
 * direction. A reading at or past period (a register that changed its reload
 * under us) is taken modulo period. period 0 means 2^32.
 */
uint32_t br_counter_delta_period(const br_counter_t *c, uint64_t period, uint32_t start,
                                 uint32_t end);

/*
 * TIM2 of the STM32F4 as QEMU emulates it under -icount shift=0: one tick per
 * guest instruction, from reset, with no configuration (DESIGN.md).
 */
const br_counter_t *br_counter_qemu_tim2(void);

/*
 * Fills *out with the DWT cycle counter (DWT_CYCCNT, 0xE0001004, 32 bits, up)
 * at clock_hz, enabled by DEMCR.TRCENA then DWT_CTRL.CYCCNTENA; with
 * unlock true (Cortex-M7) DWT_LAR is written with the unlock key first
 * (ARMv7-M Architecture Reference Manual, C1.8 "The Data Watchpoint and Trace
 * unit"; Cortex-M7 TRM, 3.2 "Lock Access Register"). Unit "cycles".
 */
void br_counter_dwt(br_counter_t *out, uint64_t clock_hz, bool unlock);

/*
 * Fills *out with SysTick's current value register (SYST_CVR, 0xE000E018,
 * 24 bits, down) at clock_hz, counting the processor clock: when the
 * firmware has not enabled it, the host sets the reload to its maximum and
 * enables it with CLKSOURCE = processor clock (ARMv7-M ARM, B3.3 "The system
 * timer, SysTick"). Its period is read from SYST_RVR: a firmware's own reload
 * (a 1 ms tick) is a shorter period, and the wrap check uses it. Unit
 * "cycles". Never on QEMU for exact counts: an enabled SysTick arms a virtual
 * timer (DESIGN.md, the armed-timer trap) — and there the host cannot enable
 * it anyway.
 */
void br_counter_systick(br_counter_t *out, uint64_t clock_hz);

/*
 * Fills *out with a free-running memory-mapped counter: name (static or
 * caller-owned text that outlives *out), the count register's address, its
 * width (1..32 bits), direction and clock (0: a tick is not a time). Unit
 * "ticks" (with clock_hz, each is 1 / clock_hz seconds). No enable writes: a
 * peripheral timer's set-up is board-specific (a board file adds them).
 */
void br_counter_mmio(br_counter_t *out, const char *name, uint32_t address, unsigned width_bits,
                     bool counts_down, uint64_t clock_hz);

/*
 * Fills *out with TIM2 of an STM32F2/F4 (TIM2_CNT, 32 bits, up). clock_hz 0
 * is QEMU's emulation under -icount shift=0, unit "instructions (QEMU
 * icount)"; otherwise the timer's clock, unit "ticks". Enable writes for a
 * real board (RM0090): RCC_APB1ENR.TIM2EN, TIM2_CR1.CEN, and
 * DBGMCU_APB1_FZ.DBG_TIM2_STOP so that the count stands still while the core
 * is halted at a breakpoint; QEMU ignores them (DESIGN.md). TIM2_ARR is never
 * written: it must keep its reset value, 0xFFFFFFFF.
 */
void br_counter_tim2(br_counter_t *out, uint64_t clock_hz);

/*
 * Fills *out with QEMU's instruction count in record mode: read by the
 * monitor command BR_COUNTER_ICOUNT_MONITOR (over RSP, qRcmd), 64 bits, so
 * it never wraps and needs no guard halt; exact on every single-core
 * Cortex-M machine of QEMU 7.2, with no timer and no firmware change. Unit
 * "instructions (QEMU icount)". QEMU must run with -icount
 * shift=0,rr=record,rrfile=FILE (debug/server.h, record).
 */
void br_counter_icount(br_counter_t *out);

#endif
