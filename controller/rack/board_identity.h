/*
 * Which piece of shared hardware an endpoint reaches, as a lock name: the
 * same physical board gets the same name whether a rack or a person at a desk
 * reaches it, and whatever the rack or board file calls it. A QEMU board is
 * launched anew for each use and shares nothing, so it has no identity.
 */
#ifndef BENCHRACK_RACK_BOARD_IDENTITY_H
#define BENCHRACK_RACK_BOARD_IDENTITY_H

#include <stdbool.h>
#include <stddef.h>

#include "debug/endpoint.h"

/*
 * Writes the lock name of the hardware ep reaches into out and returns true:
 *   a launched server (OpenOCD) with a probe serial  "probe-<serial>" (its
 *                                kind's key of identity BR_SERVER_KEY_PROBE)
 *   one without                  "probe-first-<interface script>" (OpenOCD
 *                                takes the first probe it finds: every such
 *                                use of that interface shares it)
 *   a running gdbserver          "remote-<host>-<port>"
 *   a serial probe               "device-<path>"
 * Characters other than letters, digits, '.', '_' and '-' become '_'.
 * Returns false (out = "") for an emulated kind (QEMU), which shares no
 * hardware.
 */
bool br_board_identity(const br_endpoint_t *ep, char *out, size_t cap);

#endif
