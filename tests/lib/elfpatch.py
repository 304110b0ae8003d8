"""Reading and patching 32-bit little-endian ELF files for tests, with the
standard library only: find a symbol's address and the file offset behind a
virtual address, so a test can make a copy of a firmware with one field
changed (a wrong magic, a wrong version)."""
import struct


class Elf32:
    def __init__(self, path):
        with open(path, "rb") as f:
            self.data = bytearray(f.read())
        if self.data[:4] != b"\x7fELF" or self.data[4] != 1 or self.data[5] != 1:
            raise ValueError(f"{path}: not a 32-bit little-endian ELF")
        (self.shoff,) = struct.unpack_from("<I", self.data, 0x20)
        self.shentsize, self.shnum, self.shstrndx = struct.unpack_from("<HHH", self.data, 0x2E)
        self.sections = []
        for i in range(self.shnum):
            off = self.shoff + i * self.shentsize
            name, stype, flags, addr, offset, size, link, info, align, entsize = struct.unpack_from(
                "<IIIIIIIIII", self.data, off)
            self.sections.append(dict(name_off=name, type=stype, flags=flags, addr=addr,
                                      offset=offset, size=size, link=link, entsize=entsize))
        shstr = self.sections[self.shstrndx]
        for s in self.sections:
            s["name"] = self._cstr(shstr["offset"] + s["name_off"])

    def _cstr(self, off):
        end = self.data.index(0, off)
        return self.data[off:end].decode()

    def symbols(self):
        """Yields (name, value, size) for every symbol of .symtab."""
        for s in self.sections:
            if s["type"] != 2:  # SHT_SYMTAB
                continue
            strtab = self.sections[s["link"]]
            for i in range(s["size"] // 16):
                name, value, size, info, other, shndx = struct.unpack_from(
                    "<IIIBBH", self.data, s["offset"] + i * 16)
                yield self._cstr(strtab["offset"] + name), value, size

    def rename_symbol(self, old, new):
        """Renames symbol `old` in .symtab's string table to `new` (same length)."""
        assert len(new) == len(old)
        for s in self.sections:
            if s["type"] != 2:
                continue
            strtab = self.sections[s["link"]]
            for i in range(s["size"] // 16):
                (name,) = struct.unpack_from("<I", self.data, s["offset"] + i * 16)
                at = strtab["offset"] + name
                if self._cstr(at) == old:
                    self.data[at:at + len(new)] = new.encode()
                    return
        raise KeyError(old)

    def symbol(self, wanted):
        for name, value, size in self.symbols():
            if name == wanted:
                return value, size
        raise KeyError(wanted)

    def file_offset(self, vaddr):
        """The file offset of the initial bytes of vaddr (a PROGBITS section)."""
        for s in self.sections:
            if s["type"] == 1 and s["flags"] & 2 and s["addr"] <= vaddr < s["addr"] + s["size"]:
                return s["offset"] + vaddr - s["addr"]
        raise KeyError(hex(vaddr))

    def write_u32(self, vaddr, value):
        struct.pack_into("<I", self.data, self.file_offset(vaddr), value)

    def read_u32(self, vaddr):
        return struct.unpack_from("<I", self.data, self.file_offset(vaddr))[0]

    def save(self, path):
        with open(path, "wb") as f:
            f.write(self.data)
