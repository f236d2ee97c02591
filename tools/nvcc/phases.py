# SPDX-License-Identifier: MIT
"""Kernels run as loops between their barriers (docs/internals.md, "Phases").

For a ``__global__`` function whose ``__syncthreads()`` are all statements of its body or of
``for``/``while`` loops there (loops in such loops too), and which has nothing else that waits for
other threads, the rewrite puts a second form of the body before the first, behind
``if (::cusim::detail::phases_begin())``:

* each stretch of statements between two barriers becomes a loop over the block's live threads
  (``phase_loop``), which makes each thread current in turn, so threadIdx and the fault tags are
  that thread's;
* each local variable declared in the body or in such a loop becomes one slot per thread
  (``phase_slots``), copied into a local of the same name for each thread's turn and back;
* each loop holding a barrier has its condition evaluated by every live thread (a split vote is a
  barrier divergence) and its increment run as a phase;
* ``return;`` ends the thread: later phases skip it.

The first form stays as it was, for what the runtime runs on fibers (CUSIM_PHASES=0, the opt-in
checkers, CUSIM_SCHEDULE=random). ``#line`` directives give the second form's statements their
own lines. What cannot be proven the same program (a barrier in a branch, a warp collective, an
atomic, a call of a function this file does not define, a local of a type not known to be
trivial, a lambda, goto, ...) leaves the kernel as it was: no second form.
"""

import os
import re
import sys

from tokens import TRIVIA, Cursor, RewriteError, Token, line_directive, tokenize

__all__ = ["wanted", "phased_body", "function_fitness"]


def wanted(flags, optimised=True):
    """Whether a compile's kernels get the phased form: in optimised builds, not in those made for
    stepping through kernels. The last -O flag of `flags` decides (-O0: not optimised); without
    one, `optimised` (the build's default)."""
    for f in flags:
        if f.startswith("-O"):
            optimised = f != "-O0"
    return optimised


# Types a local that lives across a barrier may have (with const, and pointers to anything).
_SCALARS = {
    "bool", "char", "short", "int", "long", "float", "double", "signed", "unsigned", "size_t", "ptrdiff_t",
    "int8_t", "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t", "uint32_t", "uint64_t", "uint", "ushort",
    "uchar", "ulong", "half", "__half", "__half2", "half2",
}
for _base in ("char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "longlong", "ulonglong", "float",
              "double"):
    for _n in ("1", "2", "3", "4"):
        _SCALARS.add(_base + _n)
_SCALARS.add("dim3")

# Identifiers that make a body unfit: they wait for other threads, or transfer control in ways the
# loops cannot follow, or hide code.
_FORBIDDEN = {
    "goto", "asm", "__asm__", "__asm", "try", "throw", "co_await", "co_yield", "co_return", "static", "thread_local",
    "__syncthreads_count", "__syncthreads_and", "__syncthreads_or", "__syncwarp", "__activemask",
    "cooperative_groups", "this_thread_block", "this_grid", "tiled_partition", "coalesced_threads", "sync",
    "clock", "clock64", "__nanosleep", "new", "delete", "malloc", "free", "switch", "case", "default", "operator",
    "template", "typedef", "using", "struct", "class", "union", "enum", "__shfl_sync",
}
_FORBIDDEN_PREFIXES = ("atomic", "__shfl", "__ballot", "__any", "__all", "__match", "__reduce", "cg", "__builtin")

# Functions a phase may call: they cannot wait for other threads.
_KNOWN_CALLS = {
    "min", "max", "abs", "fabs", "fabsf", "sqrt", "sqrtf", "rsqrt", "rsqrtf", "cbrt", "cbrtf", "exp", "expf",
    "exp2", "exp2f", "exp10f", "__expf", "log", "logf", "log2", "log2f", "log10", "log10f", "__logf", "log1pf",
    "expm1f", "sin", "sinf", "cos", "cosf", "tan", "tanf", "__sinf", "__cosf", "__tanf", "sincosf", "__sincosf",
    "sincos", "asin", "asinf", "acos", "acosf", "atan", "atanf", "atan2", "atan2f", "sinh", "sinhf", "cosh",
    "coshf", "tanh", "tanhf", "pow", "powf", "__powf", "floor", "floorf", "ceil", "ceilf", "round", "roundf",
    "rint", "rintf", "lrintf", "llrintf", "trunc", "truncf", "fmin", "fminf", "fmax", "fmaxf", "fma", "fmaf",
    "__fmaf_rn", "__fmul_rn", "__fadd_rn", "__fsub_rn", "__fdiv_rn", "__fdividef", "__frcp_rn", "__fsqrt_rn",
    "__saturatef", "__float2int_rn", "__float2int_rz", "__float2uint_rn", "__int2float_rn", "__uint2float_rn",
    "__float2half", "__half2float", "__float2half_rn", "__mul24", "__umul24", "__mulhi", "__umulhi", "__mul64hi",
    "__umul64hi", "__popc", "__popcll", "__clz", "__clzll", "__ffs", "__ffsll", "__brev", "__brevll",
    "copysign", "copysignf", "erf", "erff", "erfc", "erfcf", "isnan", "isinf", "isfinite", "signbit", "fmod",
    "fmodf", "remainderf", "hypotf", "ldexpf", "frexpf", "modff", "normcdff", "__ldg", "printf", "assert",
    "__trap", "sizeof", "alignof", "static_cast", "reinterpret_cast", "const_cast", "decltype", "grid",
    "make_char2", "make_uchar2", "make_short2", "make_int2", "make_uint2", "make_int3", "make_uint3",
    "make_int4", "make_uint4", "make_float2", "make_float3", "make_float4", "make_double2", "make_longlong2",
    "umin", "umax", "llmin", "llmax", "ullmin", "ullmax", "size", "extent", "data", "x", "y", "z", "w",
    "__threadfence", "__threadfence_block", "__threadfence_system",  # fences: they order, never wait
    "__hadd", "__hsub", "__hmul", "__hfma", "__hadd2", "__hsub2", "__hmul2", "__hfma2", "__float2half2_rn",
    "__floats2half2_rn", "__halves2half2", "__half22float2", "__low2float", "__high2float", "__low2half",
    "__high2half",  # cuda_fp16.h's arithmetic and conversions
}
_CONTROL = {"if", "for", "while", "do", "else", "return", "break", "continue"}


# The atomics that never wait: read-modify-writes that cannot fail (not atomicCAS or atomicExch,
# the spin's usual means). One whose result no thread reads cannot be a spin either.
_RMW_ATOMIC = re.compile(r"atomic(Add|Sub|Min|Max|And|Or|Xor|Inc|Dec)(_block|_system)?$")


def _waits(tok):
    """Whether the token is an identifier of _FORBIDDEN, or opens with one of its prefixes."""
    return tok.kind == "id" and (tok.text in _FORBIDDEN or tok.text.startswith(_FORBIDDEN_PREFIXES))


def _atomic_call(cursor, k):
    """For an identifier at k (significant tokens of `cursor`) naming one of _RMW_ATOMIC and
    called: "discarded" when the call is a whole expression statement (`atomicAdd(&h[b], 1);`,
    after `;`, `{`, `}`, `else`, `do`, the ) of an if, for or while, or `(void)`), "read" when its
    result is read, None when it is no such call or its arguments hold another atomic."""
    t = cursor.t
    if not (t[k].kind == "id" and _RMW_ATOMIC.match(t[k].text)) or not cursor.is_punct(cursor.next_sig(k), "("):
        return None
    b = cursor.prev_sig(k)
    if b >= 0 and t[b].kind == "punct" and t[b].text in (".", "->", "::"):
        return None
    lp = cursor.next_sig(k)
    rp = cursor.match_forward(lp)
    if rp < 0 or any(_waits(t[m]) for m in range(lp, rp)):
        return None
    if not cursor.is_punct(cursor.next_sig(rp), ";"):
        return "read"
    if b < 0 or t[b].kind == "punct" and t[b].text in (";", "{", "}") or t[b].kind == "id" and t[b].text in (
            "else", "do"):
        return "discarded"
    if cursor.is_punct(b, ")"):
        o = cursor.match_backward(b)
        before = cursor.prev_sig(o) if o >= 0 else -1
        inner = [t[m].text for m in cursor.sig_between(o, b)] if o >= 0 else []
        if inner == ["void"] or before >= 0 and t[before].kind == "id" and t[before].text in ("if", "for", "while"):
            return "discarded"
    return "read"


class _Unfit(Exception):
    pass


