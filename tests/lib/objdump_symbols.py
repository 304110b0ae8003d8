"""A symbol's value in a firmware ELF, read with the cross toolchain's
`objdump -t` (linker-script symbols such as br_ld_sample_count included)."""
import subprocess


def symbol_value(objdump, elf, name):
    """The value of symbol name in elf's symbol table, or None if it has none."""
    table = subprocess.run([objdump, "-t", elf], check=True, capture_output=True,
                           text=True).stdout
    for line in table.splitlines():
        fields = line.split()
        if fields and fields[-1] == name:
            return int(fields[0], 16)
    return None


def finish(failures, ok_message):
    """Print each failure, or ok_message when there is none; the exit status."""
    for failure in failures:
        print("FAIL: " + failure)
    if not failures:
        print("OK: " + ok_message)
    return 1 if failures else 0
