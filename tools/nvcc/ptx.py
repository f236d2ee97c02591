# SPDX-License-Identifier: MIT
"""Inline PTX in device code, as C++ the simulator runs: the translation of an ``asm`` statement's
template and operands (rewrite.py finds the statement and splices the result in).

Each instruction of the template becomes one C++ statement on its operands: ``%N`` is the N-th
operand (outputs first, then inputs, as GCC and nvcc number them), ``%%name`` a special register
(``%laneid``, ``%lanemask_lt`` and the other lane masks, ``%warpid``, ``%clock``, ``%clock64``,
``%tid.x`` ...). The instructions are the integer and bit ones real code writes by hand (``mov``,
``bfind``, ``brev``, ``popc``, ``clz``, ``prmt``, ``add``, ``sub``, ``mul.lo``, ``mad.lo``,
``and``, ``or``, ``xor``, ``not``, ``neg``, ``shl``, ``shr``, ``min``, ``max``, ``membar`` and
``fence``, ``nanosleep``, ``trap``). Anything else raises PtxError naming the instruction: the
driver reports it rather than letting the host assembler fail on it.
"""

import re

__all__ = ["PtxError", "translate", "unescape"]


class PtxError(ValueError):
    pass


_TYPES = {
    "b32": "unsigned", "u32": "unsigned", "s32": "int",
    "b64": "unsigned long long", "u64": "unsigned long long", "s64": "long long",
    "b16": "unsigned short", "u16": "unsigned short", "s16": "short",
}

_LANE = "(::cusim::detail::linear_thread_index() & 31u)"
_SPECIAL = {
    "laneid": _LANE,
    "lanemask_eq": f"(1u << {_LANE})",
    "lanemask_lt": f"((1u << {_LANE}) - 1u)",
    "lanemask_le": f"((2u << {_LANE}) - 1u)",
    "lanemask_gt": f"(~((2u << {_LANE}) - 1u))",
    "lanemask_ge": f"(~((1u << {_LANE}) - 1u))",
    "warpid": "(::cusim::detail::linear_thread_index() / 32u)",
    "clock": "((unsigned)clock64())",
    "clock64": "((unsigned long long)clock64())",
    "tid.x": "threadIdx.x", "tid.y": "threadIdx.y", "tid.z": "threadIdx.z",
    "ntid.x": "blockDim.x", "ntid.y": "blockDim.y", "ntid.z": "blockDim.z",
    "ctaid.x": "blockIdx.x", "ctaid.y": "blockIdx.y", "ctaid.z": "blockIdx.z",
    "nctaid.x": "gridDim.x", "nctaid.y": "gridDim.y", "nctaid.z": "gridDim.z",
}

_BINARY = {"add": "+", "sub": "-", "and": "&", "or": "|", "xor": "^"}


def unescape(literal):
    """The characters of one C string literal token (quotes included in `literal`)."""
    body = literal[literal.index('"') + 1:literal.rindex('"')]
    out = []
    i = 0
    simple = {"n": "\n", "t": "\t", "\\": "\\", '"': '"', "'": "'", "0": "\0", "r": "\r"}
    while i < len(body):
        c = body[i]
        if c == "\\" and i + 1 < len(body):
            out.append(simple.get(body[i + 1], body[i + 1]))
            i += 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


def _instructions(template):
    """The template's instructions, each (opcode parts, operand texts), comments dropped."""
    text = re.sub(r"//[^\n]*|/\*.*?\*/", " ", template, flags=re.S)
    for raw in text.split(";"):
        ins = raw.strip()
        if not ins:
            continue
        if ins.startswith("@") or "{" in ins or ins.startswith("."):
            raise PtxError(f"'{ins}' (predicates, blocks and declarations)")
        m = re.match(r"([\w.]+)\s*(.*)", ins, flags=re.S)
        opcode, rest = m.group(1), m.group(2).strip()
        operands = [o.strip() for o in rest.split(",")] if rest else []
        yield opcode.split("."), operands, ins


