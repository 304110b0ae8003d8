"""Reading a Thumb function's instructions from arm-none-eabi-objdump, so
tests derive expected instruction counts from the code itself instead of
copying numbers from a run."""
import re
import subprocess

INSN = re.compile(r"^\s*([0-9a-f]+):\s+(\S+)\s*(.*)$")
# Returns: bx lr; pop {..., pc}; ldmia sp!, {..., pc}; ldr pc, [sp], #4 (a
# one-register pop, as GCC writes it at -O2).
RETURN = re.compile(r"^(bx\s+lr|pop(\.w)?\s+\{[^}]*pc\}|ldmia(\.w)?\s+sp!,\s*\{[^}]*pc\}"
                    r"|ldr(\.w)?\s+pc,\s*\[sp\],\s*#\d+)")
COND_BRANCH = re.compile(r"^(b(eq|ne|cs|cc|hs|lo|mi|pl|vs|vc|hi|ls|ge|lt|gt|le)(\.n|\.w)?|cbz|cbnz)\s")


def function(objdump, elf, name):
    """[(address, mnemonic, operands)] of function `name`, in address order.
    A `bl` to a label inside the function itself is listed as `b`: it is a
    jump (GCC's far branch on Thumb-1, whose `b` reaches only 2 KiB, e.g.
    the back edge of nop1000's loop on a Cortex-M0), not a call."""
    out = subprocess.run([objdump, "-d", "--no-show-raw-insn", elf], check=True,
                         capture_output=True, text=True).stdout
    insns, inside = [], False
    for line in out.splitlines():
        if line.endswith(f"<{name}>:"):
            inside = True
            continue
        if inside:
            if not line.strip():
                break
            m = INSN.match(line)
            if m and m.group(2) not in (".word", ".short", "..."):
                ops = m.group(3).split("@")[0].strip()
                mnem = "b" if m.group(2) == "bl" and f"<{name}+" in ops else m.group(2)
                insns.append((int(m.group(1), 16), mnem, ops))
    if not insns:
        raise KeyError(f"{name} not found in {elf}")
    return insns


def straight_line_cost(objdump, elf, name):
    """Instructions executed by a call of a branch-free function, up to and
    including its return. Fails if the function branches."""
    cost = 0
    for _, mnem, ops in function(objdump, elf, name):
        text = f"{mnem} {ops}"
        assert not COND_BRANCH.match(text), f"{name} branches ({text}): not straight-line"
        cost += 1
        if RETURN.match(text):
            return cost
    raise AssertionError(f"{name}: no return found")


UNCOND_BRANCH = re.compile(r"^b(\.n|\.w)?\s")
TARGET = re.compile(r"([0-9a-f]+)\s+<")


def _branch_target(ops):
    m = TARGET.match(ops)
    return int(m.group(1), 16) if m else None


def loop_iteration_cost(objdump, elf, name):
    """Instructions executed by one iteration of the single loop of function
    `name`, plus the straight-line cost of every function it calls.

    The loop is the one backward branch (conditional, for a bottom-tested
    loop, or unconditional, for a top-tested one). The iteration is walked
    from the branch's target: at a conditional branch inside the loop, the
    side that leaves the loop (reaches a return or a branch past the loop
    before the other side) is not taken. Fails when both sides stay in the
    loop: the cost would then depend on the data, not be a constant."""
    insns = function(objdump, elf, name)
    index = {a: i for i, (a, _, _) in enumerate(insns)}
    loops = [(t, i) for i, (a, m, o) in enumerate(insns)
             if (COND_BRANCH.match(f"{m} ") or UNCOND_BRANCH.match(f"{m} "))
             and (t := _branch_target(o)) is not None and t < a]
    assert len(loops) == 1, f"{name}: expected one loop, found {len(loops)}"
    target, end = loops[0]
    lo, hi = target, insns[end][0]

    def leaves_loop(start_addr, stop_addr):
        """Does straight-line code from start_addr reach an exit before stop_addr?"""
        if not lo <= start_addr <= hi:
            return True
        for a, m, o in insns[index[start_addr]:]:
            if a == stop_addr:
                return False
            text = f"{m} {o}"
            if RETURN.match(text):
                return True
            t = _branch_target(o)
            if (COND_BRANCH.match(f"{m} ") or UNCOND_BRANCH.match(f"{m} ")) and t is not None:
                return not lo <= t <= hi
        return True

    cost, i = 0, index[target]
    while True:
        a, m, o = insns[i]
        text = f"{m} {o}"
        cost += 1
        call = re.match(r"bl\s+[0-9a-f]+\s+<([^>+]+)>", text)
        if call:
            cost += straight_line_cost(objdump, elf, call.group(1))
        if i == end:
            return cost
        if COND_BRANCH.match(f"{m} "):
            t = _branch_target(o)
            fall = insns[i + 1][0]
            taken_leaves = leaves_loop(t, fall) if t is not None else True
            fall_leaves = leaves_loop(fall, t) if t is not None else True
            assert taken_leaves != fall_leaves, f"{name}: data-dependent branch at {a:#x}"
            i = i + 1 if taken_leaves else index[t]
            continue
        assert not UNCOND_BRANCH.match(f"{m} "), f"{name}: unexpected jump at {a:#x}"
        i += 1


