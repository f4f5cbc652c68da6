#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""
Check optprobe's IBT proof against a real x86_64 kernel image.

On a CPU that enforces IBT an indirect call must land on an ENDBR64
(f3 0f 1e fa) the kernel did not seal.  optprobe calls every kernel
function it resolves through kallsyms through a static call, whose sites
the kernel rewrites into direct calls ("direct"), and hands the kernel a
few it resolved to call through pointers ("pointer"): each of those must
start with an unsealed ENDBR64.  At boot, apply_seal_endbr()
overwrites with a 4-byte nop every ENDBR64 that objtool listed in
.ibt_endbr_seal (functions nothing in the kernel takes the address of);
6.12 does so on every CPU, QEMU's TCG included.  optprobe's load-time
proof reads the bytes at each address (op_x86_endbr_at()).  This test
holds what the guest's proof read ("# ibt NAME endbr|sealed", printed by
optprobe_test_ksyms, with how optprobe reaches each) against the image:
every sealed one must be reached directly; the seal list and the bytes in
vmlinux at the symbol's address (the guest's /proc/kallsyms, booted with
nokaslr).  It then points the image check at a function the seal list
names, which it must refuse: the proof can fail.

usage: endbr-proof.py VMLINUZ KSYMS VERDICTS SEALED_KALLSYMS
  KSYMS            "ADDR TYPE NAME" lines (from /proc/kallsyms) of optprobe's
                   ksyms
  VERDICTS         "NAME endbr|sealed direct|pointer" lines: what the guest's
                   proof read, and how optprobe calls the function
  SEALED_KALLSYMS  "ADDR TYPE NAME" lines of functions at sealed addresses
Prints KTAP.  With only VMLINUZ, prints the first 100 sealed function-start
candidates (link addresses), one per line, for the guest to name.
"""
import lzma
import struct
import subprocess
import sys

ENDBR64 = bytes.fromhex("f30f1efa")


def vmlinux(vmlinuz):
    """The ELF vmlinux in a bzImage: an xz (6.1) or zstd (6.12) payload."""
    data = open(vmlinuz, "rb").read()
    off = data.find(b"\xfd7zXZ\x00")
    if off >= 0:
        return lzma.LZMADecompressor(format=lzma.FORMAT_XZ).decompress(data[off:])
    off = data.find(b"\x28\xb5\x2f\xfd")
    while off >= 0:
        # the first frame that decompresses to an ELF file; data after it is not zstd
        out = subprocess.run(["zstd", "-dcq"], input=data[off:], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL).stdout
        if out[:4] == b"\x7fELF":
            return out
        off = data.find(b"\x28\xb5\x2f\xfd", off + 1)
    sys.exit("no xz or zstd payload in " + vmlinuz)


def sections(elf):
    shoff, = struct.unpack_from("<Q", elf, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", elf, 0x3a)
    hdrs = [struct.unpack_from("<IIQQQQIIQQ", elf, shoff + i * shentsize) for i in range(shnum)]
    strtab = hdrs[shstrndx]
    out = {}
    for h in hdrs:
        name = elf[strtab[4] + h[0]:].split(b"\0", 1)[0].decode()
        out[name] = {"type": h[1], "addr": h[3], "off": h[4], "size": h[5]}
    return out


class Image:
    def __init__(self, vmlinuz):
        self.elf = vmlinux(vmlinuz)
        self.secs = sections(self.elf)
        s = self.secs.get(".ibt_endbr_seal")
        if not s:
            sys.exit("no .ibt_endbr_seal: not an IBT kernel")
        self.sealed = set()
        for i in range(0, s["size"], 4):
            rel, = struct.unpack_from("<i", self.elf, s["off"] + i)
            self.sealed.add(s["addr"] + i + rel)

    def bytes_at(self, addr, n):
        for s in self.secs.values():
            if s["type"] == 1 and s["addr"] <= addr < s["addr"] + s["size"]:
                o = s["off"] + addr - s["addr"]
                return self.elf[o:o + n]
        return None

    def callable(self, addr):
        """None if a call through a pointer to addr is safe under IBT, else why not."""
        b = self.bytes_at(addr, 4)
        if b is None:
            return "not in the image's text"
        if b != ENDBR64:
            return "starts with %s, not ENDBR64" % b.hex(" ")
        if addr in self.sealed:
            return "its ENDBR64 is in .ibt_endbr_seal: sealed to a nop at boot on IBT CPUs"
        return None


def kallsyms(path):
    for line in open(path):
        f = line.split()
        if len(f) >= 3:
            yield int(f[0], 16), f[1], f[2]


def main():
    img = Image(sys.argv[1])
    if len(sys.argv) == 2:
        text = img.secs[".text"]
        found = [a for a in sorted(img.sealed)
                 if text["addr"] <= a < text["addr"] + text["size"] and
                 img.bytes_at(a - 16, 16) in (b"\x90" * 16, b"\xcc" * 16)]
        print("\n".join("%016x" % a for a in found[:100]))
        return 0
    tests = []
    verdicts = {f[0]: f[1:3] for f in map(str.split, open(sys.argv[3])) if len(f) >= 3}
    addrs = {n: a for a, t, n in kallsyms(sys.argv[2]) if t in "Tt"}
    sealed_n = 0
    for name, (read, how) in sorted(verdicts.items()):
        if name not in addrs:
            tests.append((False, "proof_matches_image_" + name, "not in the guest's kallsyms"))
            continue
        why = img.callable(addrs[name])
        image = "endbr" if why is None else "sealed"
        sealed_n += image == "sealed"
        ok = read == image and (image == "endbr" or how == "direct")
        tests.append((ok, "proof_matches_image_" + name, "guest read %s, called %s, image: %s"
                       % (read, how, why or "ENDBR64, not sealed")))
    if not verdicts:
        tests.append((False, "proof_read_in_guest", "no '# ibt' lines from the guest"))
    sealed = [(a, n) for a, t, n in kallsyms(sys.argv[4]) if t in "Tt"]
    if sealed:
        a, n = sealed[0]
        why = img.callable(a)
        tests.append((why is not None, "sealed_function_refused",
                      "%s: %s" % (n, why or "accepted: the proof cannot fail")))
    else:
        tests.append((False, "sealed_function_refused", "no sealed function named by the guest"))
    print("# %d of the %d functions optprobe reaches are sealed in this image;"
          % (sealed_n, len(verdicts)))
    print("# optprobe calls them directly (static calls), so IBT never checks them")
    print("KTAP version 1")
    print("1..%d" % len(tests))
    for i, (ok, name, why) in enumerate(tests, 1):
        print("%s %d %s # %s" % ("ok" if ok else "not ok", i, name, why))
    return 0 if all(t[0] for t in tests) else 1


if __name__ == "__main__":
    sys.exit(main())
