/*
 * A board file (config/board.h, plain data) turned into what the layers
 * below take: its counter (measure/counter.h) and the endpoint that reaches
 * it (debug/endpoint.h). One place for both, so that config/ stays a leaf.
 */
#ifndef BENCHRACK_RUN_BOARD_TARGET_H
#define BENCHRACK_RUN_BOARD_TARGET_H

#include "common/error.h"
#include "config/board.h"
#include "debug/endpoint.h"
#include "measure/counter.h"

/*
 * Fills *out with the counter board names (dwt, systick, tim2 or an mmio
 * register) at its clock, with the board file's unit when it gives one.
 * Text in *out points into board: board must outlive it.
 */
void br_board_counter(const br_board_t *board, br_counter_t *out);

/*
 * Relabels *counter for the board it counts on: on a QEMU board a SysTick or
 * DWT counter counts QEMU's virtual clock, so its unit is "ticks", whether the
 * board file or the command line (--counter) named it. Other counters and
 * boards are left as they are.
 */
void br_board_counter_label(const br_board_t *board, br_counter_t *counter);

/*
 * Fills *ep to reach the board as its file says: the server kind and
 * flavour; a launched kind's program, keys and arguments, with elf_path as
 * the image of a kind that takes one (QEMU's -kernel); host and port; the
 * serial device; the memory regions and the comparator count. ep's strings point
 * into board (and elf_path): board must outlive it. BR_ERR_INPUT when the
 * memory map cannot hold the regions.
 */
br_status_t br_board_endpoint(const br_board_t *board, const char *elf_path, br_endpoint_t *ep,
                              br_error_t *err);

/*
 * The board ref names — a board file's path, or a name looked up as
 * configs_dir/boards/<name>.yaml — loaded into *board, and *ep filled to
 * reach it with elf_path as QEMU's kernel (br_board_endpoint). Free board
 * with br_board_free, also after a failure. BR_ERR_INPUT when there is no
 * such board or its file does not validate.
 */
br_status_t br_board_open(const char *ref, const char *configs_dir, const char *elf_path,
                          br_board_t *board, br_endpoint_t *ep, br_error_t *err);

/*
 * The board ref names as measure, profile and gdb reach it: opened
 * (br_board_open), a qemu board's QEMU launched as qemu_program when that
 * is not NULL,
 * its counter written to *counter unless counter is NULL, its load policy
 * to *load unless load is NULL. Free board with br_board_free.
 */
br_status_t br_board_reach(const char *ref, const char *configs_dir, const char *elf_path,
                           const char *qemu_program, br_board_t *board, br_endpoint_t *ep,
                           br_counter_t *counter, br_board_load_t *load, br_error_t *err);

#endif