PUSH = re.compile(r"^(push(\.w)?|stmdb(\.w)?\s+sp!,)\s*\{([^}]*)\}")
SUB_SP = re.compile(r"^sub(\.w)?\s+sp,\s*(sp,\s*)?#(\d+)")
STORE_PUSH = re.compile(r"^str(\.w)?\s+\w+,\s*\[sp,\s*#-(\d+)\]!")


def frame_bytes(objdump, elf, name):
    """Bytes one call of `name` moves the stack pointer down by in its
    prologue (everything before its first branch): 4 per register pushed
    (push, stmdb sp!, str rX, [sp, #-4]!) plus every `sub sp, #N`."""
    total = 0
    for _, mnem, ops in function(objdump, elf, name):
        text = f"{mnem} {ops}"
        if COND_BRANCH.match(text) or UNCOND_BRANCH.match(text) or mnem in ("bl", "blx", "bx"):
            break
        m = PUSH.match(text)
        if m:
            total += 4 * len([r for r in m.group(4).split(",") if r.strip()])
            continue
        m = SUB_SP.match(text)
        if m:
            total += int(m.group(3))
            continue
        m = STORE_PUSH.match(text)
        if m:
            total += int(m.group(2))
    return total


DECODED_LINE = re.compile(r"^(\S+)\s+(\d+)\s+(0x[0-9a-f]+)(?:\s+\d+)?\s*(x?)\s*$")


def line_address(objdump, elf, file, line):
    """The lowest address of a row of the DWARF line table that begins a
    statement of file:line (file matched by its base name), read with
    `objdump --dwarf=decodedline`: an oracle independent of the controller."""
    out = subprocess.run([objdump, "--dwarf=decodedline", elf], check=True,
                         capture_output=True, text=True).stdout
    found = []
    for row in out.splitlines():
        m = DECODED_LINE.match(row.strip())
        if m and m.group(1).split("/")[-1] == file and int(m.group(2)) == line and m.group(4):
            found.append(int(m.group(3), 16))
    if not found:
        raise KeyError(f"{file}:{line} has no statement in {elf}")
    return min(found)


def marker_line(source, marker):
    """The 1-based number of the line of source that contains marker."""
    with open(source, encoding="utf-8") as f:
        for number, text in enumerate(f, start=1):
            if marker in text:
                return number
    raise KeyError(f"{marker!r} not in {source}")


def instructions_between(objdump, elf, name, start, end):
    """Instructions of function `name` at addresses [start, end), which must
    be straight-line code (no branch among them): what a breakpoint at start
    and one at end count between them."""
    insns = [(a, m, o) for a, m, o in function(objdump, elf, name) if start <= a < end]
    for a, m, o in insns:
        text = f"{m} {o}"
        assert not (COND_BRANCH.match(text) or UNCOND_BRANCH.match(text)), \
            f"{name}: branch at {a:#x} between {start:#x} and {end:#x}"
    return len(insns)


COUNTER_READ = re.compile(r"^ldr(\.w)?\s+(\w+),\s*\[(\w+)(,\s*#0)?\]$")


def bench_timed_window(objdump, elf, bench):
    """The timed part of the BR_BENCH_LOOP in function `bench` (an optimised
    build): the loop's first instruction is the first counter read (an `ldr`
    with no offset); the second read is the next `ldr` from the same base
    register. Returns (first_read, after_first_read, second_read): a
    breakpoint range [first_read, second_read) covers what the stub's sample
    covers; [after_first_read, second_read) is the body alone."""
    insns = function(objdump, elf, bench)
    loops = [(t, i) for i, (a, m, o) in enumerate(insns)
             if (COND_BRANCH.match(f"{m} ") or UNCOND_BRANCH.match(f"{m} "))
             and (t := _branch_target(o)) is not None and t < a]
    assert len(loops) == 1, f"{bench}: expected one loop, found {len(loops)}"
    head = next(i for i, (a, _, _) in enumerate(insns) if a == loops[0][0])
    first = COUNTER_READ.match(f"{insns[head][1]} {insns[head][2]}")
    assert first, f"{bench}: the loop does not start with a counter read: {insns[head]}"
    base = first.group(3)
    for a, m, o in insns[head + 1:loops[0][1]]:
        second = COUNTER_READ.match(f"{m} {o}")
        if second and second.group(3) == base:
            return insns[head][0], insns[head + 1][0], a
    raise AssertionError(f"{bench}: no second counter read from [{base}] in the loop")


def range_through_call(objdump, elf, caller, callee, next_callee):
    """Instructions from callee's entry up to (not including) next_callee's
    entry, when `caller` calls callee (straight-line) and then, straight on,
    next_callee: callee's own instructions, then the caller's from the call's
    return up to and including its call of next_callee."""
    insns = function(objdump, elf, caller)
    start = next(i for i, (_, m, ops) in enumerate(insns)
                 if m.startswith("bl") and f"<{callee}>" in ops)
    end = next(i for i, (_, m, ops) in enumerate(insns)
               if i > start and m.startswith("bl") and f"<{next_callee}>" in ops)
    return straight_line_cost(objdump, elf, callee) + (end - start)
