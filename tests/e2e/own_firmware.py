"""A firmware of the user's own making, as the e2e tests of issue 23 need it:
its own vector table and linker script, no benchrack stub, no C library,
built by a shell script of its own with arm-none-eabi-gcc. Its main loop
calls work() (a counted loop of WORK_LOOPS iterations) and tick().

write(dir, loops) writes app.c, app.ld and build.sh into dir (build.sh makes
build/app.elf); build(dir) runs it and returns the ELF's path."""
import os
import subprocess

APP_C = r"""/* A user's firmware: own vector table, own start-up, no stub. */
#include <stdint.h>

#include "work.h"

extern uint32_t _estack;
void reset_handler(void);

static void default_handler(void)
{
	for (;;)
		;
}

__attribute__((section(".vectors"), used)) static const void *const vectors[16] = {
	&_estack, reset_handler, default_handler, default_handler, default_handler,
	default_handler, default_handler, 0, 0, 0, 0, default_handler, default_handler, 0,
	default_handler, default_handler,
};

volatile uint32_t sink;

__attribute__((noinline)) void work(void)
{
	for (uint32_t i = 0; i < WORK_LOOPS; i++)
		__asm__ volatile("nop");
}

__attribute__((noinline)) void tick(void)
{
	sink = sink + 3U;
}

void reset_handler(void)
{
	for (;;) {
		work();
		tick();
	}
}
"""

APP_LD = """/* The user's linker script: netduinoplus2's flash and RAM. */
MEMORY
{
	FLASH (rx) : ORIGIN = 0x08000000, LENGTH = 1024K
	RAM (rwx) : ORIGIN = 0x20000000, LENGTH = 128K
}
_estack = ORIGIN(RAM) + LENGTH(RAM);
ENTRY(reset_handler)
SECTIONS
{
	.text : { KEEP(*(.vectors)) *(.text*) *(.rodata*) } > FLASH
	.note.gnu.build-id : { KEEP(*(.note.gnu.build-id)) } > FLASH
	.bss (NOLOAD) : { *(.bss*) *(COMMON) } > RAM
}
"""

BUILD_SH = """#!/bin/sh
# The firmware's own build: build/app.elf from app.c, work.h and app.ld.
set -e
cd "$(dirname "$0")"
mkdir -p build
arm-none-eabi-gcc -mcpu=cortex-m4 -mthumb -O2 -ffreestanding -nostdlib {flags} \\
	-T app.ld -o build/app.elf app.c
"""


def write_work(d, loops):
    """work.h: how many loops work() runs (the change a commit makes)."""
    with open(os.path.join(d, "work.h"), "w", encoding="utf-8") as f:
        f.write(f"#define WORK_LOOPS {loops}U\n")


def write(d, loops=1000, build_id=True):
    os.makedirs(d, exist_ok=True)
    for name, text in (("app.c", APP_C), ("app.ld", APP_LD)):
        with open(os.path.join(d, name), "w", encoding="utf-8") as f:
            f.write(text)
    with open(os.path.join(d, "build.sh"), "w", encoding="utf-8") as f:
        f.write(BUILD_SH.replace("{flags}", "-Wl,--build-id" if build_id else "-Wl,--build-id=none"))
    os.chmod(os.path.join(d, "build.sh"), 0o755)
    write_work(d, loops)


def build(d):
    subprocess.run(["sh", os.path.join(d, "build.sh")], check=True, capture_output=True)
    return os.path.join(d, "build", "app.elf")


def readelf_build_id(elf):
    """The build-id as `arm-none-eabi-readelf -n` prints it, or None."""
    out = subprocess.run(["arm-none-eabi-readelf", "-n", elf], check=True, capture_output=True,
                         text=True).stdout
    for line in out.splitlines():
        if "Build ID:" in line:
            return line.split("Build ID:")[1].strip()
    return None


def size_text(elf):
    """text, data, bss as `arm-none-eabi-size` (Berkeley format) prints them."""
    out = subprocess.run(["arm-none-eabi-size", elf], check=True, capture_output=True,
                         text=True).stdout.splitlines()
    text, data, bss = out[1].split()[:3]
    return int(text), int(data), int(bss)
