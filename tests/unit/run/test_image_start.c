/*
 * The order of reset and load (run/image_start.h) against a fake gdb server
 * on a socketpair, a child process holding 256 bytes of "flash" at
 * 0x08000000 and the core's SP, PC and xPSR. Its reset (any monitor
 * command) loads SP and PC from the vector table in its memory, as a
 * Cortex-M reset does; the "restoring" fake first copies its boot image back
 * into memory, as QEMU 7.2 does with its -kernel image at each system reset
 * on microbit and mps2-an500/an505. The image loaded is a tiny ELF this test
 * writes (a vector table and four bytes of code); the boot image differs
 * from it in both.
 *
 * - QEMU's flavour, the restoring fake: reset before the first write and none
 *   after; the image is in memory and the core at its vector afterwards
 *   (with a reset after the load, the boot image would be back);
 * - if-different where memory holds the image but a reset puts the boot
 *   image back: the comparison sees the boot image, so the image is written;
 * - load: never on that board: an error naming the vector table in memory,
 *   not a core started in the boot image's code at the image's vector;
 * - OpenOCD's flavour (a real board's reset keeps memory): load, then reset
 *   halt, the core at the image's vector, as before.
 */
#include <elf.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "debug/flavour.h"
#include "debug/target.h"
#include "fake_rsp.h"
#include "run/image_start.h"

#define FLASH 0x08000000U
#define FLASH_BYTES 256U
#define IMAGE_BYTES 12U
#define LOG_BYTES 256U

/* The image: SP 0x20001000, reset handler 0x08000009 (Thumb), then code. */
static const uint8_t IMAGE[IMAGE_BYTES] = {0x00, 0x10, 0x00, 0x20, 0x09, 0x00,
                                           0x00, 0x08, 0x00, 0xbf, 0xfe, 0xe7};
/* The server's boot image (QEMU's -kernel): another SP, another handler. */
static const uint8_t BOOT[IMAGE_BYTES] = {0x00, 0x20, 0x00, 0x20, 0x0b, 0x00,
                                          0x00, 0x08, 0x00, 0x00, 0x00, 0xbf};

typedef struct fake {
	bool restores;            /* a reset copies BOOT back first */
	uint8_t mem[FLASH_BYTES]; /* what the board holds now */
	uint32_t sp, pc, xpsr;
} fake_t;

/* What the fake saw and held at the end, through a pipe. */
typedef struct report {
	char log[LOG_BYTES]; /* 'R' a reset, 'W' a memory write, in order */
	uint8_t mem[FLASH_BYTES];
	uint32_t sp, pc;
} report_t;

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void reset(fake_t *f)
{
	if (f->restores)
		memcpy(f->mem, BOOT, sizeof(BOOT));
	f->sp = le32(f->mem);
	f->pc = le32(f->mem + 4) & ~1U;
	f->xpsr = 1U << 24;
}

static void append(report_t *r, char c)
{
	size_t n = strlen(r->log);
	if (n + 1U < sizeof(r->log))
		r->log[n] = c;
}

static uint32_t *reg(fake_t *f, unsigned n, unsigned xpsr)
{
	return n == 13U ? &f->sp : n == 15U ? &f->pc : n == xpsr ? &f->xpsr : NULL;
}

static void send_mem(int fd, const fake_t *f, unsigned a, unsigned len)
{
	char hex[2U * FLASH_BYTES + 1U] = "";
	if (a < FLASH || len > FLASH_BYTES || a - FLASH + len > FLASH_BYTES) {
		fake_rsp_send(fd, "E01");
		return;
	}
	for (unsigned i = 0; i < len; i++)
		snprintf(hex + 2U * i, 3, "%02x", f->mem[a - FLASH + i]);
	fake_rsp_send(fd, hex);
}

static void write_mem(fake_t *f, unsigned a, unsigned len, const char *hex)
{
	for (unsigned i = 0; i < len && a >= FLASH && a - FLASH + i < FLASH_BYTES; i++) {
		unsigned b = 0;
		if (sscanf(hex + 2U * i, "%2x", &b) == 1)
			f->mem[a - FLASH + i] = (uint8_t)b;
	}
}

