/*
 * A scripted fake target for unit tests: a replayable RSP conversation read
 * from a small text file, played by a child process on a TCP port of
 * 127.0.0.1. The conversations are recorded from a real QEMU
 * (tests/unit/scripted/record_rsp.py writes this language). One line per
 * step:
 *
 *   # text      a comment (blank lines too)
 *   > payload   the next packet the client must send, exactly
 *   < payload   a reply sent ("<" alone: the empty reply)
 *   <! payload  a reply sent with its checksum wrong (a corrupted frame)
 *   nak         the next packet is refused with '-' as if its checksum had
 *               been corrupted on the way: the client must send it again
 *               (the next "> " line)
 *   noack       the next packet is answered but not acknowledged
 *   junk TEXT   TEXT written raw: garbage between packets, or the start of
 *               a frame the connection is closed in (then "close")
 *   @split      from here on every byte written on its own
 *   ~ ms        a pause of ms milliseconds before the next step (a delay)
 *   hold        nothing more sent, not even an acknowledgement: the fake
 *               reads on until the client hangs up (a missing reply, a
 *               server gone mute)
 *   close       the connection closed here (a FIN)
 *   rst         the connection reset here (TCP: an RST, SO_LINGER 0)
 *
 * In payloads and TEXT, \xHH is the byte HH (a backslash is always \x5c).
 *
 * As QEMU's gdbstub does, the fake acknowledges every packet with a good
 * checksum with '+' (until it has answered QStartNoAckMode "OK"), refuses a
 * bad one with '-' and reads on, sends its last packet again on a '-',
 * ignores '+' and any other byte between packets, and reads 0x03 as the
 * packet "\x03" (a "> \x03" line). Two "<" lines in a row are a reply out
 * of step (one the client did not ask for). After the last line every
 * packet is answered "OK" until the client hangs up (its detach).
 *
 * The client may hang up while replies are still due: once a write to it
 * has failed or it reset the connection, the packets it did send are still
 * checked, and the end of them ends the script. The child's exit status says
 * whether the client kept to the script: 0 yes, FAKE_SCRIPT_MISMATCH when
 * a packet differed from its "> " line or the client hung up early
 * (written to stderr), FAKE_SCRIPT_BAD for a script that could not be read
 * or has an unknown line.
 */
#ifndef BENCHRACK_TESTS_FAKE_SCRIPT_H
#define BENCHRACK_TESTS_FAKE_SCRIPT_H

#include <stdint.h>
#include <sys/types.h>

#define FAKE_SCRIPT_MISMATCH 65
#define FAKE_SCRIPT_BAD 66
/* The longest packet payload the fake reads or sends (QEMU's PacketSize is
 * 0x1000 bytes, its qXfer replies 0x7f0). */
#define FAKE_SCRIPT_PACKET_MAX 8192U

/*
 * Starts a fake playing the script at path on a TCP port of 127.0.0.1 it
 * listens on before returning (so a connect cannot come too early); returns
 * the port and the child in *pid. Exits 99 when the port or the fork fails.
 */
uint16_t fake_script_listen(const char *path, pid_t *pid);

/* Waits for the fake started as pid; returns its exit status (-1: killed). */
int fake_script_wait(pid_t pid);

#endif