class _Var:
    """A replicated variable: the names it declares (one, or a structured binding's), its slots'
    type, how a name is bound to a thread's copy (`binder` = copy), and whether it is const."""
    __slots__ = ("names", "type", "binder", "slot", "const")

    def __init__(self, names, typ, binder, const, slot):
        self.names = names
        self.type = typ
        self.binder = binder
        self.const = const
        self.slot = slot


class _Phaser:
    def __init__(self, view, texts, path, open_i, close_i, functions, params, shared=(), template=None):
        self.view = view  # a Cursor over the file's tokens
        self.bound_shared = set(shared)  # namespace-scope __shared__ variables bound before the body
        self.t = view.t
        self.texts = texts  # each token's text as rewritten so far
        self.path = path
        self.open = open_i
        self.close = close_i
        self.functions = functions  # name -> whether its body is fit to be called from a phase
        self.params = set(params)  # the parameters' names
        self.param_words = params  # name -> the words of its type
        self.written = []  # the parameters the kernel writes (scalars and pointers): replicated
        self.views = _views(params)  # those of them one may call: cusim's checked views, A(i, j)
        self.sig = view.sig_between(open_i, close_i)  # position in the body -> token index
        self.body = Cursor([self.t[k] for k in self.sig])  # the body's significant tokens, by position
        self.cg_barriers = {}  # cg::sync(cta); and cta.sync(); statements: first position -> last
        self.handle_decls = {}  # cg::thread_block cta = cg::this_thread_block(); likewise
        self.exempt = set()  # the positions of those statements' tokens
        self.vars = []  # every replicated variable, in order of declaration
        self.shared = []  # token ranges of the __shared__ declarations, run once
        self.phases = 0
        self.regions = []  # the loops and blocks holding barriers around the statement at hand
        self.type_params, self.value_params = template or _template_params(view, open_i)
        self.guards = []  # types of replicated variables spelled with a template type parameter
        self.segments = 0  # the segments of phases made so far (phase(): a thread's turn is one or more)
        self.named_in = {}  # a variable's slot -> the segments that name it

    # -- tokens
    def tok(self, p):
        return self.body.t[p]

    def text(self, p):
        return self.tok(p).text if 0 <= p < len(self.sig) else ""

    def is_p(self, p, text):
        return self.body.is_punct(p, text)

    def match(self, p):
        q = self.body.match_forward(p)
        if q < 0:
            raise _Unfit("unbalanced")
        return q

    def has_barrier(self, lo, hi):
        return any(self.tok(p).kind == "id" and self.tok(p).text == "__syncthreads" or p in self.cg_barriers
                   for p in range(lo, hi + 1))

    # -- the cooperative-groups spelling of a block barrier, as the cuda-samples write it
    def find_block_syncs(self):
        """`cg::thread_block cta = cg::this_thread_block();` (cg or cooperative_groups, or no
        namespace after a using-directive; `auto` or `const` too) declares a handle;
        `cg::sync(cta);`, `sync(cta);` and `cta.sync();` are then barriers like
        `__syncthreads();`. Their statements are noted (cg_barriers: first position -> last,
        handle_decls likewise), their tokens exempt from the screen; any other use of a handle
        keeps the kernel from phases."""
        ns = ("cg", "cooperative_groups")
        words = [(self.tok(p).kind, self.tok(p).text) for p in range(len(self.sig))]

        def qualified(p, name):
            """The end (exclusive) of `name`, `cg::name` or `cooperative_groups::name` at p, or -1."""
            if p + 2 < len(words) and words[p][1] in ns and words[p + 1][1] == "::" and words[p + 2][1] == name:
                return p + 3
            if p < len(words) and words[p][1] == name and not (p > 0 and words[p - 1][1] in ("::", ".", "->")):
                return p + 1
            return -1

        def texts(p, n):
            return [w[1] for w in words[p:p + n]]

        handles = set()
        for p in range(len(self.sig)):
            if p > 0 and not (words[p - 1][0] == "punct" and words[p - 1][1] in (";", "{", "}")):
                continue  # a declaration opens a statement
            q = p + 1 if words[p][1] == "const" else p
            e = q + 1 if words[q][1] == "auto" else qualified(q, "thread_block")
            if e < 0 or e + 1 >= len(words) or words[e][0] != "id" or words[e + 1][1] != "=":
                continue
            f = qualified(e + 2, "this_thread_block")
            if f >= 0 and texts(f, 3) == ["(", ")", ";"]:
                handles.add(words[e][1])
                self.handle_decls[p] = f + 2
        for p in range(len(self.sig)):
            e = qualified(p, "sync")
            t = texts(e, 4) if e >= 0 else []
            if len(t) == 4 and t[0] == "(" and t[1] in handles and t[2:] == [")", ";"]:
                self.cg_barriers[p] = e + 3
            elif texts(p, 6)[:1] and words[p][1] in handles and texts(p + 1, 5) == [".", "sync", "(", ")", ";"]:
                self.cg_barriers[p] = p + 5
        for first, last in list(self.handle_decls.items()) + list(self.cg_barriers.items()):
            self.exempt.update(range(first, last + 1))
        for p in range(len(self.sig)):
            if words[p][0] == "id" and words[p][1] in handles and p not in self.exempt:
                shown = " ".join(w[1] for w in words[max(0, p - 3):p + 4])
                raise _Unfit(f"a use of the block handle {words[p][1]} other than a sync: `{shown}`")

    # -- the whole body: fit at all?
    def screen(self):
        for k in range(self.open + 1, self.close):
            tok = self.t[k]
            if tok.kind == "pp" and not tok.text.lstrip("#").lstrip().startswith("pragma"):
                raise _Unfit("a preprocessor directive")
        for p, k in enumerate(self.sig):
            tok = self.t[k]
            if p in self.exempt:
                continue
            if _waits(tok) and not self.atomic_fit(p):
                raise _Unfit(tok.text)
            elif tok.kind == "punct":
                if tok.text == "[" and p > 0:
                    before = self.tok(p - 1)
                    if not (before.kind == "id" and before.text not in _CONTROL or
                            before.kind == "punct" and before.text in (")", "]")):
                        raise _Unfit("a lambda")
                if tok.text == "<" and self.is_p(p + 1, "<") and self.is_p(p + 2, "<"):
                    raise _Unfit("a launch")
        self.screen_volatile()
        for p in range(len(self.sig)):
            name = self.tok(p).text
            if self.tok(p).kind == "id" and name in self.params and self.writes(p) and name not in self.written:
                # Each thread has its own copy of its parameters, and in phases the threads share
                # one: a written one becomes a slot per thread, as a local is, where its type is
                # known to be trivial (a scalar, or a pointer to one: `uint *d_SrcKey`).
                if not self.param_words[name] <= _SCALARS | {"const", "__restrict__", "unsigned", "signed"}:
                    raise _Unfit(f"a write to the parameter {name}")
                self.check_address_taken(name)
                self.written.append(name)

    def atomic_fit(self, p):
        """An atomic of _RMW_ATOMIC at p cannot wait: its result discarded, or read outside every
        loop without a barrier (where no spin can be)."""
        use = _atomic_call(self.body, p)
        if use == "discarded":
            return True
        if use != "read":
            return False
        for q in range(len(self.sig)):
            if self.text(q) in ("for", "while", "do") and self.tok(q).kind == "id" and q < p:
                _, lo, hi, _ = self.statement(q, len(self.sig))
                if lo <= p <= hi and not self.has_barrier(lo, hi):
                    raise _Unfit(f"{self.text(p)}'s result read in a loop without a barrier (a spin?)")
        return True

    def screen_volatile(self):
        """`volatile` (scan's `volatile uint *s_Data`) is fit where it cannot be a spin on another
        thread's store, which in phases would never see the store: no loop without a barrier in it
        names a variable declared volatile, or holds the word (a cast)."""
        names = set()
        for p in range(len(self.sig)):
            if self.text(p) != "volatile":
                continue
            q, last = p, None
            while q < len(self.sig) and not (self.tok(q).kind == "punct" and self.tok(q).text in
                                             ("=", ";", ",", ")", "[", "(", "{")):
                if self.tok(q).kind == "id":
                    last = self.tok(q).text
                q += 1
            if last:
                names.add(last)
        if not names:
            return
        for p in range(len(self.sig)):
            if self.text(p) not in ("for", "while", "do") or self.tok(p).kind != "id":
                continue
            _, lo, hi, _ = self.statement(p, len(self.sig))
            if self.has_barrier(lo, hi):
                continue
            for q in range(lo, hi + 1):
                if self.tok(q).kind == "id" and (self.tok(q).text in names or self.tok(q).text == "volatile"):
                    raise _Unfit(f"volatile {self.tok(q).text} in a loop without a barrier (a spin on a store?)")

    def writes(self, p):
        """Whether the name at p is assigned, incremented or has its address taken: a kernel's
        parameters are each thread's own copy, and in phases the threads share one."""
        if p > 0 and self.is_p(p - 1, ".") or p > 0 and self.is_p(p - 1, "->"):
            return False  # a member of something else
        if p > 0 and self.tok(p - 1).kind == "punct" and self.tok(p - 1).text in ("++", "--"):
            return True
        if p > 0 and self.is_p(p - 1, "&") and not any(self.is_p(p + 1, x) for x in ("[", "(", "->")):
            before = self.tok(p - 2) if p > 1 else None  # unary: &name, not a & name
            if before is None or (before.kind == "punct" and before.text not in (")", "]")) or before.text == "return":
                return True
        q = p + 1
        member = False
        while q < len(self.sig):
            if self.is_p(q, "[") or self.is_p(q, "("):
                q = self.match(q) + 1
            elif self.is_p(q, ".") and q + 1 < len(self.sig) and self.tok(q + 1).kind == "id":
                member = True
                q += 2
            elif self.is_p(q, "->"):
                return False  # through a pointer
            else:
                break
        if q >= len(self.sig):
            return False
        t = self.tok(q)
        assign = t.kind == "punct" and (t.text in ("=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "++", "--") or
                                        t.text in ("<", ">") and self.is_p(q + 1, t.text) and self.is_p(q + 2, "="))
        return assign and (member or q == p + 1)

    def screen_calls(self, lo, hi):
        """Every call in sig[lo..hi] is of a function that cannot wait for other threads."""
        for name in _called_names([self.tok(p) for p in range(lo, hi + 1) if p not in self.exempt]):
            if name in _CONTROL or name == "__syncthreads" or name in _KNOWN_CALLS or name in _SCALARS:
                continue
            if _RMW_ATOMIC.match(name):
                continue  # screened where it stands (atomic_fit)
            if name in self.views or name in self.shared_views():
                continue  # a checked view's element, A(i, j)
            if name in self.params or name in self.replicated_names():
                raise _Unfit(f"a call of {name}, a parameter or local")  # a functor: its code unseen
            if self.functions.get(name, False):
                continue
            raise _Unfit(f"a call of {name}")

    def shared_views(self):
        """The names of the __shared__ cusim::shared_array variables: sA(i, j) is an element."""
        names = set()
        for lo, hi in self.shared:
            words = [self.tok(p).text for p in range(lo, hi + 1) if self.tok(p).kind == "id"]
            if "shared_array" in words:
                names.add(words[-1])
        return names

    def shared_names(self):
        names = set()
        for lo, hi in self.shared:
            for p in range(lo, hi + 1):
                if self.tok(p).kind == "id":
                    names.add(self.tok(p).text)
        return names

    # -- statements of a barrier level
    def statement(self, p, end):
        """The statement starting at p (before end): (kind, first, last, parts)."""
        tok = self.tok(p)
        if tok.kind == "punct" and tok.text == "{":
            q = self.match(p)
            return ("block", p, q, None)
        if tok.kind == "punct" and tok.text == ";":
            return ("empty", p, p, None)
        if tok.kind == "id" and tok.text in ("for", "while"):
            if not self.is_p(p + 1, "("):
                raise _Unfit("a loop without (")
            r = self.match(p + 1)
            body = self.statement(r + 1, end)
            return (tok.text, p, body[2], (p + 1, r, body))
        if tok.kind == "id" and tok.text == "if":
            if not self.is_p(p + 1, "("):
                raise _Unfit("if without (")
            r = self.match(p + 1)
            then = self.statement(r + 1, end)
            last = then[2]
            if self.text(last + 1) == "else":
                other = self.statement(last + 2, end)
                last = other[2]
            return ("if", p, last, None)
        if tok.kind == "id" and tok.text == "do":
            body = self.statement(p + 1, end)
            q = body[2] + 1
            if self.text(q) != "while" or not self.is_p(q + 1, "("):
                raise _Unfit("do without while")
            r = self.match(q + 1)
            if not self.is_p(r + 1, ";"):
                raise _Unfit("do-while without ;")
            return ("do", p, r + 1, None)
        q = p
        while q < end:
            if self.is_p(q, ";"):
                return ("simple", p, q, None)
            if self.tok(q).kind == "punct" and self.tok(q).text in ("(", "[", "{"):
                q = self.match(q)
            q += 1
        raise _Unfit("a statement without ;")

    def statements(self, lo, hi):
        out = []
        p = lo
        while p <= hi:
            if self.tok(p).kind == "pp":  # #pragma unroll & co.: hints, for the first form
                p += 1
                continue
            s = self.statement(p, hi + 1)
            out.append(s)
            p = s[2] + 1
        return out

    # -- declarations of a barrier level
    def declaration(self, lo, hi):
        """sig[lo..hi] (without the ;): [(type text, name, init (lo, hi) or None)] if it declares
        variables of known types, None if it is no declaration; raises _Unfit for one of another type."""
        words = [self.tok(p) for p in range(lo, hi + 1)]
        if not words:
            return None
        first = words[0].text
        if words[0].kind == "punct":
            if first in ("(", "*", "++", "--"):
                return None
            raise _Unfit(f"a statement opening with {first}")
        k = 0
        cv = []
        while k < len(words) and words[k].kind == "id" and words[k].text in ("const", "volatile", "__restrict__"):
            cv.append(words[k].text)
            k += 1
        base = []
        while k < len(words) and words[k].kind == "id" and (words[k].text in _SCALARS or
                                                            not base and words[k].text in self.type_params):
            base.append(words[k].text)
            k += 1
            if base[-1] in self.type_params:
                break  # T, a template's type parameter: trivial or not, told at compile time (run)
        if not base and k < len(words) and words[k].kind == "id" and words[k].text == "auto":
            return self.auto_declaration(lo + k + 1, hi, "const" in cv)
        if not base:
            # An expression statement opens with a name known not to be a type; anything else may
            # declare a variable of a type not known to be trivial.
            known = (_CONTROL | _KNOWN_CALLS | self.params | self.shared_names() | self.replicated_names() |
                     self.bound_shared | self.value_params |
                     {n for n in getattr(self.functions, "functions", ()) if self.functions.get(n)} |
                     {"threadIdx", "blockIdx", "blockDim", "gridDim", "__syncthreads"})
            if k == 0 and (first in known or _RMW_ATOMIC.match(first)) and not (len(words) > 1 and words[1].kind == "id"):
                return None
            raise _Unfit(f"a statement opening with {first}")
        while k < len(words) and words[k].kind == "id" and words[k].text in ("const", "volatile"):
            cv.append(words[k].text)
            k += 1
        out = []
        p = lo + k
        while p <= hi:
            ptr = ""
            while p <= hi and (self.is_p(p, "*") or self.text(p) in ("const", "volatile", "__restrict__")):
                ptr += " " + self.text(p) if self.tok(p).kind == "id" else "*"
                p += 1
            if p > hi or self.tok(p).kind != "id":
                raise _Unfit("a declarator")
            name = self.tok(p).text
            p += 1
            init = None
            if p <= hi and self.is_p(p, "="):
                q = p + 1
                start = q
                while q <= hi and not self.is_p(q, ","):
                    if self.tok(q).kind == "punct" and self.tok(q).text in ("(", "[", "{"):
                        q = self.match(q)
                    q += 1
                init = (start, q - 1)
                p = q
            elif p <= hi and not self.is_p(p, ","):
                raise _Unfit("a declarator with an array bound or a constructor")
            typ = " ".join(cv + base) + ptr
            if not ptr and base[-1] in self.type_params and typ not in self.guards:  # not an array either (run)
                self.guards.append(typ)
            const = ("const" in typ.split("*")[-1].split()) if "*" in typ else "const" in cv
            out.append(([name], typ, f"{typ}& {name}", const, init))
            if p <= hi:
                p += 1  # the comma
        return out

    def auto_declaration(self, p, hi, const):
        """`auto name = init` or `auto [a, b] = init` from sig[p] (after auto) to sig[hi]: its type is
        the decayed type of init, which may name no local of the kernel (it is spelled where the
        slots are made, before any)."""
        if self.is_p(p, "["):
            close = self.match(p)
            names = [self.text(q) for q in range(p + 1, close) if self.tok(q).kind == "id"]
            if [self.text(q) for q in range(p + 1, close)] != [x for n in names for x in (n, ",")][:-1]:
                raise _Unfit("a structured binding")
            shown = "[" + ", ".join(names) + "]"
            p = close + 1
        elif self.tok(p).kind == "id":
            names = [self.text(p)]
            shown = names[0]
            p += 1
        else:
            raise _Unfit("an auto declarator")
        if not self.is_p(p, "=") or p + 1 > hi:
            raise _Unfit("an auto declaration without = init")
        init = (p + 1, hi)
        for q in range(init[0], init[1] + 1):
            if (self.tok(q).kind == "id" and self.tok(q).text in self.replicated_names() and
                    not (self.is_p(q - 1, ".") or self.is_p(q - 1, "->"))):
                raise _Unfit("an auto declaration whose type depends on a local")
            if self.is_p(q, ","):
                raise _Unfit("several auto declarators")
        text = "".join(" " if self.t[k].kind in TRIVIA else self.texts[k]
                       for k in range(self.sig[init[0]], self.sig[init[1]] + 1))
        typ = f"std::decay_t<decltype({text})>"
        binder = ("const auto& " if const else "auto& ") + shown
        return [(names, typ, binder, const, init)]

    def replicated_names(self):
        return {n for v in self.vars for n in v.names}

    # -- code
    def chunk(self, lo, hi, exit_label=None):
        """sig[lo..hi]'s source (rewritten, comments blanked) from a #line of its first line;
        `return;` becomes a jump to `exit_label`."""
        a, b = self.sig[lo], self.sig[hi]
        # The first token at its own column: the bounds reports read the subscript at the
        # instrumentation's column in the source line.
        parts = ["\n" + line_directive(self.t[a].line, self.path), " " * self.column_of(a)]
        k = a
        while k <= b:
            tok = self.t[k]
            text = self.texts[k]
            if tok.kind == "comment":
                text = "".join(c if c == "\n" else " " for c in tok.text)
            elif tok.kind == "pp":
                text = "\n" * tok.text.count("\n")  # #pragma unroll & co.: hints for the first form
            elif tok.kind == "id" and tok.text == "return":
                n = self.view.next_sig(k)
                if exit_label is None or not (self.t[n].kind == "punct" and self.t[n].text == ";"):
                    raise _Unfit("return with a value")
                text = f"goto {exit_label}"
            parts.append(text)
            k += 1
        return "".join(parts)

    def column_of(self, a):
        """The number of characters before token a on its line."""
        width = 0
        k = a - 1
        while k >= 0:
            text = self.texts[k] if self.t[k].line == self.t[a].line else self.t[k].text
            if "\n" in self.t[k].text:
                width += len(self.t[k].text) - self.t[k].text.rindex("\n") - 1
                break
            width += len(text)
            k -= 1
        return width

    def phase(self, segments):
        """One loop over the live threads running, for each thread in turn, each segment's
        `pieces`: ("stmt", lo, hi) statements, ("decl", lo, hi, vars, decls) declarations of
        replicated variables, ("text", code). A segment's `scope`: the replicated variables
        declared before it; only those its pieces name are copied in, and of those only the ones
        not const are copied back. Segments follow each other in one thread's turn, each a C++
        scope of its own: what follows a block holding barriers, after the block's last phase."""
        self.phases += 1
        label = f"cusim_exit_{self.phases}_"
        code = [" { ::cusim::detail::phase_cursor cusim_c_(cusim_pb_); while (cusim_c_.next()) {"
                " [[maybe_unused]] const unsigned cusim_i_ = cusim_c_.i;"]
        uses_exit = False
        for pieces, scope in segments:
            if pieces:
                self.segments += 1
                text, exits = self.segment(pieces, scope, label)
                code.append(text)
                uses_exit = uses_exit or exits
        if uses_exit:
            code.append(f" continue; {label}: cusim_c_.exit();")
        code.append(" } }")
        return "".join(code)

    def segment(self, pieces, scope, label):
        """One segment of a phase (phase()): its code for one thread, and whether it may return."""
        declared = [v for piece in pieces if piece[0] == "decl" for v in piece[3]]
        named = set()
        for piece in pieces:
            if piece[0] != "text":
                named.update(self.tok(p).text for p in range(piece[1], piece[2] + 1) if self.tok(p).kind == "id")
        visible = {}
        for v in scope:
            for n in v.names:
                visible[n] = v  # the innermost of a name wins
        used = []
        for n, v in visible.items():
            if n in named and v not in used:
                if any(visible[m] is not v for m in v.names):
                    raise _Unfit("a structured binding partly shadowed")
                used.append(v)
        body = []
        uses_exit = False
        bound = {n for v in used for n in v.names}
        nested = 0
        for piece in pieces:
            if piece[0] == "text":
                body.append(piece[1])
                continue
            if piece[0] == "decl" and any(n in bound for v in piece[3] for n in v.names):
                # A variable named as one of the scope around it (`for (uint stride = ...` where a
                # parameter is `stride`, an inlined function's `pos`): its binder, and what follows
                # it in the segment, in a scope of their own, as in the source.
                body.append(" {")
                nested += 1
            if piece[0] == "decl":
                bound.update(n for v in piece[3] for n in v.names)
            if any(self.tok(p).kind == "id" and self.tok(p).text == "return" for p in range(piece[1], piece[2] + 1)):
                uses_exit = True
            if piece[0] == "stmt":
                body.append(self.chunk(piece[1], piece[2], label))
                continue
            for v, decl in zip(piece[3], piece[4]):
                init = decl[4]
                if init is None:
                    body.append(f" [[maybe_unused]] {v.binder} = cusim_l{v.slot}_;")
                else:
                    body.append(f" [[maybe_unused]] {v.binder} = (cusim_l{v.slot}_ = "
                                + self.chunk(init[0], init[1], label) + ");")
        for v in used + declared:
            self.named_in.setdefault(v.slot, set()).add(self.segments)
        code = [" {"]
        for v in used:
            code.append(f" std::remove_cv_t<{v.type}> cusim_l{v.slot}_ = ::cusim::detail::slot_load(cusim_v{v.slot}_, cusim_i_);")
        for v in declared:
            code.append(f" std::remove_cv_t<{v.type}> cusim_l{v.slot}_{{}};")
        code.append(" {")
        for v in used:
            code.append(f" [[maybe_unused]] {v.binder} = cusim_l{v.slot}_;")
        code.extend(body)
        code.append(" }" * nested + " }")
        written = self.may_write(pieces)
        for v in [v for v in used if not v.const and any(n in written for n in v.names)] + declared:
            # Dropped (run) for a variable no other segment names: it needs no slot.
            code.append(f"{_SLOT_MARK}{v.slot}{_SLOT_MARK} ::cusim::detail::slot_store(cusim_v{v.slot}_, cusim_i_, cusim_l{v.slot}_);{_SLOT_MARK}")
        code.append(" }")
        return "".join(code), uses_exit

    _WRITES_AFTER = {"=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "++", "--", "[", ".", "->", ".*", "->*"}

    def may_write(self, pieces):
        """The names the segment's `pieces` may write: a name its copy back to its slot must follow
        (segment()); the others' slots still hold their values. May write: the left of an
        assignment (`<<=` and `>>=` too), of ++ or --, an operand of & (its address) or of a
        subscript, member access or member call, a name alone in a call's argument list (a
        reference parameter), or the initialiser of a reference (`T& r = x`)."""
        names = set()
        for piece in pieces:
            if piece[0] == "text":
                continue
            for p in range(piece[1], piece[2] + 1):
                if self.tok(p).kind != "id":
                    continue
                before, after = self.text(p - 1), self.text(p + 1)
                if (after in self._WRITES_AFTER or before in ("++", "--", "&", "&&")
                        or after in ("<", ">") and self.text(p + 2) == after and self.text(p + 3) == "="
                        or before in ("(", ",") and after in (")", ",")
                        or before == "=" and self.tok(p - 2).kind == "id" and self.text(p - 3) in ("&", "&&")):
                    names.add(self.tok(p).text)
        return names

    def declare(self, decls, scope):
        """New replicated variables for `decls` (declaration() of one statement), added to scope."""
        new = []
        for names, typ, binder, const, init in decls:
            for name in names:
                self.check_address_taken(name)
            v = _Var(names, typ, binder, const, len(self.vars))
            self.vars.append(v)
            new.append(v)
        scope.extend(new)
        return new

    def level(self, stmts, scope, top, tail=(), head=None, open_end=False):
        """The code of a barrier level: its phases, loops and barriers, then the pieces of `tail`
        in its last phase. scope: the variables visible on entry (a copy is extended here).
        head: the segments ((pieces, scope before them)) of the level around, pending when a
        block of its own opens: its first phase runs them first, the last joined by the block's
        first statements. open_end: the last phase left pending, returned with the code as
        segments, for the level around to go on with after the block."""
        scope = list(scope)
        code = []
        head = list(head or [])
        pieces = list(head[-1][0]) if head else []
        scope_before = [list(head[-1][1]) if head else list(scope)]
        segments = head[:-1]  # closed segments of the pending phase

        def flush():
            if pieces or any(seg[0] for seg in segments):
                code.append(self.phase(segments + [(list(pieces), scope_before[0])]))
            pieces.clear()
            segments.clear()
            scope_before[0] = list(scope)

        for kind, lo, hi, parts in stmts:
            barrier = self.has_barrier(lo, hi)
            if kind == "empty":
                continue
            if kind == "simple" and self.handle_decls.get(lo) == hi:
                continue  # the block handle: only its barriers use it, and they need nothing
            if kind == "simple" and self.cg_barriers.get(lo) == hi:
                flush()
                continue
            if kind == "simple" and barrier:
                if not (self.text(lo) == "__syncthreads" and self.is_p(lo + 1, "(") and self.is_p(lo + 2, ")") and
                        self.is_p(lo + 3, ";") and hi == lo + 3):
                    raise _Unfit("__syncthreads inside an expression")
                flush()  # the barrier: where one phase ends and the next begins
                continue
            if kind in ("for", "while") and barrier:
                paren_lo, paren_hi, body = parts
                if self.has_barrier(paren_lo, paren_hi):
                    raise _Unfit("__syncthreads in a loop header")
                outer = list(scope)
                code_loop = self.loop(kind, paren_lo, paren_hi, body, scope, pieces, flush)
                code.append(code_loop)
                scope[:] = outer  # the loop's own variables end with it
                scope_before[0] = list(scope)
                continue
            if kind == "block" and barrier:
                # A block of its own ({ ... } as a statement): its statements a level, its
                # variables ending with it. The statements pending before it open its first
                # phase (its names may shadow theirs: phase() scopes a binder that does).
                self.regions.append((lo, hi))
                inner, pending = self.level(self.statements(lo + 1, hi - 1), scope, False,
                                            head=segments + [(list(pieces), scope_before[0])], open_end=True)
                self.regions.pop()
                code.append(inner)
                segments[:] = pending  # its last phase goes on with what follows it
                pieces.clear()
                scope_before[0] = list(scope)
                continue
            if barrier:
                raise _Unfit(f"__syncthreads inside {kind}")
            if kind not in ("for", "while", "do") and any(
                    self.tok(p).kind == "id" and self.tok(p).text in ("break", "continue") for p in range(lo, hi + 1)):
                raise _Unfit("break or continue out of a phase")
            if kind == "simple" and any(self.tok(p).kind == "id" and self.tok(p).text == "__shared__"
                                        for p in range(lo, hi + 1)):
                if not top:
                    self.hoist_shared(lo, hi)
                self.shared.append((lo, hi))
                continue
            decls = self.declaration(lo, hi - 1) if kind == "simple" else None
            if decls:
                pieces.append(("decl", lo, hi, self.declare(decls, scope), decls))
                continue
            pieces.append(("stmt", lo, hi))
        pieces.extend(tail)
        if open_end:
            return "".join(code), segments + [(list(pieces), scope_before[0])]
        flush()
        return "".join(code)

    def loop(self, kind, paren_lo, paren_hi, body, scope, pieces, flush):
        """A for or while loop holding barriers. Its init and the first vote on its condition join
        the pending phase; then per round: whether every live thread leaves (a split vote is a
        divergence), the body's level, and the increment with the next vote in the body's last
        phase."""
        if kind == "for":
            semis = []
            p = paren_lo + 1
            while p < paren_hi:
                if self.is_p(p, ";"):
                    semis.append(p)
                elif self.tok(p).kind == "punct" and self.tok(p).text in ("(", "[", "{"):
                    p = self.match(p)
                p += 1
            if len(semis) != 2:
                raise _Unfit("a for header")
            init = (paren_lo + 1, semis[0])
            cond = (semis[0] + 1, semis[1] - 1)
            incr = (semis[1] + 1, paren_hi - 1)
            if init[1] > init[0]:
                decls = self.declaration(init[0], init[1] - 1)
                if decls:
                    pieces.append(("decl", init[0], init[1], self.declare(decls, scope), decls))
                else:
                    pieces.append(("stmt", init[0], init[1]))
        else:
            cond = (paren_lo + 1, paren_hi - 1)
            incr = (paren_hi, paren_hi - 1)
        if cond[1] >= cond[0]:
            vote = [("text", " cusim_c_.vote(static_cast<bool>("), ("stmt", cond[0], cond[1]), ("text", "));")]
        else:
            vote = [("text", " cusim_c_.vote(true);")]
        pieces.extend(vote)
        flush()
        site = f"::cusim::detail::source_location{{__FILE__, {self.tok(paren_lo).line}, 0}}"
        b_kind, b_lo, b_hi, _ = body
        inner = self.statements(b_lo + 1, b_hi - 1) if b_kind == "block" else [body]
        tail = ([("stmt", incr[0], incr[1]), ("text", ";")] if incr[1] >= incr[0] else []) + vote
        self.regions.append((paren_lo, b_hi))
        inner_code = self.level(inner, scope, False, tail)
        self.regions.pop()
        return f" for (;;) {{ if (cusim_pb_.leave({site})) break;" + inner_code + " }"

    def hoist_shared(self, lo, hi):
        """A __shared__ declaration in a loop or block holding barriers (`__shared__ float
        As[BLOCK_SIZE][BLOCK_SIZE];` in matrixMul's loop) is one variable per block whichever the
        round, so it may be declared once before the phases, as those of the body are, when its
        names are named nowhere outside the outermost such statement around it and by nothing
        else declared there."""
        region = self.regions[0]
        names = []
        depth = 0
        for p in range(lo, hi + 1):
            tok = self.tok(p)
            if tok.kind == "punct" and tok.text in ("(", "[", "{"):
                depth += 1
            elif tok.kind == "punct" and tok.text in (")", "]", "}"):
                depth -= 1
            elif (tok.kind == "id" and depth == 0 and p < hi and not self.is_p(p - 1, "::") and
                  any(self.is_p(p + 1, x) for x in ("[", ",", ";", "="))):
                names.append(tok.text)
        if not names:
            raise _Unfit("a __shared__ declaration in a loop")
        taken = self.shared_names() | self.params | self.replicated_names() | self.bound_shared
        for name in names:
            if name in taken:
                raise _Unfit(f"a __shared__ {name} in a loop, named as another variable")
            for p in range(len(self.sig)):
                if self.tok(p).kind == "id" and self.tok(p).text == name and not region[0] <= p <= region[1]:
                    raise _Unfit(f"a __shared__ {name} in a loop, named outside it")

    def check_address_taken(self, name):
        for p in range(len(self.sig)):
            if self.tok(p).kind == "id" and self.tok(p).text == name and p > 0 and self.is_p(p - 1, "&"):
                before = self.tok(p - 2) if p > 1 else None
                if before is None or before.kind == "punct" and before.text not in (")", "]"):
                    raise _Unfit(f"the address of {name}")

    def run(self):
        self.find_block_syncs()
        if not self.has_barrier(0, len(self.sig) - 1):
            if any(self.tok(p).kind == "id" and self.tok(p).text in ("sync", "this_thread_block", "barrier_wait")
                   for p in range(len(self.sig))):
                raise _Unfit("a sync() of a group other than a block handle (a tile, a grid, a handle passed in)")
            reached = sorted(set(_called_names([self.tok(p) for p in range(len(self.sig))])) &
                             set(getattr(self.functions, "barriers", ())))
            if reached:
                raise _Unfit(f"a barrier in a function it calls ({', '.join(reached)})")
            return None
        self.screen()
        stmts = self.statements(0, len(self.sig) - 1)
        # The written parameters: replicated variables from the start, each thread's slot holding
        # the parameter's value (decltype names the parameter wherever these are spelled: before
        # any binder of the same name, or in the binder's own declarator).
        params = [_Var([n], f"decltype({n})", f"std::remove_cv_t<decltype({n})>& {n}", False, len(self.vars) + k)
                  for k, n in enumerate(self.written)]
        self.vars.extend(params)
        code = self.level(stmts, params, True)
        # A variable only one segment names (an inlined function's argument, a local of one
        # stretch) is a local of that segment: no slot, no copy back.
        local = {v.slot for v in self.vars if v not in params and len(self.named_in.get(v.slot, ())) <= 1}
        code = re.sub(f"{_SLOT_MARK}(\\d+){_SLOT_MARK}([^{_SLOT_MARK}]*){_SLOT_MARK}",
                      lambda m: "" if int(m.group(1)) in local else m.group(2), code)
        self.screen_calls(0, len(self.sig) - 1)  # now that the variables and __shared__ names are known
        head = [" if (::cusim::detail::phases_begin()) {"]
        for lo, hi in self.shared:
            head.append(self.chunk(lo, hi))
        head.append(" ::cusim::detail::phase_block cusim_pb_;")
        for v in self.vars:
            if v.slot in local:
                continue
            init = v.names[0] if v in params else ""
            head.append(f" std::remove_cv_t<{v.type}>* const cusim_v{v.slot}_ = "
                        f"cusim_pb_.slots<std::remove_cv_t<{v.type}>>({init});")
        line = self.t[self.open].line
        if self.guards:
            # A template's type parameter as a local's type: the phased form only for the
            # instantiations where it is trivial, as the slots need (phase_block::slots).
            cond = " && ".join(f"std::is_trivially_copyable_v<std::remove_cv_t<{g}>> && "
                               f"std::is_trivially_default_constructible_v<std::remove_cv_t<{g}>> && "
                               f"!std::is_array_v<{g}>" for g in self.guards)
            head.insert(0, f" if constexpr ({cond})")
        return "".join(head) + code + " return; }\n" + line_directive(line, self.path)


# -- __device__ functions holding barriers, inlined into the kernel's phased copy

_SLOT_MARK = "\x01"  # brackets a variable's copy back to its slot in the code before run() decides on it
_FN_QUALIFIERS = {"inline", "__inline__", "__forceinline__", "__device__", "static", "constexpr", "__noinline__"}
# What may stand beside an inlined call in its statement: names, numbers and operators that
# neither call, index, branch nor short-circuit (so evaluating them after the callee's body is
# evaluating them as the call's statement does).
_BESIDE_CALL = {"=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", "+", "-", "*", "/", "%", "&", "|",
                "^", "<<", ">>", "~", "!", "==", "!=", "<", ">", "<=", ">=", ".", "::"}
_INLINE_DEPTH = 8


class _Inliner:
    """A kernel's body with each call of a `__device__` function of the same file that reaches a
    barrier (`scan1Exclusive(idata, s_Data, size, cta)`) replaced by the function's body, for the
    phased copy only: `R cusim_rN_; { P cusim_aN_k = arg; ... { P param = cusim_aN_k; ... body,
    its final `return e;` as `cusim_rN_ = e;` } ... cusim_rN_ ...;` (a parameter may name an
    argument's variable: `uint size = cusim_aN_2;` after the arguments' own). A `cg::thread_block`
    parameter becomes a block handle of its own (`cg::thread_block cta = cg::this_thread_block();`:
    a thread_block is the block's group whatever the argument), so its syncs are the block's
    barriers. The tokens keep their lines: reports and #line name the callee's source."""

    def __init__(self, view, texts, fit):
        self.view = view
        self.texts = texts
        self.fit = fit
        self.count = 0

    def body(self, open_i, close_i):
        """(tokens, texts) of the kernel's body from its { to its }, the calls inlined."""
        seq = [(self.view.t[k], self.texts[k]) for k in range(open_i, close_i + 1)]
        seq = self.expand(seq, 0)
        return [tok for tok, _ in seq], [text for _, text in seq]

    def callee(self, name):
        """(return type tokens, [(type tokens, name, handle)], {, }) of the one definition of name."""
        v = self.view
        t = v.t
        defs = getattr(self.fit, "defs", {}).get(name, [])
        if len(defs) != 1:
            raise _Unfit(f"a barrier in {name}, not a function this file defines once")
        lo, hi = defs[0]
        r = v.prev_sig(lo)
        lp = v.match_backward(r) if v.is_punct(r, ")") else -1
        n = v.prev_sig(lp) if lp >= 0 else -1
        if n < 0 or t[n].text != name:
            raise _Unfit(f"a barrier in {name}, a function of a shape not inlined")
        ret = []
        j = v.prev_sig(n)
        while j >= 0 and not (t[j].kind == "pp" or t[j].kind == "punct" and t[j].text in (";", "{", "}")):
            ret.insert(0, t[j])
            j = v.prev_sig(j)
        if any(tok.kind == "punct" and tok.text in ("<", ">", "&", "&&", "::") for tok in ret) or any(
                tok.text in ("template", "__global__", "operator") for tok in ret):
            raise _Unfit(f"a barrier in {name}, a template, member or function returning a reference")
        ret = [tok for tok in ret if tok.text not in _FN_QUALIFIERS]
        if not ret:
            raise _Unfit(f"a barrier in {name}, a function without a return type")
        params = []
        for part in self.split_commas(lp, r):
            toks = [t[k] for k in part]
            if not toks or [x.text for x in toks] == ["void"] and len(part) == 1:
                continue
            if any(x.kind == "punct" and x.text in ("=", "[", "(", "...") for x in toks) or toks[-1].kind != "id":
                raise _Unfit(f"a barrier in {name}, a parameter of a shape not inlined")
            typ = toks[:-1]
            words = [x.text for x in typ if x.text not in ("const", "&")]
            handle = words in (["cg", "::", "thread_block"], ["cooperative_groups", "::", "thread_block"],
                               ["thread_block"])
            if not handle and any(x.kind == "punct" and x.text in ("&", "&&") for x in typ):
                raise _Unfit(f"a barrier in {name}, a reference parameter")
            params.append(([x for x in typ if x.text not in ("const", "&")] if handle else typ, toks[-1].text, handle))
        return ret, params, lo, hi

    def split_commas(self, lp, rp, cursor=None):
        """The significant token indices between the ( at lp and the ) at rp, split at top-level commas."""
        c = cursor or self.view
        parts = [[]]
        k = c.next_sig(lp)
        while k < rp:
            if c.is_punct(k, ","):
                parts.append([])
            elif c.t[k].kind == "punct" and c.t[k].text in ("(", "[", "{"):
                e = c.match_forward(k)
                parts[-1].extend(m for m in range(k, e + 1) if c.t[m].kind not in TRIVIA)
                k = e
            else:
                parts[-1].append(k)
            k = c.next_sig(k)
        return parts if parts != [[]] else []

    def expand(self, seq, depth):
        """seq ((token, text) pairs) with the calls of functions that reach a barrier inlined."""
        barriers = getattr(self.fit, "barriers", ())
        k = 0
        while k < len(seq):
            tok = seq[k][0]
            c = Cursor([x for x, _ in seq])
            if not (tok.kind == "id" and tok.text in barriers and c.is_punct(c.next_sig(k), "(")) or (
                    c.prev_sig(k) >= 0 and c.t[c.prev_sig(k)].kind == "punct" and
                    c.t[c.prev_sig(k)].text in (".", "->", "::")):
                k += 1
                continue
            if depth >= _INLINE_DEPTH:
                raise _Unfit(f"calls reaching a barrier nested too deep ({tok.text})")
            seq, k = self.inline_call(seq, c, k, depth)
        return seq

    def inline_call(self, seq, c, k, depth):
        """seq with the call whose name is at k inlined; and where to go on scanning."""
        name = seq[k][0].text
        line = seq[k][0].line
        lp = c.next_sig(k)
        rp = c.match_forward(lp)
        # The statement around the call: from after the last ; { } before it to the ; after it.
        s = k
        j = c.prev_sig(k)
        while j >= 0 and not (c.t[j].kind == "pp" or c.t[j].kind == "punct" and c.t[j].text in (";", "{", "}")):
            if c.t[j].kind == "punct" and c.t[j].text in (")", "]"):
                raise _Unfit(f"a call of {name} (it reaches a barrier) in a condition or an expression's parentheses")
            s = j
            j = c.prev_sig(j)
        e = c.next_sig(rp)
        while e < len(seq) and not c.is_punct(e, ";"):
            e = c.next_sig(e)
        if e >= len(seq):
            raise _Unfit(f"a call of {name} (it reaches a barrier) not in a statement")
        beside = [m for m in c.sig_between(s - 1, k)] + [m for m in c.sig_between(rp, e)]
        for m in beside:
            x = c.t[m]
            if x.kind == "id" and x.text in _CONTROL | {"switch", "case", "default"} or x.kind == "punct" and x.text not in _BESIDE_CALL:
                raise _Unfit(f"a call of {name} (it reaches a barrier) beside `{x.text}` in its statement")
        for m in range(s, e + 1):
            if seq[m][1] != seq[m][0].text and m not in range(lp, rp + 1):
                raise _Unfit(f"a call of {name} (it reaches a barrier) in a statement the rewrite changed")
        ret, params, lo, hi = self.callee(name)
        void = [x.text for x in ret] == ["void"]
        if void and beside:
            raise _Unfit(f"a call of void {name} inside an expression")
        args = self.split_commas(lp, rp, c)
        if len(args) != len(params):
            raise _Unfit(f"a call of {name} with other than one argument per parameter")
        self.count += 1
        n = self.count
        result = f"cusim_r{n}_"

        def syn(kind, text):
            return (Token(kind, text, line), text)

        def words(toks):
            out = []
            for x in toks:
                out += [syn("ws", " "), syn(x.kind, x.text)]
            return out

        glue = [syn("nl", "\n")]
        if not void:
            glue += words(ret) + [syn("ws", " "), syn("id", result), syn("punct", ";")]
        glue += [syn("ws", " "), syn("punct", "{")]
        for q, ((typ, pname, handle), arg) in enumerate(zip(params, args)):
            if handle:
                if len(arg) != 1 or c.t[arg[0]].kind != "id":
                    raise _Unfit(f"a call of {name} whose thread_block argument is no name")
                continue
            glue += words(typ) + [syn("ws", " "), syn("id", f"cusim_a{n}_{q}_"), syn("ws", " "), syn("punct", "=")]
            glue += [seq[m] for m in range(arg[0], arg[-1] + 1)] + [syn("punct", ";")]
        for q, (typ, pname, handle) in enumerate(params):
            if handle:
                ns = [x for x in typ if x.text != "thread_block"]
                glue += words(typ) + [syn("ws", " "), syn("id", pname), syn("ws", " "), syn("punct", "=")]
                glue += words(ns + [Token("id", "this_thread_block", line)])
                glue += [syn("punct", "("), syn("punct", ")"), syn("punct", ";")]
            else:
                glue += words(typ) + [syn("ws", " "), syn("id", pname), syn("ws", " "), syn("punct", "="),
                                      syn("ws", " "), syn("id", f"cusim_a{n}_{q}_"), syn("punct", ";")]
        body = [(self.view.t[m], self.texts[m]) for m in range(lo + 1, hi)]
        body = self.final_return(body, name, result, void)
        body = self.expand(body, depth + 1)
        glue += body + [syn("nl", "\n"), syn("punct", "}"), syn("nl", "\n")]
        if not beside:
            tail = []
            seq = seq[:s] + glue + seq[e + 1:]
            return seq, s + len(glue)
        col = 0
        m = s - 1
        while m >= 0 and "\n" not in seq[m][0].text:
            col += len(seq[m][1])
            m -= 1
        if m >= 0:
            col += len(seq[m][0].text) - seq[m][0].text.rindex("\n") - 1
        tail = [syn("ws", " " * col)] + seq[s:k] + [syn("id", result)] + seq[rp + 1:e + 1]
        seq = seq[:s] + glue + tail + seq[e + 1:]
        return seq, s + len(glue) + len(tail)

    def final_return(self, body, name, result, void):
        """The callee's body with its last statement `return e;` as `result = e;`; no other return."""
        c = Cursor([x for x, _ in body])
        returns = [m for m, (x, _) in enumerate(body) if x.kind == "id" and x.text == "return"]
        if void:
            if returns:
                raise _Unfit(f"a return in {name}, which reaches a barrier")
            return body
        last = c.prev_sig(len(body))
        if not c.is_punct(last, ";"):
            raise _Unfit(f"{name} (it reaches a barrier) does not end with return")
        j = c.prev_sig(last)
        s = last
        while j >= 0 and not (c.t[j].kind == "pp" or c.t[j].kind == "punct" and c.t[j].text in (";", "{", "}")):
            if c.t[j].kind == "punct" and c.t[j].text in (")", "]"):
                j = c.match_backward(j)
            s = j
            j = c.prev_sig(j)
        if returns != [s]:
            raise _Unfit(f"a return in {name} (it reaches a barrier) other than its last statement")
        line = body[s][0].line
        return body[:s] + [(Token("id", result, line), result), (Token("ws", " ", line), " "),
                           (Token("punct", "=", line), "=")] + body[s + 1:]


def phased_body(view, texts, path, open_i, close_i, functions, params, shared=()):
    """The text to put after the { at open_i of a kernel's body (closing at close_i): the phased
    form, or "" when the kernel is not fit for it. view: a Cursor over the tokens of the file
    `path`; texts: each token's text as rewritten so far; shared: the names of namespace-scope
    __shared__ variables bound before the body (rewrite.py: inject_shared), no types.
    With CUSIM_NVCC_PHASES_REPORT=1 in the environment, the decision on each kernel with a
    barrier is a line on stderr (report)."""
    try:
        reached = set(_called_names([view.t[k] for k in view.sig_between(open_i, close_i)]))
        if reached & set(getattr(functions, "barriers", ())):
            # Barriers in functions it calls: the phased form is made from the body with them inlined.
            tokens, body_texts = _Inliner(view, texts, functions).body(open_i, close_i)
            code = _Phaser(Cursor(tokens), body_texts, path, 0, len(tokens) - 1, functions, params, shared,
                           _template_params(view, open_i)).run()
        else:
            code = _Phaser(view, texts, path, open_i, close_i, functions, params, shared).run()
        if code:
            report(view, path, open_i, None)
        return code or ""
    except _Unfit as e:
        report(view, path, open_i, str(e))
        return ""


def report(view, path, open_i, why):
    """`path:line: kernel NAME: phased` (why None) or `...: not phased: why` on stderr, for
    CUSIM_NVCC_PHASES_REPORT=1: which kernels the build runs as loops between barriers."""
    if os.environ.get("CUSIM_NVCC_PHASES_REPORT", "") in ("", "0"):
        return
    j = view.prev_sig(open_i)
    name = "?"
    if view.is_punct(j, ")"):
        n = view.prev_sig(view.match_backward(j))
        if n >= 0 and view.t[n].kind == "id":
            name = view.t[n].text
    verdict = "phased" if why is None else f"not phased: {why}"
    print(f"{path}:{view.t[open_i].line}: cusim nvcc: kernel {name}: {verdict}", file=sys.stderr)


def _template_params(view, open_i):
    """The type parameters' and the value parameters' names of the template whose function body
    opens at open_i (`template <class T, unsigned int blockSize, bool nIsPow2>`): two sets, empty
    for a function that is no template."""
    types, values = set(), set()
    t = view.t
    k = view.prev_sig(open_i)
    while k >= 0 and not (t[k].kind == "pp" or t[k].kind == "punct" and t[k].text in (";", "{", "}")):
        if t[k].kind == "punct" and t[k].text in (")", "]"):
            k = view.match_backward(k)
            if k < 0:
                return types, values
        elif t[k].kind == "id" and t[k].text == "template":
            lt = view.next_sig(k)
            if not view.is_punct(lt, "<"):
                break
            gt = view.angle_partner(lt, 1, skip=("(", "["))
            words = []
            for m in view.sig_between(lt, gt + 1 if gt >= 0 else lt):
                tok = t[m]
                if m == gt or tok.kind == "punct" and tok.text == ",":
                    names = [w for w in words if w.kind == "id"]
                    if names and names[0].text in ("class", "typename"):
                        types.add(names[-1].text)
                    elif len(names) > 1:
                        values.add(names[-1].text)
                    words = []
                elif tok.kind == "punct" and tok.text == "=":
                    words.append(None)  # a default: its words are not the name
                elif not (words and words[-1] is None):
                    words.append(tok)
            break
        k = view.prev_sig(k)
    return types, values


def _views(params):
    """The parameters (name -> type words) that are cusim's checked views, whose call operator
    is an element access."""
    return {name for name, words in params.items() if "cusim" in words and words & {"span", "mdspan"}}


def _called_names(tokens):
    """The names called in `tokens` (significant ones): each identifier before a (, or before the
    <...> of template arguments before a ( (a parenthesised expression, a cast, or a call of a
    call's result names nothing)."""
    names = []
    view = Cursor(tokens)
    for p, tok in enumerate(tokens):
        if not (tok.kind == "punct" and tok.text == "(") or p == 0:
            continue
        q = p - 1
        if tokens[q].kind == "punct" and tokens[q].text == ">":
            lt = view.angle_partner(q, -1)
            q = lt - 1 if lt >= 0 else -1
        if q >= 0 and tokens[q].kind == "id":
            names.append(tokens[q].text)
    return names


def function_fitness(view, functions, path=None):
    """name -> whether every function of that name defined in this file may be called from a
    phase: nothing in it waits for other threads, and it calls only such functions. Classes this
    file defines (`SharedMemory<T>`, whose conversion hands out the dynamic shared memory) and its
    function-like macros (`#define IMUL(a, b) __mul24(a, b)`) count as functions of their name:
    constructing or converting one of such a class, or expanding such a macro, runs only code
    that cannot wait."""
    bodies = {}
    for name, lo, hi, params, _ in functions:
        bodies.setdefault(name, []).append((view.t, lo, hi, params, None))
    for name, lo, hi, members in _classes(view):
        bodies.setdefault(name, []).append((view.t, lo, hi, {}, members))
    for name, tokens in _macros(view):
        bodies.setdefault(name, []).append((tokens, -1, len(tokens), {}, None))
    called = {name for name, _, _, _, _ in functions}
    for header in _quoted_headers(view, path):
        # The user's headers beside the file: their macros and __device__ functions (the
        # cuda-samples' UMUL and Comparator in a *_common.h); their classes are not looked at.
        for name, tokens in _macros(header):
            bodies.setdefault(name, []).append((tokens, -1, len(tokens), {}, None))
        for name, lo, hi in _device_functions(header):
            bodies.setdefault(name, []).append((header.t, lo, hi, {}, None))
            called.add(name)
    fit = _Fitness({name: False for name in bodies})
    fit.functions = called
    fit.defs = {}  # name -> [({, })] of this file's functions: what a kernel's phased copy may inline
    for name, lo, hi, _, _ in functions:
        fit.defs.setdefault(name, []).append((lo, hi))
    changed = True
    while changed:  # from "unfit" up: a recursion stays unfit
        changed = False
        for name, defs in bodies.items():
            if fit[name]:
                continue
            ok = True
            for tokens, lo, hi, params, members in defs:
                cursor = Cursor(tokens)
                for k in range(lo + 1, hi):
                    tok = tokens[k]
                    if members is not None and tok.kind == "id" and tok.text in ("operator", "template", "typename"):
                        continue  # a class's own conversions and operators, checked as its members are
                    if _waits(tok) and _atomic_call(cursor, k) != "discarded" or tok.kind == "id" and tok.text in (
                            "__syncthreads", "volatile"):
                        ok = False  # (an atomic whose result is read: the function may be called in a loop)
                    elif tok.kind == "pp" or (tok.kind == "punct" and tok.text == "<" and cursor.adjacent(k, 3, "<")):
                        ok = False
                if ok and not all(c in _CONTROL or c in _KNOWN_CALLS or c in _SCALARS or c in _views(params) or
                                  _RMW_ATOMIC.match(c) or
                                  c in (members or ()) or fit.get(c)
                                  for c in _called_names([tokens[k] for k in cursor.sig_between(lo, hi)])):
                    ok = False
            if ok:
                fit[name] = changed = True
    # The functions that reach a barrier (for the report of kernels whose barriers are in them).
    calls = {name: set().union(*(_called_names([tokens[k] for k in Cursor(tokens).sig_between(lo, hi)])
                                 for tokens, lo, hi, _, _ in defs)) for name, defs in bodies.items()}
    fit.barriers = {name for name, defs in bodies.items()
                    if any(tokens[k].kind == "id" and tokens[k].text in ("__syncthreads", "sync")
                           for tokens, lo, hi, _, _ in defs for k in range(lo + 1, hi))}
    changed = True
    while changed:
        changed = False
        for name in bodies:
            if name not in fit.barriers and calls[name] & fit.barriers:
                fit.barriers.add(name)
                changed = True
    return fit


def _quoted_headers(view, path, depth=3, seen=None):
    """Cursors over the headers `#include "name"` finds in the directory of `path` (the file
    whose tokens `view` holds), and theirs, `depth` levels down."""
    if path is None or depth == 0:
        return []
    seen = set() if seen is None else seen
    out = []
    for tok in view.t:
        if tok.kind != "pp":
            continue
        m = re.match(r'#\s*include\s*"([^"]+)"', tok.text)
        if not m:
            continue
        found = os.path.join(os.path.dirname(path), m.group(1))
        key = os.path.realpath(found)
        if key in seen or not os.path.isfile(found):
            continue
        seen.add(key)
        try:
            with open(found, encoding="utf-8", errors="surrogateescape") as f:
                header = Cursor(tokenize(f.read(), found))
        except (OSError, RewriteError):
            continue
        out.append(header)
        out.extend(_quoted_headers(header, found, depth - 1, seen))
    return out


def _device_functions(view):
    """(name, {, }) of each __device__ function (not __global__) `view`'s file defines outside
    any function, found by the shape `... __device__ ... name(...) {`."""
    out = []
    t = view.t
    k = 0
    while k < len(t):
        if view.is_punct(k, "{"):
            close = view.match_forward(k)
            r = view.prev_sig(k)
            if close < 0:
                break
            if view.is_punct(r, ")"):
                lp = view.match_backward(r)
                n = view.prev_sig(lp) if lp >= 0 else -1
                words = []
                j = view.prev_sig(n) if n >= 0 else -1
                while j >= 0 and not (t[j].kind == "pp" or t[j].kind == "punct" and t[j].text in (";", "{", "}")):
                    words.append(t[j].text)
                    j = view.prev_sig(j)
                if n >= 0 and t[n].kind == "id" and "__device__" in words and "__global__" not in words:
                    out.append((t[n].text, k, close))
                    k = close + 1
                    continue
            if view.is_punct(r, ")") or t[r].kind == "id" and t[r].text in ("const", "noexcept"):
                k = close + 1  # a function body: skip it
                continue
        k += 1
    return out


class _Fitness(dict):
    """function_fitness's answer: name -> fit, and `functions`, the names of the functions among
    them (not classes or macros: only a call of one of those may open a statement)."""
    functions = frozenset()
    barriers = frozenset()  # the names whose code reaches a barrier
    defs = {}  # name -> [({, })] of each function of this file of that name


def _classes(view):
    """(name, {, }, member function names) of each class, struct or specialization this file
    defines with a body."""
    out = []
    t = view.t
    for k, tok in enumerate(t):
        if not (tok.kind == "id" and tok.text in ("struct", "class")):
            continue
        n = view.next_sig(k)
        if n >= len(t) or t[n].kind != "id":
            continue
        q = view.next_sig(n)
        while q < len(t) and not (t[q].kind == "punct" and t[q].text in ("{", ";", ">", ",", "=", ")", "(")):
            q = view.next_sig(q)
        if q < len(t) and view.is_punct(q, ">") and view.is_punct(view.next_sig(n), "<"):
            # struct Name<args> {: a specialization
            q = view.next_sig(q)
            while q < len(t) and not (t[q].kind == "punct" and t[q].text in ("{", ";")):
                q = view.next_sig(q)
        if not view.is_punct(q, "{"):
            continue
        close = view.match_forward(q)
        if close < 0:
            continue
        members = set()
        for m in range(q + 1, close):
            if view.is_punct(m, "(") and t[view.prev_sig(m)].kind == "id":
                e = view.match_forward(m)
                after = view.next_sig(e) if e >= 0 else len(t)
                while after < close and t[after].kind == "id" and t[after].text in ("const", "noexcept"):
                    after = view.next_sig(after)
                if view.is_punct(after, "{") or view.is_punct(after, ":"):
                    members.add(t[view.prev_sig(m)].text)
        out.append((t[n].text, q, close, members))
    return out


_BUILTINS = {"threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize"}


def view_names_call(tokens, tok):
    """Whether tok, an identifier of `tokens`, is called (a ( follows it)."""
    k = tokens.index(tok)
    return k + 1 < len(tokens) and tokens[k + 1].kind == "punct" and tokens[k + 1].text == "("


def _macros(view):
    """(name, replacement tokens) of each function-like macro this file defines."""
    out = []
    for tok in view.t:
        if tok.kind != "pp":
            continue
        text = tok.text.lstrip("#").lstrip()
        if not text.startswith("define"):
            continue
        m = re.match(r"define\s+([A-Za-z_]\w*)\(([^)]*)\)", text)
        if not m:
            continue
        try:
            body = text[m.end():].replace("\\\n", " ")
            tokens = [x for x in tokenize(body, "<macro>") if x.kind not in TRIVIA]
        except RewriteError:
            continue
        # Only an expression of its parameters, constants (upper-case names) and calls: a macro
        # naming a local of the kernel, declaring, returning or opening a block is not one.
        params = {x.strip() for x in m.group(2).split(",")}
        words = _BUILTINS | _KNOWN_CALLS | _SCALARS | {"sizeof", "true", "false"}
        if any(x.kind == "punct" and x.text in ("{", "}", ";") or
               x.kind == "id" and not (x.text in params or x.text in words or x.text.isupper() or
                                       view_names_call(tokens, x)) for x in tokens):
            continue
        out.append((m.group(1), tokens))
    return out