static void serve(int fd, int report_fd, fake_t f, unsigned xpsr)
{
	char pkt[1024];
	report_t r;
	memset(&r, 0, sizeof(r));
	while (fake_rsp_read(fd, pkt, sizeof(pkt)) == 0) {
		unsigned a = 0, len = 0, v = 0;
		int at = 0;
		uint32_t *p = NULL;
		if (fake_rsp_attach_answer(fd, pkt) != 0) {
			continue;
		} else if (strncmp(pkt, "qRcmd,", 6) == 0) {
			append(&r, 'R');
			reset(&f);
			fake_rsp_send(fd, "OK");
		} else if (sscanf(pkt, "m%x,%x", &a, &len) == 2) {
			send_mem(fd, &f, a, len);
		} else if (sscanf(pkt, "M%x,%x:%n", &a, &len, &at) == 2 && at > 0) {
			append(&r, 'W');
			write_mem(&f, a, len, pkt + at);
			fake_rsp_send(fd, "OK");
		} else if (sscanf(pkt, "p%x", &a) == 1 && (p = reg(&f, a, xpsr)) != NULL) {
			fake_rsp_send_word(fd, *p);
		} else if (sscanf(pkt, "P%x=%8x", &a, &v) == 2 && (p = reg(&f, a, xpsr)) != NULL) {
			/* the value is little-endian hex */
			*p = (v >> 24) | ((v >> 8) & 0xff00U) | ((v << 8) & 0xff0000U) | (v << 24);
			fake_rsp_send(fd, "OK");
		} else {
			fake_rsp_send(fd, "");
		}
	}
	memcpy(r.mem, f.mem, sizeof(r.mem));
	r.sp = f.sp;
	r.pc = f.pc;
	if (write(report_fd, &r, sizeof(r)) != (ssize_t)sizeof(r))
		_exit(FAKE_RSP_BROKEN);
	_exit(0);
}

/* Section names of the ELF this test writes. */
static const char SHSTRTAB[] = "\0.text\0.shstrtab";
#define SHSTRTAB_BYTES 20U /* sizeof(SHSTRTAB) rounded up to a word */

/* Writes the image as an ELF at path: one segment, and the section headers
 * a linker writes (none, .text, .shstrtab). */
static void write_elf(const char *path)
{
	uint32_t data = sizeof(Elf32_Ehdr) + sizeof(Elf32_Phdr);
	uint32_t names = data + IMAGE_BYTES;
	Elf32_Ehdr eh = {.e_type = ET_EXEC,
	                 .e_machine = EM_ARM,
	                 .e_version = EV_CURRENT,
	                 .e_entry = FLASH + 9U,
	                 .e_phoff = sizeof(Elf32_Ehdr),
	                 .e_shoff = names + SHSTRTAB_BYTES,
	                 .e_flags = EF_ARM_EABI_VER5,
	                 .e_ehsize = sizeof(Elf32_Ehdr),
	                 .e_phentsize = sizeof(Elf32_Phdr),
	                 .e_phnum = 1,
	                 .e_shentsize = sizeof(Elf32_Shdr),
	                 .e_shnum = 3,
	                 .e_shstrndx = 2};
	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS32;
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_ident[EI_VERSION] = EV_CURRENT;
	Elf32_Phdr ph = {.p_type = PT_LOAD,
	                 .p_offset = data,
	                 .p_vaddr = FLASH,
	                 .p_paddr = FLASH,
	                 .p_filesz = IMAGE_BYTES,
	                 .p_memsz = IMAGE_BYTES,
	                 .p_flags = PF_R | PF_X,
	                 .p_align = 4};
	Elf32_Shdr sh[3] = {{0},
	                    {.sh_name = 1,
	                     .sh_type = SHT_PROGBITS,
	                     .sh_flags = SHF_ALLOC | SHF_EXECINSTR,
	                     .sh_addr = FLASH,
	                     .sh_offset = data,
	                     .sh_size = IMAGE_BYTES,
	                     .sh_addralign = 4},
	                    {.sh_name = 7,
	                     .sh_type = SHT_STRTAB,
	                     .sh_offset = names,
	                     .sh_size = sizeof(SHSTRTAB),
	                     .sh_addralign = 1}};
	uint8_t pad[SHSTRTAB_BYTES] = {0};
	memcpy(pad, SHSTRTAB, sizeof(SHSTRTAB));
	FILE *f = fopen(path, "wb");
	if (f == NULL || fwrite(&eh, sizeof(eh), 1, f) != 1 || fwrite(&ph, sizeof(ph), 1, f) != 1 ||
	    fwrite(IMAGE, sizeof(IMAGE), 1, f) != 1 || fwrite(pad, sizeof(pad), 1, f) != 1 ||
	    fwrite(sh, sizeof(sh), 1, f) != 1 || fclose(f) != 0)
		exit(99);
}