def translate(template, operands):
    """C++ statements for the asm template `template` (its characters, `%%` still doubled) with
    `operands`, a list of (constraint, expression text), outputs first. Raises PtxError."""
    def value(text, ctype):
        if text.startswith("%%"):
            reg = text[2:]
            if reg not in _SPECIAL:
                raise PtxError(f"special register %{reg}")
            return f"(({ctype}){_SPECIAL[reg]})"
        m = re.fullmatch(r"%(\d+)", text)
        if m:
            n = int(m.group(1))
            if n >= len(operands):
                raise PtxError(f"operand %{n} (the statement has {len(operands)})")
            return f"(({ctype})({operands[n][1]}))"
        if re.fullmatch(r"-?(0[xX][0-9a-fA-F]+|\d+)[uU]?", text):
            return f"(({ctype}){text})"
        raise PtxError(f"operand '{text}'")

    def target(text):
        m = re.fullmatch(r"%(\d+)", text)
        if not m or int(m.group(1)) >= len(operands) or "=" not in operands[int(m.group(1))][0] and \
                "+" not in operands[int(m.group(1))][0]:
            raise PtxError(f"destination '{text}' (an output operand)")
        return f"({operands[int(m.group(1))][1]})"

    statements = []
    for parts, ops, ins in _instructions(template):
        op = parts[0]
        types = [p for p in parts[1:] if p in _TYPES]
        ctype = _TYPES[types[-1]] if types else None
        bits = 64 if types and types[-1].endswith("64") else 32

        def need(count):
            if len(ops) != count or ctype is None and count > 0:
                raise PtxError(f"'{ins}'")

        if op in ("membar", "fence"):
            statements.append("__threadfence()")
        elif op == "trap":
            statements.append("__trap()")
        elif op == "nanosleep":
            statements.append(f"__nanosleep({value(ops[0], 'unsigned')})")
        elif op == "mov" and len(parts) == 2:
            need(2)
            statements.append(f"{target(ops[0])} = {value(ops[1], ctype)}")
        elif op in ("brev", "popc", "clz"):
            need(2)
            call = {"brev": "__brev", "popc": "__popc", "clz": "__clz"}[op] + ("ll" if bits == 64 else "")
            statements.append(f"{target(ops[0])} = {call}({value(ops[1], _TYPES['b' + str(bits)])})")
        elif op == "bfind" and len(parts) == 2:
            need(2)
            a = value(ops[1], ctype)
            unsigned_type = _TYPES["u" + str(bits)]
            # signed: the most significant bit that differs from the sign bit
            x = f"(({unsigned_type})({a} < 0 ? ~{a} : {a}))" if parts[1].startswith("s") else a
            clz = "__clzll" if bits == 64 else "__clz"
            statements.append(f"{target(ops[0])} = {x} == 0 ? 0xffffffffu : {bits - 1}u - (unsigned){clz}({x})")
        elif op == "prmt" and len(parts) == 2:
            need(3 + 1)
            statements.append(f"{target(ops[0])} = __byte_perm({value(ops[1], 'unsigned')}, "
                              f"{value(ops[2], 'unsigned')}, {value(ops[3], 'unsigned')})")
        elif op in _BINARY and len(parts) == 2:
            need(3)
            statements.append(f"{target(ops[0])} = ({ctype})({value(ops[1], ctype)} {_BINARY[op]} "
                              f"{value(ops[2], ctype)})")
        elif op == "mul" and parts[1:2] == ["lo"]:
            need(3)
            statements.append(f"{target(ops[0])} = ({ctype})({value(ops[1], ctype)} * {value(ops[2], ctype)})")
        elif op == "mad" and parts[1:2] == ["lo"]:
            need(4)
            statements.append(f"{target(ops[0])} = ({ctype})({value(ops[1], ctype)} * {value(ops[2], ctype)} + "
                              f"{value(ops[3], ctype)})")
        elif op in ("not", "neg") and len(parts) == 2:
            need(2)
            statements.append(f"{target(ops[0])} = ({ctype})({'~' if op == 'not' else '-'}{value(ops[1], ctype)})")
        elif op in ("min", "max") and len(parts) == 2:
            need(3)
            a, b = value(ops[1], ctype), value(ops[2], ctype)
            cmp = "<" if op == "min" else ">"
            statements.append(f"{target(ops[0])} = {a} {cmp} {b} ? {a} : {b}")
        elif op in ("shl", "shr") and len(parts) == 2:
            need(3)
            a, b = value(ops[1], ctype), value(ops[2], "unsigned")
            if op == "shl" or not parts[1].startswith("s"):
                # PTX clamps the shift: past the width the result is 0 (the sign, for shr.s)
                statements.append(f"{target(ops[0])} = {b} >= {bits}u ? ({ctype})0 : ({ctype})({a} "
                                  f"{'<<' if op == 'shl' else '>>'} {b})")
            else:
                statements.append(f"{target(ops[0])} = ({ctype})({a} >> ({b} >= {bits}u ? {bits - 1}u : {b}))")
        else:
            raise PtxError(f"instruction '{ins}'")
    return "do { " + "; ".join(statements) + ("; " if statements else "") + "} while (0)"
