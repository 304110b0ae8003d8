/*
 * Serial transport: RSP over a character device, as a Black Magic Probe
 * serves it on its USB CDC-ACM port (/dev/ttyACM0), or any UART bridge.
 * The line is put in raw mode (no echo, no line editing, no CR/LF
 * translation, no flow control) so every byte of a packet passes unchanged.
 */
#include "rsp/transport.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

typedef struct serial_rate {
	unsigned baud;
	speed_t code;
} serial_rate_t;

static const serial_rate_t serial_rates[] = {
    {9600U, B9600},     {19200U, B19200},   {38400U, B38400},   {57600U, B57600},
    {115200U, B115200}, {230400U, B230400}, {460800U, B460800}, {921600U, B921600},
};

static bool serial_rate_code(unsigned baud, speed_t *code)
{
	for (size_t i = 0; i < sizeof(serial_rates) / sizeof(serial_rates[0]); i++) {
		if (serial_rates[i].baud == baud) {
			*code = serial_rates[i].code;
			return true;
		}
	}
	return false;
}

br_status_t rsp_transport_serial_open(rsp_transport_t *t, const char *path, unsigned baud,
                                      br_error_t *err)
{
	t->fd = -1;
	t->kind = RSP_TRANSPORT_SERIAL;
	snprintf(t->peer, sizeof(t->peer), "%s", path);
	speed_t code;
	if (baud == 0U)
		baud = RSP_SERIAL_DEFAULT_BAUD;
	if (!serial_rate_code(baud, &code))
		return br_error_set(err, BR_ERR_USAGE,
		                    "%s: %u baud is not a standard rate (9600 .. 921600)", path,
		                    baud);
	int fd = open(path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return br_error_set(err, BR_ERR_INFRA, "cannot open %s: %s%s", path,
		                    strerror(errno),
		                    errno == EACCES ? " (add yourself to the dialout group)" : "");
	struct termios tio;
	if (tcgetattr(fd, &tio) != 0) {
		int e = errno;
		close(fd);
		return br_error_set(err, BR_ERR_INFRA, "%s is not a serial device: %s", path,
		                    strerror(e));
	}
	cfmakeraw(&tio);
	tio.c_cflag |= CLOCAL | CREAD;
	tio.c_cflag &= ~(tcflag_t)(CSTOPB | CRTSCTS);
	tio.c_iflag &= ~(tcflag_t)(IXON | IXOFF | IXANY);
	/* Non-blocking reads: poll() decides how long to wait. */
	tio.c_cc[VMIN] = 0;
	tio.c_cc[VTIME] = 0;
	cfsetispeed(&tio, code);
	cfsetospeed(&tio, code);
	if (tcsetattr(fd, TCSANOW, &tio) != 0) {
		int e = errno;
		close(fd);
		return br_error_set(err, BR_ERR_INFRA, "%s: cannot set raw mode: %s", path,
		                    strerror(e));
	}
	/* Whatever a previous session left in the buffers is not ours. */
	tcflush(fd, TCIOFLUSH);
	t->fd = fd;
	return BR_OK;
}