typedef struct outcome {
	br_status_t st;
	br_error_t err;
	br_image_load_result_t load;
	report_t seen;
} outcome_t;

static void start_on(const fake_t *f, const br_flavour_t *flavour, const char *elf,
                     br_board_load_t policy, outcome_t *o)
{
	fake_rsp_fork_t fk = fake_rsp_fork();
	if (fk.pid == 0)
		serve(fk.fd, fk.report_fd, *f, flavour->xpsr_regnum);
	rsp_transport_t tr = {.fd = fk.fd, .kind = RSP_TRANSPORT_SERIAL};
	snprintf(tr.peer, sizeof(tr.peer), "fake-%s", flavour->name);
	static br_target_t t;
	br_error_clear(&o->err);
	if (br_target_attach(&t, &tr, flavour, &o->err) != BR_OK) {
		fprintf(stderr, "attach: %s\n", o->err.message);
		exit(99);
	}
	br_image_start_t s = {.path = elf, .policy = policy, .server = "the fake"};
	o->st = br_image_reset_vector_at(elf, NULL, &s.vec, &s.table, &o->err);
	if (o->st == BR_OK)
		o->st = br_image_start(&t, &s, &o->load, &o->err);
	br_target_close(&t);
	memset(&o->seen, 0, sizeof(o->seen));
	if (read(fk.report_fd, &o->seen, sizeof(o->seen)) != (ssize_t)sizeof(o->seen))
		fprintf(stderr, "the fake reported nothing\n");
	close(fk.report_fd);
	waitpid(fk.pid, NULL, 0);
}

static bool image_there(const outcome_t *o)
{
	return memcmp(o->seen.mem, IMAGE, sizeof(IMAGE)) == 0 && o->seen.sp == le32(IMAGE) &&
	       o->seen.pc == (le32(IMAGE + 4) & ~1U);
}

int main(void)
{
	signal(SIGPIPE, SIG_IGN);
	char elf[] = "/tmp/benchrack-image-start-XXXXXX";
	int fd = mkstemp(elf);
	if (fd < 0)
		return 99;
	close(fd);
	write_elf(elf);
	outcome_t o;

	fake_t qemu = {.restores = true};
	memcpy(qemu.mem, BOOT, sizeof(BOOT));
	start_on(&qemu, br_flavour_qemu(), elf, BR_BOARD_LOAD_ALWAYS, &o);
	CHECK_MSG(o.st == BR_OK, "QEMU, always: %s", o.err.message);
	const char *first_write = strchr(o.seen.log, 'W');
	CHECK_MSG(o.seen.log[0] == 'R' && first_write != NULL && strchr(first_write, 'R') == NULL,
	          "QEMU: one reset, before the first write, none after: %s", o.seen.log);
	CHECK_MSG(image_there(&o),
	          "QEMU: the image in memory, the core at its vector (SP 0x%08x "
	          "PC 0x%08x)",
	          o.seen.sp, o.seen.pc);

	/* memory holds the image, a reset puts the boot image back */
	memcpy(qemu.mem, IMAGE, sizeof(IMAGE));
	start_on(&qemu, br_flavour_qemu(), elf, BR_BOARD_LOAD_IF_DIFFERENT, &o);
	CHECK_MSG(o.st == BR_OK && o.load.compared && !o.load.matched && o.load.written,
	          "QEMU, if-different: compared after the reset, written (%s)", o.err.message);
	CHECK_MSG(image_there(&o), "QEMU, if-different: the image there afterwards");

	start_on(&qemu, br_flavour_qemu(), elf, BR_BOARD_LOAD_NEVER, &o);
	CHECK_MSG(o.st == BR_ERR_TARGET && strstr(o.err.message, "vector table at 0x08000000") &&
	              strstr(o.err.message, "does not hold this image"),
	          "QEMU, never, the boot image back: %s", o.err.message);

	fake_t board = {.restores = false};
	memcpy(board.mem, BOOT, sizeof(BOOT));
	start_on(&board, br_flavour_openocd(), elf, BR_BOARD_LOAD_ALWAYS, &o);
	CHECK_MSG(o.st == BR_OK, "OpenOCD, always: %s", o.err.message);
	size_t n = strlen(o.seen.log);
	CHECK_MSG(n > 1U && o.seen.log[n - 1U] == 'R' &&
	              strchr(o.seen.log, 'R') == o.seen.log + n - 1U,
	          "OpenOCD: load, then one reset halt: %s", o.seen.log);
	CHECK_MSG(image_there(&o), "OpenOCD: the image there, the core at its vector");

	unlink(elf);
	return check_finish();
}
