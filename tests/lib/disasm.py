"""Reading a Thumb function's instructions from arm-none-eabi-objdump, so
tests derive expected instruction counts from the code itself instead of
copying numbers from a run."""
import re
import subprocess

INSN = re.compile(r"^\s*([0-9a-f]+):\s+(\S+)\s*(.*)$")
RETURN = re.compile(r"^(bx\s+lr|pop(\.w)?\s+\{[^}]*pc\})")
COND_BRANCH = re.compile(r"^(b(eq|ne|cs|cc|hs|lo|mi|pl|vs|vc|hi|ls|ge|lt|gt|le)(\.n|\.w)?|cbz|cbnz)\s")


def function(objdump, elf, name):
    """[(address, mnemonic, operands)] of function `name`, in address order."""
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
                insns.append((int(m.group(1), 16), m.group(2), m.group(3).split("@")[0].strip()))
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
