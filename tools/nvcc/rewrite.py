# SPDX-License-Identifier: MIT
"""The token rewrite that lets the host compiler build an unmodified .cu file for the simulator.

Only what C++ cannot express is rewritten (docs/unmodified-cuda.md):

* ``K<<<g, b[, s[, st]]>>>(args)``  ->  ``::cusim::detail::chevron(g, b[, s[, st]])(PROBE(K), CALL(K), args)``
* ``__shared__ T name[N];`` in a function  ->  a ``static constexpr char`` key and
  ``auto& name = ::cusim::detail::shared_variable<T[N]>(&key, source_location::current());``
* ``extern __shared__ T name[];``  ->  ``T* const name = ::cusim::detail::dynamic_shared_pointer<T>();``
* a namespace-scope ``__constant__`` or ``__device__`` array declaration gets, after its ``;``, a
  registration of the array's name and memory space, for the bounds faults' reports
* the closing ``}`` of a ``__global__`` function definition (not a template) gets, after it, a
  namespace-scope registration that makes the kernel launchable by address from the start
  (``cudaLaunchKernel((void*)k, ...)``, graph kernel nodes) before any ``<<<>>>`` of it ran
* ``cudaLaunchKernel((void*)k, ...)`` (and ``cudaLaunchCooperativeKernel``) in a host function, where
  the first argument is a kernel's name, cast or not  ->  ``::cusim::detail::launch_kernel_named<
  cooperative>(PROBE(k), CALL(k), (void*)k, ...)``: launched as ``<<<>>>`` launches (rewrite_launch_kernel)
* a host function's definition gets ``CUSIM_HOST_CODE`` in front, which the driver defines as the
  attribute that leaves it uninstrumented (mark_host_function)
* in ``__global__``, ``__device__`` and ``__host__ __device__`` function bodies, integer casts
  ``(T)x``, ``T(x)``, ``static_cast<T>(x)``  ->  ``::cusim::detail::gpu_cast<T>(x)``, and shifts
  ``a << b``, ``a >> b``, ``a <<= b``, ``a >>= b``  ->  ``::cusim::detail::gpu_shl(a, b)``, ``gpu_shr``,
  ``gpu_shl_assign``, ``gpu_shr_assign`` (include/cusim/backend/sim/gpu_defined.hpp: the GPU's value
  where C++ leaves it undefined), operands delimited by C++'s grammar; an extent the rewrite is not
  sure of leaves the expression as it is (rewrite_device_operations); ``malloc(n)`` and ``free(p)``
  there  ->  ``::cusim::detail::device_malloc(n)``, ``device_free(p)``: the device heap
* conditional directives testing ``__CUDA_ARCH__`` where device code sees it (device function
  bodies, namespace-scope chains declaring device code: cuda_arch_directive) get its value, and so
  does ``__CUDA_ARCH__`` in device function bodies; host code sees it undefined

Comments, strings, character literals, raw strings and preprocessor lines are kept as they are
(a launch inside a ``#define`` body is rewritten in place), and every rewrite stays on the lines it
came from, so the output has exactly as many lines as the input. What cannot be rewritten safely
raises RewriteError naming the file, line and construct. The file is read as tokens (tokens.py):
the rewriter is a Cursor over them with one replacement text per token.
"""

import hashlib
import re

import phases
import ptx
from tokens import CLOSE, OPEN, TRIVIA, Cursor, RewriteError, line_directive, tokenize

__all__ = ["RewriteError", "rewrite", "add_phases", "needs_rewrite"]


def needs_rewrite(src):
    """Whether src may hold anything to rewrite (a fast check before tokenizing)."""
    return ("<<<" in src or "__shared__" in src or "__global__" in src or "__constant__" in src or
            "__device__" in src or "__CUDA_ARCH__" in src)


DEFAULT_CUDA_ARCH = 800  # what device code sees for __CUDA_ARCH__ unless the driver says otherwise

_CONDITIONAL = re.compile(r"#\s*(if|ifdef|ifndef|elif|elifdef|elifndef|else|endif)\b")


def directive_kind(text):
    """'if', 'ifdef', ..., 'else', 'endif' for a conditional directive, else None."""
    m = _CONDITIONAL.match(text)
    return m.group(1) if m else None


def device_view(text, arch):
    """A conditional directive as device code sees it: __CUDA_ARCH__ defined as `arch`.
    `#ifdef __CUDA_ARCH__` -> `#if 1`, `#ifndef` -> `#if 0` (`#elifdef`/`#elifndef` -> `#elif`),
    `defined(__CUDA_ARCH__)` and `defined __CUDA_ARCH__` -> 1, any other __CUDA_ARCH__ -> arch.
    The directive stays on its lines."""
    text = re.sub(r"^(#\s*)(el)?ifdef(\s+)__CUDA_ARCH__\b",
                  lambda m: f"{m.group(1)}{m.group(2) or ''}if{m.group(3)}1", text)
    text = re.sub(r"^(#\s*)(el)?ifndef(\s+)__CUDA_ARCH__\b",
                  lambda m: f"{m.group(1)}{m.group(2) or ''}if{m.group(3)}0", text)
    one = lambda m: "1" + "\\\n" * m.group(0).count("\n")  # a continued line stays continued
    ws = r"(?:\s|\\\n)*"
    text = re.sub(rf"\bdefined{ws}\({ws}__CUDA_ARCH__{ws}\)", one, text)
    text = re.sub(r"\bdefined(?:\s|\\\n)+__CUDA_ARCH__\b", one, text)
    return re.sub(r"\b__CUDA_ARCH__\b", str(arch), text)


_KEYWORDS_BEFORE_EXPR = {"return", "else", "do", "case", "throw", "co_return", "co_yield", "co_await"}
_ALIGN_WORDS = ("__align__", "alignas")
# Words followed by a parenthesised group in a declaration that are not the declared name.
_NOT_A_NAME = {"__launch_bounds__", "__align__", "alignas", "__attribute__", "__declspec", "decltype",
               "__maxnreg__", "__cluster_dims__", "noexcept", "throw", "operator"}
# Device code's integer casts and shifts (rewrite_device_operations).
_INT_BUILTIN = {"int", "unsigned", "signed", "long", "short", "char"}
# malloc and free in device code: the device heap (include/cusim/backend/sim/device_runtime.hpp).
_ASM = ("asm", "__asm__", "__asm")
_DEVICE_HEAP = {"malloc": "::cusim::detail::device_malloc", "free": "::cusim::detail::device_free"}
_INT_TYPEDEFS = {"size_t", "ssize_t", "ptrdiff_t", "intptr_t", "uintptr_t", "intmax_t", "uintmax_t", "int8_t",
                 "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t", "uint32_t", "uint64_t", "uint", "ushort",
                 "ulong"}
_TYPE_WORDS = _INT_BUILTIN | {"float", "double", "bool", "void", "wchar_t", "char8_t", "char16_t", "char32_t"}
# Words that neither are nor start an operand.
_NOT_AN_OPERAND = {
    "return", "if", "else", "for", "while", "do", "switch", "case", "default", "break", "continue", "goto", "const",
    "volatile", "static", "extern", "auto", "register", "struct", "class", "union", "enum", "typename", "template",
    "typedef", "using", "namespace", "new", "delete", "throw", "asm", "__asm__", "inline", "constexpr", "consteval",
    "co_await", "co_return", "co_yield", "operator", "public", "private", "protected", "virtual", "friend",
    "explicit", "mutable", "thread_local", "__device__", "__global__", "__host__", "__shared__", "__constant__",
    "decltype", "static_assert", "and", "or", "bitand", "bitor", "xor", "not_eq", "and_eq", "or_eq", "xor_eq",
    "__restrict__", "requires", "concept",
}
# Stream manipulators: the right operand of a shift that is one of them is no integer.
_MANIPULATORS = {"endl", "ends", "flush", "hex", "dec", "oct", "ws", "boolalpha", "noboolalpha", "showpos",
                 "noshowpos", "showbase", "noshowbase", "fixed", "scientific", "defaultfloat", "hexfloat", "left",
                 "right", "internal", "uppercase", "nouppercase", "unitbuf", "nounitbuf", "skipws", "noskipws"}
# Before a ( that follows them, words that make it no expression's parenthesis.
_STATEMENT_HEADS = {"if", "while", "for", "switch", "catch", "constexpr", "consteval"}
# What may come before a functional cast T(x) in an expression.
_EXPRESSION_BEFORE = {"=", "(", ",", "[", "+", "-", "*", "/", "%", "!", "~", "&", "|", "^", "?", ":", "&&", "||",
                      "==", "!=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^="}
_DECL_SPECIFIERS = {"static", "volatile", "const", "extern", "__device__", "__shared__", "inline",
                    "__restrict__", "register"}
# What no template argument list in an expression holds: a scan for one stops there (the brackets
# facing the scan are skipped whole, the others end it).
_NOT_IN_ARGUMENTS = {"{", "}", ";", "&&", "||", "?", "=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^="}


# The C API's launches whose kernel the rewrite may name (rewrite_launch_kernel).
_LAUNCH_KERNEL = ("cudaLaunchKernel", "cudaLaunchCooperativeKernel")
# What marks a host function's definition (mark_host_function); the driver defines it.
HOST_CODE_MACRO = "CUSIM_HOST_CODE"
# A word spelled like a macro (which may stand for __device__), and those known to be host code's.
_MACRO_LIKE = re.compile(r"(?=.*[A-Z])[A-Z_][A-Z0-9_]{2,}")
_HOST_MACROS = {"CUDART_CB", "CUSIM_HOST_CODE", "EXIT_SUCCESS", "EXIT_FAILURE", "NULL"}


def _ends_arguments_forward(tok):
    return tok.kind == "pp" or tok.kind == "punct" and (tok.text in _NOT_IN_ARGUMENTS or tok.text in (")", "]"))


def _ends_arguments_backward(tok):
    return tok.kind == "pp" or tok.kind == "punct" and (tok.text in _NOT_IN_ARGUMENTS or tok.text in ("(", "[", ":"))


def _ends_declaration(tok):
    """A template argument list of a declaration's type or a kernel's name: never past a ; or {."""
    return tok.kind == "punct" and tok.text in (";", "{")


def registration(name, n, line, tag):
    """What follows the closing } of __global__ function `name` (the n-th in the file tagged `tag`,
    its body opening on `line`): a namespace-scope static whose initialisation registers the kernel."""
    probe = f"::cusim::detail::kernel_pointer<decltype(cusim_t_)>({name})"
    return (f"[[maybe_unused]] static const bool cusim_kernel_registered_{tag}_{n}_{line}_ = "
            f"::cusim::detail::register_kernel_probe([](auto cusim_t_) -> decltype({probe}) {{ return {probe}; }});")


def probe_and_call(kernel):
    """The two lambdas a launch of the kernel named by the expression `kernel` passes on: a probe
    that yields its address when `kernel` names one function (so the launch knows the kernel and
    converts the arguments to its parameters), and a call `kernel(args...)` per thread for what has
    no single address (a template deduced from the arguments, default arguments). The call's
    copies of the arguments are the simulator's, unchecked (CUSIM_KERNEL_CALL, unmodified.hpp)."""
    probe = (f"[=](auto cusim_t) -> decltype(::cusim::detail::kernel_pointer<decltype(cusim_t)>({kernel})) "
             f"{{ return ::cusim::detail::kernel_pointer<decltype(cusim_t)>({kernel}); }}")
    return probe, f"[=](auto&... cusim_a) CUSIM_KERNEL_CALL {{ {kernel}(cusim_a...); }}"


def array_name_registration(variable, name, space, label=None):
    """A static `variable` whose initialisation tells the runtime that arrays named `name` live
    in memory space `space` (shared, constant, global), for the bounds faults' reports. `label`:
    the string literal naming it, if not "name" (`#n` in a macro whose parameter n names it)."""
    label = label or f'"{name}"'
    return (f"[[maybe_unused]] static const bool {variable} = "
            f"::cusim::detail::name_array({label}, ::cusim::memory_space::{space});")


class _Rewriter(Cursor):
    def __init__(self, tokens, path, phases=True, only_phases=False, cuda_arch=DEFAULT_CUDA_ARCH):
        super().__init__(tokens)
        self.cuda_arch = cuda_arch  # __CUDA_ARCH__ in device code
        # #if index -> the directives of its chain (conditional_chains), for those testing __CUDA_ARCH__
        self.chains = None if any(tok.kind == "pp" and "__CUDA_ARCH__" in tok.text for tok in tokens) else {}
        self.device_bodies = []  # (open, close, kind) of every device or host-device function body
        self.hd_directives = set()  # directives testing __CUDA_ARCH__ in __host__ __device__ bodies
        self.path = path
        self.phases = phases  # add the phased form of kernels (phases.py)
        self.only_phases = only_phases  # nothing but the phased forms (a source written against cusim.hpp)
        self.functions = []  # (name, body {, body }, parameters (parameters()), whether __global__) of every function
        self.out = [tok.text for tok in tokens]  # replacement text per token
        self.keys = 0
        # Namespace-scope __shared__ variables declared so far: name -> what binds the block's
        # variable at the top of a device function naming it (inject_shared).
        self.ns_shared = {}
        self.ns_paths = {}  # name -> the names of the namespaces it is declared in
        self.bound_shared = {}  # the { of a body -> the namespace-scope __shared__ names bound there
        self.macro_shared = {}  # macro -> the namespace-scope __shared__ names its body uses
        self.toplevel_shared_macros = set()  # macros whose body declares __shared__ outside braces
        self.macro_params = None  # in a #define body's rewriter: the macro's parameters
        self.floor = -1  # in a #define body's rewriter: the last token before the macro's body
        self.registrations = 0  # kernels and arrays registered so far (their variables' names)
        self.host_marked = set()  # first tokens of the host function definitions marked (mark_host_function)
        self.device_macros = None  # this file's macros whose definition says __device__ or __global__
        # In those names too, since one translation unit may include several rewritten headers.
        self.tag = hashlib.blake2s(path.encode("utf-8", "surrogateescape"), digest_size=4).hexdigest()

    def fail(self, i, construct, why):
        line = self.t[i].line if 0 <= i < len(self.t) else (self.t[-1].line if self.t else 1)
        raise RewriteError(self.path, line, construct, why)

    def angle_backward(self, i):
        """i is at the > closing a template argument list: the index of its <, or -1."""
        return self.angle_partner(i, -1, (")", "]", "}"), _ends_declaration)

    # -- <<<...>>>
    def kernel_start(self, i):
        """i is the last token of the kernel expression: the index of its first token, or -1."""
        tok = self.t[i]
        if tok.kind == "punct" and tok.text == ")":
            start = self.match_backward(i)
            if start < 0:
                return -1
            before = self.prev_sig(start)
            if before >= 0 and (self.t[before].kind in ("id", "num", "str", "chr") and
                                self.t[before].text not in _KEYWORDS_BEFORE_EXPR or
                                self.is_punct(before, ">") or self.is_punct(before, "]")):
                return -1  # a call or cast producing the kernel: not an id-expression
            return start
        while True:
            if tok.kind == "punct" and tok.text == ">":
                lt = self.angle_backward(i)
                if lt < 0:
                    return -1
                i = self.prev_sig(lt)
                if i < 0 or self.t[i].kind != "id":
                    return -1
            elif tok.kind != "id" or tok.text in _KEYWORDS_BEFORE_EXPR or tok.text == "operator":
                return -1
            start = i
            if start > 0 and self.prev_sig(start) >= 0 and self.t[self.prev_sig(start)].text == "template":
                start = self.prev_sig(start)
            p = self.prev_sig(start)
            if p >= 0 and self.t[p].kind == "punct" and self.t[p].text in ("::", ".", "->"):
                q = self.prev_sig(p)
                if self.t[p].text == "::" and (q < 0 or not (self.t[q].kind == "id" or self.is_punct(q, ">"))):
                    return p  # a leading :: (the global namespace)
                if q < 0:
                    return -1
                if self.t[p].text != "::" and self.t[q].kind == "punct" and self.t[q].text in (")", "]"):
                    q = self.match_backward(q)
                    if q < 0:
                        return -1
                    return self.kernel_start_postfix(q)
                i = q
                tok = self.t[i]
                continue
            return start

    def kernel_start_postfix(self, i):
        """i is at the ( or [ of a group that ends a member access's object expression."""
        p = self.prev_sig(i)
        if p >= 0 and (self.t[p].kind == "id" or self.is_punct(p, ")") or self.is_punct(p, "]")):
            return self.kernel_start(p) if self.t[p].kind != "id" or self.is_punct(i, "[") else -1
        return i

    def rewrite_launch(self, i, hi, in_macro):
        construct = "the kernel launch <<<...>>>"
        before = self.prev_sig(i)
        if before >= 0 and self.t[before].text == "operator":
            return  # operator<<<T>: an explicit template argument for operator<<
        if before < 0:
            self.fail(i, construct, "no kernel expression before <<<")
        start = self.kernel_start(before)
        if start < 0:
            self.fail(i, construct, "the kernel expression before <<< is not a name (ns::kernel, "
                      "kernel<T, N>) or a parenthesised expression")
        # The configuration: up to the first >>> outside brackets.
        j = i + 3
        stack = []
        close = -1
        while j < hi:
            tok = self.t[j]
            if tok.kind == "punct":
                if tok.text in OPEN:
                    stack.append(OPEN[tok.text])
                elif tok.text in CLOSE:
                    if not stack or stack.pop() != tok.text:
                        self.fail(j, construct, f"unbalanced '{tok.text}' in the launch configuration")
                elif not stack and self.adjacent(j, 3, ">"):
                    close = j
                    break
                elif not stack and tok.text == ";":
                    break
            j += 1
        if close < 0:
            self.fail(i, construct, "no >>> closes the launch configuration")
        if self.next_sig(i + 2) == close:
            self.fail(i, construct, "the launch configuration is empty")
        paren = self.next_sig(close + 2)
        if paren >= hi or not self.is_punct(paren, "("):
            self.fail(close, construct, "no argument list '(...)' follows >>>")
        if self.match_forward(paren) < 0:
            self.fail(paren, construct, "the argument list is not closed")
        # The kernel moves behind the configuration, twice: a probe that yields its address when K
        # names one function (so the launch knows the kernel and converts the arguments to its
        # parameters), and a call K(args...) per thread for what has no single address (a
        # template deduced from the arguments, default arguments).
        probe, call = probe_and_call(self.text_between(start, before))
        empty = self.next_sig(paren) == self.match_forward(paren)
        self.replace_span(start, before, "::cusim::detail::chevron(")
        for m in (i, i + 1, i + 2, close + 1, close + 2):
            self.out[m] = ""
        self.out[close] = ")"
        self.out[paren] = "(" + probe + ", " + call + ("" if empty else ", ")

    # -- cudaLaunchKernel((void*)k, ...)
    def rewrite_launch_kernel(self, i):
        """i is `cudaLaunchKernel` or `cudaLaunchCooperativeKernel` in a host function. Where the
        call's first argument is a kernel's name, cast or not (`(void*)k`, `(const void*)&k`,
        `reinterpret_cast<void*>(k<128>)`, `ns::k`), the call becomes
        `::cusim::detail::launch_kernel_named<cooperative>(probe of k, call of k, first, ...)`
        (include/cusim/backend/sim/unmodified.hpp), which compiles the kernel into the loop over a
        block's threads as `<<<>>>` does; anything else stays the C API's call by address."""
        p = self.prev_sig(i)
        head = i
        if p >= 0 and self.is_punct(p, "::"):
            q = self.prev_sig(p)
            if q >= 0 and (self.t[q].kind == "id" or self.is_punct(q, ">")):
                return  # a qualified name: not the runtime's function
            head = p
        elif p >= 0 and (self.is_punct(p, ".") or self.is_punct(p, "->") or
                         self.t[p].kind == "id" and self.t[p].text not in _KEYWORDS_BEFORE_EXPR):
            return  # a member, or a declaration
        paren = self.next_sig(i)
        if paren >= len(self.t) or not self.is_punct(paren, "("):
            return
        end = self.match_forward(paren)
        if end < 0:
            return
        k = self.next_sig(paren)
        group = -1  # the ) closing a cast's parenthesised operand
        if self.is_punct(k, "("):  # (void*), (const void *)
            close = self.match_forward(k)
            if close < 0 or close == self.next_sig(k) or any(
                    not (self.t[m].kind == "id" and self.t[m].text in ("void", "const") or self.is_punct(m, "*"))
                    for m in range(k + 1, close) if self.t[m].kind not in TRIVIA):
                return
            k = self.next_sig(close)
        elif self.t[k].kind == "id" and self.t[k].text in ("reinterpret_cast", "static_cast"):
            lt = self.next_sig(k)
            gt = self.template_close(lt, end) if self.is_punct(lt, "<") else -1
            if gt < 0 or not self.is_punct(self.next_sig(gt), "("):
                return
            group = self.match_forward(self.next_sig(gt))
            k = self.next_sig(self.next_sig(gt))
        if self.is_punct(k, "&"):
            k = self.next_sig(k)
        first = k
        if self.is_punct(k, "::"):
            k = self.next_sig(k)
        while True:
            if self.t[k].kind != "id" or self.t[k].text in _NOT_AN_OPERAND:
                return
            k = self.next_sig(k)
            if self.is_punct(k, "<"):
                gt = self.template_close(k, end)
                if gt < 0:
                    return
                k = self.next_sig(gt)
            if not self.is_punct(k, "::"):
                break
            k = self.next_sig(k)
        last = self.prev_sig(k)
        if group >= 0:
            if k != group:
                return
            k = self.next_sig(k)
        if not self.is_punct(k, ","):
            return
        probe, call = probe_and_call(self.text_between(first, last))
        cooperative = "true" if self.t[i].text == "cudaLaunchCooperativeKernel" else "false"
        for m in range(head, i):
            self.out[m] = ""
        self.out[i] = f"::cusim::detail::launch_kernel_named<{cooperative}>"
        self.out[paren] = "(" + probe + ", " + call + ", "

    # -- __shared__
    def statement_start(self, i):
        """The first token of the declaration holding the __shared__ at i, or -1."""
        j = self.prev_sig(i)
        start = i
        while j > self.floor:
            tok = self.t[j]
            if tok.kind == "id" and tok.text in _DECL_SPECIFIERS:
                start = j
                j = self.prev_sig(j)
                continue
            # The type may come before __shared__ (`extern double __shared__ s[];`).
            if (tok.kind == "id" and tok.text not in _KEYWORDS_BEFORE_EXPR) or self.is_punct(j, "::"):
                start = j
                j = self.prev_sig(j)
                continue
            if self.is_punct(j, ">"):
                lt = self.angle_backward(j)
                if lt > 0 and self.t[self.prev_sig(lt)].kind == "id":
                    start = self.prev_sig(lt)
                    j = self.prev_sig(start)
                    continue
            if self.is_punct(j, ")"):
                k = self.match_backward(j)
                head = self.prev_sig(k) if k >= 0 else -1
                if head >= 0 and self.t[head].text in _ALIGN_WORDS:
                    start = head
                    j = self.prev_sig(head)
                    continue
                if head >= 0 and self.t[head].text == "__attribute__":
                    start = head
                    j = self.prev_sig(head)
                    continue
            break
        if j <= self.floor or (self.t[j].kind == "punct" and self.t[j].text in (";", "{", "}", ":")) or \
                self.t[j].kind == "pp":
            return start
        return -1

    def rewrite_shared(self, i, in_function, namespace=None):
        """i is a __shared__: its declaration becomes the binding of the block's variable (in a
        function), or (at namespace scope: `namespace` is the enclosing namespaces' names, None at
        class scope) an object that binds it, which the device functions naming it bind at their
        top (inject_shared). Returns the index of the declaration's ;."""
        construct = "the __shared__ declaration"
        start = self.statement_start(i)
        if start < 0:
            self.fail(i, construct, "it does not start a declaration statement")
        # The statement's end, and its top-level pieces.
        j = i
        stack = []
        end = -1
        while j < len(self.t):
            tok = self.t[j]
            if tok.kind == "punct":
                if tok.text in OPEN:
                    stack.append(OPEN[tok.text])
                elif tok.text in CLOSE:
                    if not stack or stack.pop() != tok.text:
                        break
                elif tok.text == ";" and not stack:
                    end = j
                    break
            j += 1
        if end < 0 and self.macro_params is not None and j == len(self.t):
            end = j  # `#define DECLARE(n) __shared__ float n[4]`: its use supplies the ;
        if end < 0:
            self.fail(i, construct, "no ';' ends it")
        sig = [k for k in range(start, end) if self.t[k].kind not in TRIVIA]
        # __shared__ among the other specifiers, wherever it stands, goes first.
        at = next(n for n, k in enumerate(sig) if self.t[k].text == "__shared__")
        sig = [sig[at]] + sig[:at] + sig[at + 1:]
        words = [self.t[k].text for k in sig]
        if "cusim" in words[:words.index("__shared__") + 3] and "shared_array" in words:
            return end  # cusim's own checked form: `__shared__ cusim::shared_array<T, N> s;`
        if not in_function and namespace is None:
            self.fail(i, construct, "a __shared__ variable at class scope has no rewrite (CUDA allows none)")
        # Specifiers: drop storage words, keep cv, take the alignment.
        extern = False
        align = None
        cv = []
        k = 0
        while k < len(sig):
            tok = self.t[sig[k]]
            if tok.kind == "id" and tok.text in ("static", "__shared__", "__device__", "register", "inline"):
                k += 1
            elif tok.kind == "id" and tok.text == "extern":
                extern = True
                k += 1
            elif tok.kind == "id" and tok.text in ("volatile", "const"):
                cv.append(tok.text)
                k += 1
            elif tok.kind == "id" and tok.text in _ALIGN_WORDS + ("__attribute__",):
                align, k = self.take_alignment(sig, k, construct)
            else:
                break
        rest = sig[k:]
        if not rest:
            self.fail(i, construct, "no type and name follow __shared__")
        declarators = self.split_declarators(rest, construct, i)
        base = None
        pieces = []
        for n, decl in enumerate(declarators):
            typ, ptr, name, dims, decl_align = self.parse_declarator(decl, n == 0, construct, i)
            if n == 0:
                base = typ
            if decl_align is not None:
                align = decl_align
            full_type = " ".join(cv + [base]) + ptr
            qualified = "".join(f"::{n}" for n in namespace or [] if n) + f"::{name}"
            if extern:
                if len(dims) != 1 or dims[0] != "[]":
                    self.fail(i, construct, "an extern __shared__ array is declared as `extern __shared__ T name[];`")
                bind = f"{full_type}* const {name} = ::cusim::detail::dynamic_shared_pointer<{full_type}>();"
                if in_function:
                    pieces.append(bind)
                else:
                    pieces.append(f"[[maybe_unused]] static constexpr ::cusim::detail::namespace_dynamic_shared<"
                                  f"{full_type}> {name}{{}};")
                    self.ns_shared[name] = bind
                    self.ns_paths[name] = [n for n in namespace if n]
                continue
            if any(d == "[]" for d in dims):
                self.fail(i, construct, f"'{name}' has an array bound missing (only extern __shared__ arrays may)")
            self.keys += 1
            key = f"cusim_shared_key_{self.keys}"
            named = f"{key}_named"
            label = f'"{name}"'
            if self.macro_params is not None:  # one key per expansion: the name is part of it
                key = f"{key}_ ## {name}"
                named = f"{key} ## _named"
                if name in self.macro_params:
                    label = f"#{name}"
            targs = full_type + "".join(dims)
            if align is not None:
                targs += f", {align}"
            if in_function:
                pieces.append(f"static constexpr char {key} = 0; auto& {name} = ::cusim::detail::shared_variable<{targs}>("
                              f"&{key}, ::cusim::detail::source_location::current());")
            else:
                named = f"cusim_shared_{self.tag}_{self.keys}_named"
                pieces.append(f"[[maybe_unused]] static const ::cusim::detail::namespace_shared<{targs}> {name}"
                              f"{{::cusim::detail::source_location::current()}};")
                self.ns_shared[name] = f"auto& {name} = {qualified}.get();"
                self.ns_paths[name] = [n for n in namespace if n]
            if dims:  # a bounds fault on it names shared memory (array_bounds.cpp)
                pieces.append(array_name_registration(named, name, "shared", label))
        self.replace_span(start, min(end, len(self.t) - 1), " ".join(pieces))
        return end

    def take_alignment(self, sig, k, construct):
        word = self.t[sig[k]].text
        if k + 1 >= len(sig) or not self.is_punct(sig[k + 1], "("):
            self.fail(sig[k], construct, f"'{word}' without an argument")
        close = self.match_forward(sig[k + 1])
        inner = "".join(self.t[m].text for m in range(sig[k + 1] + 1, close))
        if word == "__attribute__":
            m = re.fullmatch(r"\(\s*aligned\s*\((.*)\)\s*\)", inner.strip(), re.S)
            if not m:
                self.fail(sig[k], construct, f"the attribute '__attribute__({inner.strip()})' has no rewrite")
            inner = m.group(1)
        while k < len(sig) and sig[k] <= close:
            k += 1
        return inner.strip(), k

    def split_declarators(self, rest, construct, at):
        """rest: significant token indices after the specifiers, up to ';'. Split at top-level commas
        (commas inside template arguments of the type do not count)."""
        out = [[]]
        depth = 0
        angle = 0
        k = 0
        while k < len(rest):
            idx = rest[k]
            tok = self.t[idx]
            if tok.kind == "punct" and tok.text in OPEN:
                close = self.match_forward(idx)
                while k < len(rest) and rest[k] <= close:
                    out[-1].append(rest[k])
                    k += 1
                continue
            if tok.kind == "punct" and tok.text == "<" and k > 0 and self.t[rest[k - 1]].kind == "id":
                angle += 1
            elif tok.kind == "punct" and tok.text == ">" and angle > 0:
                angle -= 1
            elif tok.kind == "punct" and tok.text == "=" and angle == 0:
                self.fail(idx, construct, "a __shared__ variable cannot have an initializer")
            elif tok.kind == "punct" and tok.text == "," and angle == 0 and depth == 0:
                out.append([])
                k += 1
                continue
            out[-1].append(idx)
            k += 1
        if any(not d for d in out):
            self.fail(at, construct, "an empty declarator")
        return out

    def parse_declarator(self, decl, first, construct, at):
        """Returns (type text, pointer operators, name, [array suffixes], alignment or None)."""
        align = None
        # Trailing attributes: `float s[4] __attribute__((aligned(16)))`, `alignas` after the name.
        while len(decl) >= 2 and self.is_punct(decl[-1], ")"):
            open_ = self.match_backward(decl[-1])
            pos = decl.index(open_) if open_ in decl else -1
            if pos > 0 and self.t[decl[pos - 1]].text in _ALIGN_WORDS + ("__attribute__",):
                align, _ = self.take_alignment(decl, pos - 1, construct)
                decl = decl[:pos - 1]
            else:
                self.fail(decl[-1], construct, "a function or function pointer declarator has no rewrite")
        dims = []
        while decl and self.is_punct(decl[-1], "]"):
            open_ = self.match_backward(decl[-1])
            if open_ not in decl:
                self.fail(decl[-1], construct, "unbalanced brackets")
            pos = decl.index(open_)
            dims.insert(0, "[" + "".join(self.t[m].text for m in range(open_ + 1, decl[-1])).strip() + "]"
                        if decl[-1] != self.next_sig(open_) else "[]")
            decl = decl[:pos]
        if not decl or self.t[decl[-1]].kind != "id":
            self.fail(at, construct, "no variable name found (supported: `__shared__ T name[N]...;`)")
        name = self.t[decl[-1]].text
        decl = decl[:-1]
        # Pointer operators (and their cv) belong to this declarator.
        ptr_start = len(decl)
        while ptr_start > 0 and (self.t[decl[ptr_start - 1]].text in ("*", "&", "&&", "__restrict__") or
                                 (self.t[decl[ptr_start - 1]].text in ("const", "volatile") and ptr_start > 1 and
                                  self.t[decl[ptr_start - 2]].text in ("*", "const", "volatile", "__restrict__"))):
            ptr_start -= 1
        ptr = "".join(self.t[m].text for m in decl[ptr_start:])
        if "&" in ptr:
            self.fail(at, construct, "a __shared__ reference is not a variable")
        type_tokens = decl[:ptr_start]
        if first:
            if not type_tokens:
                self.fail(at, construct, f"no type before '{name}'")
            if any(self.is_punct(m, "{") for m in type_tokens):
                self.fail(at, construct, "a class defined in the declaration has no rewrite")
            typ = self.text_between(type_tokens[0], type_tokens[-1])
        else:
            if type_tokens:
                self.fail(at, construct, "unexpected tokens before the name of a later declarator")
            typ = None
        return typ, ptr, name, dims, align

    def text_between(self, a, b):
        """Source text of tokens a..b with comments dropped and whitespace folded."""
        parts = []
        for m in range(a, b + 1):
            tok = self.t[m]
            if tok.kind in TRIVIA:
                if parts and parts[-1] != " ":
                    parts.append(" ")
            else:
                parts.append(tok.text)
        return "".join(parts).strip()

    def replace_span(self, a, b, text):
        """Tokens a..b become text on a's line, followed by as many newlines as the span held
        (continued lines in a #define body)."""
        newlines = sum(self.t[m].text.count("\n") for m in range(a, b + 1))
        for m in range(a, b + 1):
            self.out[m] = ""
        self.out[a] = text + ("\\\n" if self.macro_params is not None else "\n") * newlines

    # -- the walk
    def run(self):
        # Per open brace: "f" inside a function (or lambda) body, "ns" a namespace or extern "C"
        # block, "other" a class body or an initializer.
        # Each scope is (what, kind, names): kind is the function's ("device", "hd" or "host", see
        # function_kind; a lambda's is its enclosing function's), None outside functions; names
        # a namespace's (namespace_names), None for the others.
        scopes = []
        i = 0
        n = len(self.t)
        while i < n:
            tok = self.t[i]
            in_function = bool(scopes) and scopes[-1][0] == "f"
            kind = scopes[-1][1] if scopes else None
            if tok.kind == "pp":
                self.rewrite_directive(i)
                self.cuda_arch_directive(i, kind if in_function else None)
            elif tok.kind == "punct" and tok.text == "{":
                if in_function or self.opens_function(i):
                    if not in_function:
                        self.register_kernel(i)
                        kind = self.function_kind(i)
                        if kind == "host":
                            self.mark_host_function(i)
                        close = self.match_forward(i)
                        if kind != "host" and close > 0:
                            self.device_bodies.append((i, close, kind))
                        if kind == "device" and self.ns_shared:
                            self.inject_shared(i, True)
                    elif kind == "device" and self.ns_shared and self.opens_lambda(i):
                        self.inject_shared(i, False)
                    elif kind == "host":
                        self.mark_host_lambda(i)
                    scopes.append(("f", kind, None))
                elif self.opens_namespace(i):
                    scopes.append(("ns", None, self.namespace_names(i)))
                else:
                    scopes.append(("other", kind if in_function else None, None))
            elif tok.kind == "punct" and tok.text == "}":
                if scopes:
                    scopes.pop()
            elif tok.kind == "id" and tok.text in _ASM and in_function and kind != "host":
                i = self.rewrite_asm(i)
            elif tok.kind == "id" and tok.text == "__CUDA_ARCH__" and in_function and kind != "host":
                self.out[i] = str(self.cuda_arch)
            elif tok.kind == "id" and tok.text == "__shared__":
                at_namespace = all(s[0] == "ns" for s in scopes)
                i = self.rewrite_shared(i, in_function, [n for s in scopes for n in s[2]] if at_namespace else None)
            elif tok.kind == "id" and tok.text in self.toplevel_shared_macros and not in_function:
                self.fail(i, "the __shared__ declaration", f"macro '{tok.text}', whose definition declares a "
                          "__shared__ variable, is used outside a function body")
            elif tok.kind == "id" and tok.text in ("__constant__", "__device__") and all(s[0] == "ns" for s in scopes):
                i = self.name_global_arrays(i, "constant" if tok.text == "__constant__" else "global")
            elif self.adjacent(i, 3, "<"):
                self.rewrite_launch(i, n, False)
                i += 2
            elif tok.kind == "id" and tok.text in _LAUNCH_KERNEL and in_function and kind == "host":
                self.rewrite_launch_kernel(i)
            i += 1
        if self.only_phases:
            self.out = [tok.text for tok in self.t]
        else:
            self.rewrite_device_operations()
            self.host_device_bodies()
        if self.phases:
            self.add_phases()
        return "".join(self.out)

    # -- __CUDA_ARCH__
    def function_kind(self, i):
        """For the { at i opening a function body outside any function: "device" for a __global__
        or __device__ function, "hd" for a __host__ __device__ one, "host" otherwise."""
        start = self.declaration_start(i)
        words = {self.t[k].text for k in range(max(start, 0), i) if self.t[k].kind == "id"}
        if "__global__" in words or ("__device__" in words and "__host__" not in words):
            return "device"
        return "hd" if "__device__" in words else "host"

    def mark_host_function(self, i):
        """The { at i opens a host function's body (function_kind "host"): its definition gets
        HOST_CODE_MACRO in front (after `template <...>`, `extern "C"`, an access specifier and
        `[[...]]` attributes), which the driver defines as the attribute that leaves the function
        out of the checks' instrumentation (docs/driver.md, CUSIM_NVCC_HOST_CHECKS); lambdas in it:
        mark_host_lambda. Left as they are, instrumented: namespace-scope lambdas, constexpr and
        consteval functions (device code may call them,
        --expt-relaxed-constexpr), constrained templates, and declarations naming a macro that may
        stand for __device__ (one of this file's defined with __device__ or __global__ in it, or a
        word spelled like a macro: HOST_DEVICE, QUALIFIERS)."""
        start = self.declaration_start(i)
        if start < 0 or start in self.host_marked or self.opens_lambda(i):
            return
        name, _ = self.function_name(start, i)
        if name is None:
            return
        if self.device_macros is None:
            self.device_macros = set()
            for tok in self.t:
                m = tok.kind == "pp" and re.match(r"#\s*define\s+(\w+)", tok.text)
                if m and re.search(r"\b__(device|global)__\b", tok.text):
                    self.device_macros.add(m.group(1))
        for k in range(start, i):
            tok = self.t[k]
            if tok.kind == "pp":
                return
            if tok.kind == "id" and (tok.text in ("constexpr", "consteval", "requires") or tok.text in self.device_macros
                                     or (_MACRO_LIKE.fullmatch(tok.text) and tok.text not in _HOST_MACROS)):
                return
        k = start
        while k < i:
            if self.t[k].kind == "id" and self.t[k].text == "template":
                lt = self.next_sig(k)
                gt = self.angle_partner(lt, 1, ("(", "[")) if lt < i and self.is_punct(lt, "<") else -1
                if gt < 0:
                    return
                k = self.next_sig(gt)
            elif self.t[k].kind == "id" and self.t[k].text == "extern" and self.t[self.next_sig(k)].kind == "str":
                k = self.next_sig(self.next_sig(k))
            elif self.t[k].kind == "id" and self.t[k].text in ("public", "private", "protected") and \
                    self.is_punct(self.next_sig(k), ":"):
                k = self.next_sig(self.next_sig(k))
            elif self.is_punct(k, "[") and self.is_punct(self.next_sig(k), "["):
                close = self.match_forward(k)
                if close < 0:
                    return
                k = self.next_sig(close)
            else:
                break
        if k >= i:
            return
        self.host_marked.add(start)
        self.place_host_mark(k)

    def place_host_mark(self, k):
        """HOST_CODE_MACRO before the declaration going on at token k, where it moves no column of
        k's line (a compile error's column stays the source's): at the end of the code before it on
        an earlier line, or on a blank line or before a comment between a directive (or the file's
        start) and k. With the code before it on k's own line (`extern "C" void f()`, a one-line
        member), in front of k: the rest of that line moves. Right after a directive, nowhere: the
        function stays instrumented."""
        p = self.prev_sig(k)
        between = range(p + 1, k)
        newlines = [m for m in between if self.t[m].kind == "nl"]
        if not newlines:
            self.out[k] = HOST_CODE_MACRO + " " + self.out[k]
            return
        if p >= 0 and self.t[p].kind != "pp":
            self.out[p] += " " + HOST_CODE_MACRO
            return
        line_empty = p < 0
        for m in between:
            kind = self.t[m].kind
            if kind == "comment":
                self.out[m] = HOST_CODE_MACRO + " " + self.out[m]
                return
            if kind == "nl":
                if line_empty:
                    self.out[m] = HOST_CODE_MACRO + self.out[m]
                    return
                line_empty = True

    def mark_host_lambda(self, i):
        """The { at i, in a host function, opens a lambda's body `[...] {` or `[...](params) {`: the
        lambda gets HOST_CODE_MACRO after its parameters (`()` added where it has none), since the
        attribute of the function around it does not reach it. With `mutable`, `constexpr`,
        `noexcept`, `-> T`, a template parameter list, or __device__ (an extended lambda), it stays
        as it is, instrumented: GCC and Clang take the attribute in different places there."""
        j = self.prev_sig(i)
        close = j
        if j >= 0 and self.is_punct(j, ")"):
            k = self.match_backward(j)
            j = self.prev_sig(k) if k >= 0 else -1
        if j < 0 or not self.is_punct(j, "]"):
            return
        lb = self.match_backward(j)
        if lb < 0 or self.is_punct(self.next_sig(lb), "["):
            return  # [[attribute]]
        before = self.prev_sig(lb)
        if before >= 0 and (self.t[before].kind in ("id", "num", "str", "chr") and
                            self.t[before].text not in _KEYWORDS_BEFORE_EXPR or
                            self.is_punct(before, ")") or self.is_punct(before, "]")):
            return  # a subscript, not a lambda's introducer
        if close == j:
            self.out[j] += " () " + HOST_CODE_MACRO
        else:
            self.out[close] += " " + HOST_CODE_MACRO

    def conditional_chains(self):
        """#if/#ifdef/#ifndef index -> the indices of its chain's directives (#elif..., #else, #endif)."""
        chains = {}
        stack = []
        for k, tok in enumerate(self.t):
            if tok.kind != "pp":
                continue
            what = directive_kind(tok.text)
            if what in ("if", "ifdef", "ifndef"):
                chains[k] = [k]
                stack.append(k)
            elif what is not None and stack:
                chains[stack[-1]].append(k)
                if what == "endif":
                    stack.pop()
        return chains

    def cuda_arch_directive(self, i, kind):
        """i is a directive; `kind` the function it is in (function_kind), None outside functions.
        A conditional chain (#if ... #endif) testing __CUDA_ARCH__ is evaluated as device code sees
        it (device_view) in a __global__, __device__ or __host__ __device__ function, as it is
        (__CUDA_ARCH__ undefined) in a host function, and outside functions as device code sees it
        when its code declares something __device__ or __global__, as it is otherwise. Each chain
        is decided at its #if, for all its directives."""
        if directive_kind(self.t[i].text) not in ("if", "ifdef", "ifndef"):
            return
        if self.chains is None:
            self.chains = self.conditional_chains()
        chain = self.chains.get(i, [i])
        tests = [k for k in chain if directive_kind(self.t[k].text) not in ("else", "endif")]
        if not any("__CUDA_ARCH__" in self.t[k].text for k in tests):
            return
        if kind == "hd":
            self.hd_directives.update(k for k in tests if "__CUDA_ARCH__" in self.t[k].text)
            return  # both views: host_device_bodies
        if kind is None:
            device = any(self.t[m].kind == "id" and self.t[m].text in ("__device__", "__global__")
                         for m in range(i + 1, chain[-1]))
        else:
            device = kind != "host"
        if device:
            for k in tests:
                self.out[k] = device_view(self.out[k], self.cuda_arch)

    def host_device_bodies(self):
        """A __host__ __device__ function whose body tests __CUDA_ARCH__ gets the body twice, as
        nvcc's device and host passes see it: `{ if (in a kernel thread) { device view } else {
        body } }`, the device view's lines placed by #line directives on their own lines (the
        rewrite's one other addition of lines, after the phases). With a goto (duplicated labels),
        the body has the device view only."""
        for lo, hi, kind in self.device_bodies:
            inside = [k for k in self.hd_directives if lo < k < hi]
            if kind != "hd" or not inside:
                continue
            if any(self.t[k].kind == "id" and self.t[k].text == "goto" for k in range(lo, hi)):
                for k in inside:
                    self.out[k] = device_view(self.out[k], self.cuda_arch)
                continue
            views = set(inside)
            copy = "".join(device_view(self.out[k], self.cuda_arch) if k in views else self.out[k]
                           for k in range(lo + 1, hi))
            first = self.t[lo + 1]
            column = self.column_after(lo)
            self.out[lo] += (" if (!__builtin_is_constant_evaluated() && ::cusim::detail::current_thread_ != nullptr) {\n"
                             + line_directive(first.line, self.path) + " " * column + copy +
                             "\n} else {\n" + line_directive(self.t[lo].line, self.path) + " " * column)
            self.out[hi] = "}" + self.out[hi]

    def column_after(self, i):
        """The number of characters of token i's line up to and including it (original text)."""
        width = len(self.t[i].text)
        k = i - 1
        while k >= 0 and "\n" not in self.t[k].text:
            width += len(self.t[k].text)
            k -= 1
        if k >= 0:
            width += len(self.t[k].text) - self.t[k].text.rindex("\n") - 1
        return width

    # -- device code: float-to-integer casts and shifts (include/cusim/backend/sim/gpu_defined.hpp)
    # -- inline PTX
    def rewrite_asm(self, i):
        """`asm [volatile] ("template" : outputs : inputs [: clobbers]);` in device code becomes
        the C++ of its instructions (ptx.py) on the operands' expressions, on the same lines.
        Returns the index of the statement's closing parenthesis."""
        k = self.next_sig(i)
        while k is not None and self.t[k].kind == "id" and self.t[k].text in ("volatile", "__volatile__", "inline"):
            k = self.next_sig(k)
        if k is None or not self.is_punct(k, "("):
            return i
        close = self.match_forward(k)
        if close < 0:
            self.fail(i, "the asm statement", "its parenthesis does not close")
        groups = [[]]  # the sections between top-level ':', each a list of comma-separated token runs
        run = []
        depth = 0
        for m in range(k + 1, close):
            tok = self.t[m]
            if tok.kind == "pp":
                self.fail(m, "the asm statement", "a preprocessor line inside it")
            if tok.kind in TRIVIA:
                if run:
                    run.append(m)
                continue
            if tok.kind == "punct" and tok.text in OPEN:
                depth += 1
            elif tok.kind == "punct" and tok.text in CLOSE:
                depth -= 1
            if depth == 0 and tok.kind == "punct" and tok.text in (":", ","):
                groups[-1].append(run)
                run = []
                if tok.text == ":":
                    groups.append([])
                continue
            run.append(m)
        groups[-1].append(run)
        template_tokens = [m for m in groups[0][0] if self.t[m].kind not in TRIVIA]
        if not template_tokens or any(self.t[m].kind != "str" for m in template_tokens):
            self.fail(i, "the asm statement", "its template is not a string literal")
        template = "".join(ptx.unescape(self.t[m].text) for m in template_tokens)
        operands = []
        for section in groups[1:3]:
            for run in section:
                sig = [m for m in run if self.t[m].kind not in TRIVIA]
                if not sig:
                    continue
                if self.t[sig[0]].kind != "str" or len(sig) < 3 or not self.is_punct(sig[1], "(") or \
                        self.match_forward(sig[1]) != sig[-1]:
                    self.fail(sig[0], "the asm statement", "an operand is not \"constraint\"(expression)")
                operands.append((ptx.unescape(self.t[sig[0]].text), self.text_between(sig[1] + 1, sig[-1] - 1)))
        try:
            text = ptx.translate(template, operands)
        except ptx.PtxError as e:
            self.fail(i, "inline PTX", f"{e} is not one the simulator runs (tools/nvcc/ptx.py lists them)")
        self.replace_span(i, close, text)
        return close

    def rewrite_device_operations(self):
        """In every __global__, __device__ and __host__ __device__ function body: integer casts
        become ::cusim::detail::gpu_cast<T>(x) and shifts gpu_shl/gpu_shr(a, b) (compound:
        gpu_shl_assign/gpu_shr_assign(a, b)), which give the GPU's value where C++ leaves the
        operation undefined. Only insertions and replacements on the operators' own tokens: every
        token stays on its line. An operand whose extent is not certain (a preprocessor line inside
        it, a cast to a type the rewrite cannot tell from an expression, `<` that may open a
        template before `>>`) leaves the expression as it is. Tokens an earlier rewrite replaced
        (`__shared__` declarations, launches) are left alone."""
        if not self.device_bodies:
            return
        self.protected = {k for k, tok in enumerate(self.t) if self.out[k] != tok.text}
        self.done = set()  # the tokens of the casts and shift operators rewritten here
        self.prefix = {}
        self.suffix = {}
        for lo, hi, _ in self.device_bodies:
            saved = self.out[lo:hi + 1]
            try:
                self.device_operations_in(lo, hi)
            except (IndexError, RecursionError):  # a construct this reading cannot follow: left as it is
                self.out[lo:hi + 1] = saved
                for table in (self.prefix, self.suffix):
                    for k in [k for k in table if lo <= k <= hi]:
                        del table[k]
        for k, text in self.prefix.items():
            self.out[k] = text + self.out[k]
        for k, text in self.suffix.items():
            self.out[k] = self.out[k] + text

    def device_operations_in(self, lo, hi):
        """The casts, then the shifts, of the body from the { at lo to the } at hi."""
        for k in range(lo + 1, hi):
            tok = self.t[k]
            if k in self.protected or k in self.done:
                continue
            if tok.kind == "punct" and tok.text == "(":
                self.c_style_cast(k, lo, hi)
            elif tok.kind == "id" and tok.text == "static_cast":
                self.static_cast(k, hi)
            elif tok.kind == "id" and (tok.text in _INT_TYPEDEFS or tok.text in _INT_BUILTIN):
                self.functional_cast(k, lo, hi)
            elif tok.kind == "id" and tok.text in _DEVICE_HEAP:
                self.device_heap_call(k)
        for k in range(lo + 1, hi):
            if self.t[k].kind == "punct" and self.t[k].text in "<>" and k not in self.protected and k not in self.done:
                self.shift(k, lo, hi)

    def device_heap_call(self, k):
        """`malloc(n)` and `free(p)` (or `::malloc`, `std::malloc`) called in device code take the
        device heap: ::cusim::detail::device_malloc / device_free (cudaLimitMallocHeapSize)."""
        n = self.next_sig(k)
        if n is None or not self.is_punct(n, "("):
            return
        p = self.prev_sig(k)
        if p is not None and self.t[p].text in (".", "->"):
            return  # a member
        qualifier = []
        if p is not None and self.is_punct(p, "::"):
            q = self.prev_sig(p)
            if q is not None and self.t[q].kind == "id" and self.t[q].text != "std":
                return  # another namespace's or class's malloc
            qualifier = [p] + ([q] if q is not None and self.t[q].text == "std" else [])
        if any(m in self.protected for m in qualifier + [k]):
            return
        for m in qualifier:
            self.out[m] = ""
        self.out[k] = _DEVICE_HEAP[self.t[k].text]
        self.done.add(k)

    def untouched(self, a, b):
        """Tokens a..b hold no directive and nothing an earlier rewrite replaced."""
        return all(m not in self.protected and self.t[m].kind != "pp" for m in range(a, b + 1))

    def is_int_type(self, sig):
        words = [self.t[m].text for m in sig]
        if words[:1] == ["::"]:
            words = words[1:]
        if words[:2] == ["std", "::"]:
            words = words[2:]
        if len(words) == 1 and words[0] in _INT_TYPEDEFS:
            return True
        return bool(words) and all(w in _INT_BUILTIN for w in words) and words.count("long") <= 2 and \
            sum(w in ("signed", "unsigned") for w in words) <= 1 and \
            sum(w in ("int", "char", "short") for w in words) <= 1

    def looks_like_type(self, sig):
        """A cast's parenthesised type the rewrite can tell: built-in words, the integer typedefs,
        cv and pointers."""
        words = [self.t[m].text for m in sig]
        return bool(words) and words[0] in _TYPE_WORDS | _INT_TYPEDEFS and \
            all(w in _TYPE_WORDS | _INT_TYPEDEFS | {"const", "volatile", "*", "&", "::", "std"} for w in words)

    def operand_start(self, k):
        tok = self.t[k] if 0 <= k < len(self.t) else None
        if tok is None:
            return False
        if tok.kind in ("num", "str", "chr"):
            return True
        if tok.kind == "id":
            return tok.text not in _NOT_AN_OPERAND
        return tok.kind == "punct" and tok.text in ("(", "-", "+", "!", "~", "*", "&", "++", "--", "::")

    def template_close(self, lt, hi):
        """lt is a `<` after a name: the `>` closing it as a template argument list, or -1."""
        return self.angle_partner(lt, 1, ("(", "["), _ends_arguments_forward, hi)

    def template_open(self, gt, lo):
        """gt is a `>`: the `<` of the template argument list it closes (a name before it), or -1."""
        lt = self.angle_partner(gt, -1, (")", "]"), _ends_arguments_backward, lo)
        p = self.prev_sig(lt) if lt >= 0 else lo
        return lt if p > lo and self.t[p].kind == "id" else -1

    def postfix_end(self, e, hi):
        """e ends a primary expression: the last token of it with its postfix operators, or -1."""
        while True:
            n = self.next_sig(e)
            if n >= hi:
                return e
            tok = self.t[n]
            if tok.kind != "punct":
                return e
            if tok.text in ("(", "["):
                e = self.match_forward(n)
                if e < 0 or e >= hi:
                    return -1
            elif tok.text in (".", "->"):
                m = self.next_sig(n)
                if m < hi and self.t[m].text == "template":
                    m = self.next_sig(m)
                if m < hi and self.is_punct(m, "~"):
                    m = self.next_sig(m)
                if m >= hi or self.t[m].kind != "id":
                    return -1
                e = self.name_end(m, hi, postfix=False)
                if e < 0:
                    return -1
            elif tok.text in ("++", "--"):
                e = n
            elif tok.text == "{":
                return -1  # T{...}, a lambda's body: not told apart here
            else:
                return e

    def name_end(self, k, hi, postfix=True):
        """k starts an id-expression (`::`, qualified, template arguments before `(` or `::`)."""
        e = k
        if self.is_punct(e, "::"):
            e = self.next_sig(e)
        while True:
            if e >= hi or self.t[e].kind != "id":
                return -1
            n = self.next_sig(e)
            if self.is_punct(n, "<") and not self.is_punct(n + 1, "<"):
                gt = self.template_close(n, hi)
                if gt > 0 and (self.is_punct(self.next_sig(gt), "(") or self.is_punct(self.next_sig(gt), "::")):
                    e = gt
                    n = self.next_sig(e)
            if self.is_punct(n, "::"):
                e = self.next_sig(n)
                if e < hi and self.t[e].text == "template":
                    e = self.next_sig(e)
                continue
            break
        return self.postfix_end(e, hi) if postfix else e

    def unary_end(self, k, hi):
        """k starts a unary expression (a cast's operand): its last token, or -1 when unsure."""
        if k >= hi:
            return -1
        tok = self.t[k]
        if tok.kind == "punct":
            if tok.text in ("-", "+", "!", "~", "*", "&", "++", "--"):
                return self.unary_end(self.next_sig(k), hi)
            if tok.text == "(":
                close = self.match_forward(k)
                if close < 0 or close >= hi:
                    return -1
                nxt = self.next_sig(close)
                if self.looks_like_type(self.sig_between(k, close)) and self.operand_start(nxt):
                    return self.unary_end(nxt, hi)  # a cast in the operand
                return self.postfix_end(close, hi)
            if tok.text == "::":
                return self.name_end(k, hi)
            return -1
        if tok.kind in ("num", "chr"):
            return self.postfix_end(k, hi)
        if tok.kind == "str":
            e = k
            while self.next_sig(e) < hi and self.t[self.next_sig(e)].kind == "str":
                e = self.next_sig(e)
            return self.postfix_end(e, hi)
        if tok.kind != "id" or tok.text in _NOT_AN_OPERAND:
            return -1
        if tok.text in ("sizeof", "alignof", "__alignof__", "_Alignof"):
            n = self.next_sig(k)
            if self.is_punct(n, "("):
                close = self.match_forward(n)
                return close if 0 < close < hi else -1
            return self.unary_end(n, hi) if not self.is_punct(n, "...") else -1
        if tok.text in ("static_cast", "reinterpret_cast", "const_cast", "dynamic_cast"):
            n = self.next_sig(k)
            gt = self.template_close(n, hi) if self.is_punct(n, "<") else -1
            p = self.next_sig(gt) if gt > 0 else -1
            if p < 0 or not self.is_punct(p, "("):
                return -1
            close = self.match_forward(p)
            return self.postfix_end(close, hi) if 0 < close < hi else -1
        if tok.text in _TYPE_WORDS and not self.is_punct(self.next_sig(k), "("):
            return -1  # `unsigned int(x)` and the like: not one primary
        return self.name_end(k, hi)

    def ends_operand(self, k):
        """Token k can end an operand (so a following & or * is binary)."""
        tok = self.t[k]
        return (tok.kind in ("num", "str", "chr") or (tok.kind == "id" and tok.text not in _NOT_AN_OPERAND) or
                (tok.kind == "punct" and tok.text in (")", "]", "++", "--")))

    def replace_cast(self, a, b, operand_end, typ):
        """Tokens a..b (the cast's type and its parentheses or `static_cast`) become the call."""
        self.replace_span(a, b, f"::cusim::detail::gpu_cast<{typ}>" + ("(" if operand_end is not None else ""))
        self.done.update(range(a, b + 1))
        if operand_end is not None:
            self.suffix[operand_end] = self.suffix.get(operand_end, "") + ")"

    def c_style_cast(self, k, lo, hi):
        """`(T)x` with T an integer type."""
        close = self.match_forward(k)
        if close < 0 or close >= hi:
            return
        inner = self.sig_between(k, close)
        if not inner or not self.is_int_type(inner):
            return
        p = self.prev_sig(k)
        if (self.t[p].kind == "id" and self.t[p].text not in _KEYWORDS_BEFORE_EXPR) or \
                (self.is_punct(p, ")") and p not in self.done) or self.is_punct(p, "]") or \
                self.t[p].kind in ("num", "str", "chr", "pp"):
            return  # sizeof(int), f(int), a macro's argument list (not `(long long)(int)x`)
        s = self.next_sig(close)
        if not self.operand_start(s):
            return
        e = self.unary_end(s, hi)
        if e < 0 or self.operand_start(self.next_sig(e)) and not self.t[self.next_sig(e)].kind == "punct":
            return
        if not self.untouched(k, e):
            return
        self.replace_cast(k, close, e, self.text_between(inner[0], inner[-1]))

    def functional_cast(self, k, lo, hi):
        """`T(x)` with T an integer type of one word (`std::size_t` too)."""
        start = k
        p = self.prev_sig(k)
        if self.is_punct(p, "::"):
            q = self.prev_sig(p)
            if self.t[q].kind == "id" and self.t[q].text == "std":
                start = q
                p = self.prev_sig(q)
            else:
                start = p
                p = q
        n = self.next_sig(k)
        if not self.is_punct(n, "(") or self.is_punct(self.next_sig(n), ")"):
            return
        close = self.match_forward(n)
        if close < 0 or close >= hi:
            return
        depth = 0
        for m in range(n + 1, close):  # T(a, b) is no cast
            if self.t[m].kind == "punct" and self.t[m].text in OPEN:
                depth += 1
            elif self.t[m].kind == "punct" and self.t[m].text in CLOSE:
                depth -= 1
            elif depth == 0 and self.is_punct(m, ","):
                return
        if not (self.t[p].kind == "punct" and self.t[p].text in _EXPRESSION_BEFORE or
                self.t[p].kind == "id" and self.t[p].text in _KEYWORDS_BEFORE_EXPR):
            return
        if not self.untouched(start, close):
            return
        self.replace_cast(start, k, None, self.text_between(start, k))

    def static_cast(self, k, hi):
        """`static_cast<T>(x)` with T an integer type."""
        lt = self.next_sig(k)
        if not self.is_punct(lt, "<"):
            return
        gt = self.template_close(lt, hi)
        if gt < 0 or not self.is_int_type(self.sig_between(lt, gt)):
            return
        p = self.next_sig(gt)
        if not self.is_punct(p, "(") or self.match_forward(p) < 0 or not self.untouched(k, self.match_forward(p)):
            return
        self.out[k] = "::cusim::detail::gpu_cast"
        self.done.add(k)

    def shift(self, k, lo, hi):
        """k is a `<` or `>`: when it starts a shift operator, the shift becomes a call."""
        c = self.t[k].text
        if not self.is_punct(k + 1, c) or self.is_punct(k - 1, c) or self.is_punct(k + 2, c):
            return  # not two of them, or <<< / >>> (a launch)
        compound = self.is_punct(k + 2, "=")
        last = k + 2 if compound else k + 1
        p = self.prev_sig(k)
        if p <= lo or (self.t[p].kind == "id" and self.t[p].text == "operator"):
            return
        if c == ">" and self.template_pending(k, lo):
            return  # `>>` may close two template argument lists
        left = self.shift_left(k, lo)
        right = self.shift_right(self.next_sig(last), hi, compound)
        if left < 0 or right < 0 or not self.untouched(left, right):
            return
        words = [self.t[m].text for m in range(self.next_sig(last), right + 1) if self.t[m].kind not in TRIVIA]
        if words in (["std", "::", words[-1]], ["::", "std", "::", words[-1]]) and words[-1] in _MANIPULATORS or \
                words in (["endl"], ["ends"], ["flush"]):
            return  # `os << std::endl`: an overload set, no argument of a function template
        name = ("gpu_shl" if c == "<" else "gpu_shr") + ("_assign" if compound else "")
        self.prefix[left] = f"::cusim::detail::{name}(" + self.prefix.get(left, "")
        self.out[k] = ","
        if self.t[k - 1].kind == "ws" and "\n" not in self.t[k - 1].text and k - 1 not in self.protected:
            self.out[k - 1] = ""  # `a << b` -> `gpu_shl(a, b)`
        for m in range(k + 1, last + 1):
            self.out[m] = ""
        self.suffix[right] = self.suffix.get(right, "") + ")"
        self.done.update(range(k, last + 1))

    def template_pending(self, k, lo):
        """Whether a `<` after a name, not closed, comes before the `>>` at k in its expression."""
        depth = 0
        j = self.prev_sig(k)
        while j > lo:
            tok = self.t[j]
            if tok.kind == "pp":
                return True
            if tok.kind == "punct":
                if tok.text in (")", "]"):
                    j = self.match_backward(j)
                    if j < 0:
                        return True
                elif tok.text in ("(", "[", "{", "}", ";", ",", "&&", "||", "?", ":", "="):
                    return False
                elif tok.text in ("<", ">") and (self.is_punct(j - 1, tok.text) or self.is_punct(j + 1, tok.text)):
                    j = self.prev_sig(j - 1) if self.is_punct(j - 1, tok.text) else self.prev_sig(j)
                    continue
                elif tok.text == ">":
                    depth += 1
                elif tok.text == "<":
                    if depth == 0 and self.t[self.prev_sig(j)].kind == "id":
                        return True
                    depth = max(0, depth - 1)
            j = self.prev_sig(j)
        return False

    def shift_left(self, k, lo):
        """The first token of the left operand of the shift at k (a shift-expression), or -1."""
        start = None
        j = self.prev_sig(k)
        while j > lo:
            tok = self.t[j]
            if tok.kind == "pp":
                return -1
            if tok.kind == "punct":
                x = tok.text
                if x in (")", "]"):
                    o = self.match_backward(j)
                    if o <= lo:
                        return -1
                    if x == ")":
                        b = self.prev_sig(o)
                        head = self.t[b]
                        if head.kind == "id" and head.text in _STATEMENT_HEADS:
                            break  # if (c) x <<= 1;
                        if start is not None and self.t[start].kind != "punct" and (
                                head.kind in ("id", "num", "str", "chr") and head.text not in _KEYWORDS_BEFORE_EXPR or
                                head.kind == "punct" and head.text in (")", "]", ">")):
                            break  # MACRO(args) x << 1: not one expression
                    start = o
                    j = self.prev_sig(o)
                    continue
                if x == ">":
                    lt = self.template_open(j, lo)
                    if lt > 0 and (start is None or self.t[start].kind == "punct" and self.t[start].text in ("(", "::")):
                        start = self.prev_sig(lt)
                        j = self.prev_sig(start)
                        continue
                    if self.is_punct(j - 1, ">") and not self.is_punct(j - 2, ">"):
                        start = j - 1  # a shift: left associative
                        j = self.prev_sig(j - 1)
                        continue
                    break
                if x == "<":
                    if self.is_punct(j - 1, "<") and not self.is_punct(j - 2, "<"):
                        start = j - 1
                        j = self.prev_sig(j - 1)
                        continue
                    break
                if x == "&" and self.ends_operand(self.prev_sig(j)):
                    break
                if x in (".", "->", "::", ".*", "->*", "+", "-", "*", "/", "%", "!", "~", "++", "--", "&"):
                    start = j
                    j = self.prev_sig(j)
                    continue
                break
            if tok.kind == "id":
                member_template = tok.text == "template" and self.t[self.prev_sig(j)].text in (".", "->", "::")
                if (tok.text in _KEYWORDS_BEFORE_EXPR or tok.text in _NOT_AN_OPERAND) and not member_template:
                    break
                if start is not None and self.t[start].kind in ("id", "num", "str", "chr") and \
                        tok.text not in ("sizeof", "alignof") and not member_template:
                    break
            start = j
            j = self.prev_sig(j)
        if start is None or not self.operand_start(start):
            return -1
        return start

    def shift_right(self, k, hi, assign):
        """The last token of the right operand starting at k: an additive-expression after a shift,
        an assignment-expression after `<<=`/`>>=`. -1 when unsure."""
        end = None
        want = True  # an operand is expected next
        question = 0
        j = k
        while j < hi:
            tok = self.t[j]
            if tok.kind == "pp":
                return -1
            if tok.kind in TRIVIA:
                j += 1
                continue
            if tok.kind == "punct":
                x = tok.text
                if x in ("(", "["):
                    close = self.match_forward(j)
                    if close < 0 or close >= hi:
                        return -1
                    if want and x == "(" and self.looks_like_type(self.sig_between(j, close)):
                        j = close + 1  # a cast: its operand follows
                        continue
                    end = close
                    j = end + 1
                    want = False
                    continue
                if x in (")", "]", "}", ";", ",", "{", "...", "#"):
                    break
                if x in ("<", ">"):
                    pair = self.is_punct(j + 1, x)
                    if pair and (self.is_punct(j + 2, x) or self.is_punct(j - 1, x)):
                        return -1
                    if x == "<" and not pair and not want and self.t[end].kind == "id":
                        gt = self.template_close(j, hi)
                        if gt > 0 and (self.is_punct(self.next_sig(gt), "(") or self.is_punct(self.next_sig(gt), "::")):
                            end = gt
                            j = gt + 1
                            continue
                    if not assign:
                        break
                    j += 2 if pair else 1
                    want = True
                    continue
                if x == "&" and want:
                    j += 1
                    continue
                if x == "?":
                    if not assign:
                        break
                    question += 1
                elif x == ":":
                    if question == 0:
                        break
                    question -= 1
                elif x in ("==", "!=", "&&", "||", "|", "^", "&", "=") or x.endswith("=") and x not in ("::",):
                    if not assign:
                        break
                elif x in ("++", "--"):
                    if not want:
                        end = j
                    j += 1
                    continue
                elif x not in (".", "->", "::", ".*", "->*", "+", "-", "*", "/", "%", "!", "~"):
                    return -1
                want = True
                j += 1
                continue
            if tok.kind == "id" and tok.text == "template" and self.t[self.prev_sig(j)].text in (".", "->", "::"):
                j += 1
                continue
            if tok.kind == "id" and tok.text in _NOT_AN_OPERAND:
                return -1
            if not want and tok.kind != "str":
                return -1  # two operands in a row: not an expression the rewrite reads
            end = j
            want = False
            j += 1
        if end is None or want:
            return -1
        return end

    def add_phases(self):
        """Each kernel fit for it gets its phased form (phases.py) after the { of its body."""
        view = Cursor(self.t)
        fit = phases.function_fitness(view, [f for f in self.functions if not f[4]], self.path)
        for name, i, close, params, kernel in self.functions:
            if kernel:
                self.out[i] += phases.phased_body(view, self.out, self.path, i, close, fit, params,
                                                  self.bound_shared.get(i, ()))

    def declaration_start(self, i):
        """The first token of the declaration whose body opens with the { at i (after the previous
        ;, {, } or directive; groups in parentheses or brackets skipped whole), or -1."""
        j = self.prev_sig(i)
        start = i
        while j >= 0:
            tok = self.t[j]
            if tok.kind == "pp" or (tok.kind == "punct" and tok.text in (";", "{", "}")):
                break
            if tok.kind == "punct" and tok.text in (")", "]"):
                j = self.match_backward(j)
                if j < 0:
                    return -1
            start = j
            j = self.prev_sig(j)
        return start

    def function_name(self, start, i):
        """The declared (qualified) name of the function whose declaration runs from start to its
        body's { at i, and the ( of its parameters: the identifier before the first ( that follows
        no attribute-like word, at depth 0. (None, -1) if there is none."""
        k = start
        while k < i:
            if self.is_punct(k, "(") or self.is_punct(k, "["):
                p = self.prev_sig(k)
                if self.is_punct(k, "(") and p >= start and self.t[p].kind == "id" and self.t[p].text not in _NOT_A_NAME:
                    parts = [self.t[p].text]
                    q = self.prev_sig(p)
                    while q >= start and self.is_punct(q, "::") and self.t[self.prev_sig(q)].kind == "id":
                        parts.insert(0, self.t[self.prev_sig(q)].text)
                        q = self.prev_sig(self.prev_sig(q))
                    return "::".join(parts), k
                k = self.match_forward(k)
                if k < 0:
                    return None, -1
            k += 1
        return None, -1

    def parameters(self, paren):
        """name -> the words of its type, for each parameter of the list opening at paren (an
        unnamed one is left out, a default value is not read)."""
        close = self.match_forward(paren)
        out = {}
        words = []
        depth = 0
        default = False
        for k in range(paren + 1, close + 1):
            tok = self.t[k]
            if k == close or (tok.kind == "punct" and tok.text == "," and depth == 0):
                if len(words) > 1:
                    out[words[-1]] = set(words[:-1])
                words = []
                default = False
            elif tok.kind == "punct" and tok.text in ("(", "[", "{", "<"):
                depth += 1
            elif tok.kind == "punct" and tok.text in (")", "]", "}", ">"):
                depth -= 1
            elif tok.kind == "punct" and tok.text == "=" and depth == 0:
                default = True
            elif tok.kind == "id" and not default:
                words.append(tok.text)
        return out

    def register_kernel(self, i):
        """i is the { of a function body outside any function: if the function is a __global__
        one that is not a template, a registration follows its closing } on the same line. Every
        function's body is noted for the phases (phases.py)."""
        start = self.declaration_start(i)
        if start < 0:
            return
        name, paren = self.function_name(start, i)
        close = self.match_forward(i)
        if name is None or close < 0:
            return
        words = [self.t[k] for k in range(start, i) if self.t[k].kind not in TRIVIA]
        params = self.parameters(paren)
        kernel = any(w.kind == "id" and w.text == "__global__" for w in words)
        self.functions.append((name.split("::")[-1], i, close, params, kernel))
        if not kernel:
            return
        if any(w.kind == "id" and w.text == "template" for w in words):
            return  # a template: registered by its launches
        self.registrations += 1
        self.out[close] += " " + registration(name, self.registrations, self.t[i].line, self.tag)

    def opens_namespace(self, i):
        """Whether the { at i opens a namespace or an extern "C" block."""
        j = self.prev_sig(i)
        if j >= 0 and self.t[j].kind == "str" and self.prev_sig(j) >= 0 and self.t[self.prev_sig(j)].text == "extern":
            return True
        start = self.declaration_start(i)
        return start >= 0 and any(self.t[k].kind == "id" and self.t[k].text == "namespace" for k in range(start, i))

    def name_global_arrays(self, i, space):
        """i is a __constant__ or __device__ at namespace scope: when it declares arrays, their
        names are registered after the declaration, so that a bounds fault names the memory space.
        Returns the index to go on from."""
        j = i
        names = []
        while j < len(self.t):
            tok = self.t[j]
            if tok.kind == "punct" and tok.text in ("(", "{"):
                return i  # a function, or a brace-initialised variable: nothing registered
            if tok.kind == "punct" and tok.text == ";":
                break
            if tok.kind == "punct" and tok.text == "=":
                j += 1
                while j < len(self.t) and not (self.is_punct(j, ",") or self.is_punct(j, ";")):
                    if self.t[j].kind == "punct" and self.t[j].text in OPEN:
                        j = self.match_forward(j)
                        if j < 0:
                            return i
                    j += 1
                continue
            if tok.kind == "id" and self.is_punct(self.next_sig(j), "["):
                names.append(tok.text)
                j = self.match_forward(self.next_sig(j))
                if j < 0:
                    return i
            j += 1
        if j >= len(self.t) or not names:
            return i
        self.registrations += 1
        self.out[j] += "".join(" " + array_name_registration(f"cusim_array_named_{self.tag}_{self.registrations}_{k}_", name, space)
                               for k, name in enumerate(names))
        return j

    def namespace_names(self, i):
        """The names the namespace opening with the { at i adds to the enclosing ones' (`a::b`:
        two; an anonymous namespace or an extern "C" block: none)."""
        start = self.declaration_start(i)
        words = [self.t[k] for k in range(max(start, 0), i) if self.t[k].kind not in TRIVIA]
        at = next((n for n, w in enumerate(words) if w.kind == "id" and w.text == "namespace"), None)
        if at is None:
            return []
        return [w.text for w in words[at + 1:] if w.kind == "id" and w.text != "inline"]

    def opens_lambda(self, i):
        """Whether the { at i (in a function) opens a lambda's body: `] {`, `](params) {`, with
        `mutable`, `constexpr` or `noexcept` between."""
        j = self.prev_sig(i)
        while j >= 0 and self.t[j].kind == "id" and self.t[j].text in ("mutable", "constexpr", "noexcept", "__device__",
                                                                      "__host__"):
            j = self.prev_sig(j)
        if j >= 0 and self.is_punct(j, ")"):
            j = self.prev_sig(self.match_backward(j)) if self.match_backward(j) >= 0 else -1
        return j >= 0 and self.is_punct(j, "]")

    def inject_shared(self, i, function):
        """i is the { of a device function's body (`function`) or of a lambda's in one: when the body
        names namespace-scope __shared__ variables of this file (or macros that do), each is bound
        at its top (`auto& name = ::ns::name.get();`, `ns::name` there naming it too), so that it is the block's
        variable, bounds checked per axis, and a lambda captures nothing."""
        close = self.match_forward(i)
        if close < 0:
            return
        skip = set()
        if function:
            name, paren = self.function_name(self.declaration_start(i), i)
            if paren >= 0:
                skip = set(self.parameters(paren))  # a parameter of that name hides it
        used = []
        for k in range(i + 1, close):
            tok = self.t[k]
            if tok.kind != "id":
                continue
            names = [tok.text] if tok.text in self.ns_shared else sorted(self.macro_shared.get(tok.text, ()))
            if not names:
                continue
            p = self.prev_sig(k)
            if p >= 0 and self.t[p].kind == "punct" and self.t[p].text in (".", "->"):
                continue  # a member
            if p >= 0 and self.is_punct(p, "::"):
                qualifier = self.shared_qualifier(p, tok.text)
                if qualifier is None or tok.text in skip:
                    continue  # another name, or one hidden by a parameter: the object itself
                for m in qualifier:
                    self.out[m] = " " * len(self.t[m].text)  # `ns::name`: the bound name, columns kept
            used += [n for n in names if n not in used and n not in skip]
        if used:  # on lines of their own, so that the {'s line keeps its columns (bounds reports)
            self.bound_shared[i] = used
            self.out[i] += ("\n" + " ".join(self.ns_shared[n] for n in used) + "\n" +
                            line_directive(self.t[i].line, self.path) + " " * self.column_after(i))

    def shared_qualifier(self, p, name):
        """p is the :: before namespace-scope __shared__ variable `name`: the tokens of its
        qualifier (`a::b::`, `::a::`) when it names the variable's namespace, else None."""
        if name not in self.ns_shared:
            return None
        path = self.ns_paths[name]
        tokens = [p]
        names = []
        leading = True  # `::name`, `::a::name`
        j = self.prev_sig(p)
        while j >= 0 and self.t[j].kind == "id":
            names.insert(0, self.t[j].text)
            tokens.append(j)
            q = self.prev_sig(j)
            if q < 0 or not self.is_punct(q, "::"):
                leading = False
                if q >= 0 and self.t[q].kind == "punct" and self.t[q].text in (".", "->"):
                    return None  # a member's qualified name
                break
            tokens.append(q)
            j = self.prev_sig(q)
        if names != path[len(path) - len(names):] or leading and names != path:
            return None
        return tokens

    def opens_function(self, i):
        """Whether the { at i (outside any function) opens a function or lambda body."""
        j = self.prev_sig(i)
        if j >= 0 and self.t[j].kind == "str" and self.prev_sig(j) >= 0 and self.t[self.prev_sig(j)].text == "extern":
            return False  # extern "C" {
        saw_paren = False
        angle = 0  # template parameter lists (`template <class T>`) are skipped
        while j >= 0:
            tok = self.t[j]
            if tok.kind == "pp":
                break
            if tok.kind == "punct":
                if tok.text in (";", "{", "}"):
                    break
                if tok.text == ">":
                    angle += 1
                elif tok.text == "<":
                    angle = max(0, angle - 1)
                elif tok.text == ")":
                    saw_paren = True
                    j = self.match_backward(j)
                    if j < 0:
                        return False
                elif tok.text == "]":
                    j = self.match_backward(j)
                    if j < 0:
                        return False
            elif tok.kind == "id" and angle == 0 and tok.text in ("class", "struct", "union", "enum", "namespace"):
                return False
            j = self.prev_sig(j)
        return saw_paren

    def rewrite_directive(self, i):
        """A #define body: its launches and __shared__ declarations are rewritten in place (on the
        directive's continued lines), and the namespace-scope __shared__ variables it names are
        noted, so that a device function using the macro binds them (inject_shared)."""
        text = self.t[i].text
        m = re.match(r"#\s*define\b", text)
        if not m:
            return
        uses = bool(self.ns_shared or self.macro_shared)
        if "<<<" not in text and "__shared__" not in text and not uses:
            return
        body = tokenize(text[1:], self.path)
        for tok in body:
            tok.line += self.t[i].line - 1
        sub = _Rewriter(body, self.path)
        # Skip `define NAME` or `define NAME(params)`.
        k = sub.next_sig(-1)
        k = sub.next_sig(k)
        if k >= len(body) or body[k].kind != "id":
            return
        macro = body[k].text
        params = set()
        if k + 1 < len(body) and sub.is_punct(k + 1, "("):
            close = sub.match_forward(k + 1)
            if close < 0:
                return
            params = {body[m2].text for m2 in range(k + 2, close) if body[m2].kind == "id"}
            k = close
        if uses:
            names = set()
            for m2 in range(k + 1, len(body)):
                if body[m2].kind != "id" or body[m2].text in params:
                    continue
                p = sub.prev_sig(m2)
                if p >= 0 and body[p].kind == "punct" and body[p].text in (".", "->", "::"):
                    continue
                if body[m2].text in self.ns_shared:
                    names.add(body[m2].text)
                names |= self.macro_shared.get(body[m2].text, set())
            if names:
                self.macro_shared[macro] = names
        if "<<<" not in text and "__shared__" not in text:
            return
        sub.macro_params = params
        sub.floor = k
        sub.keys = self.keys
        depth = 0
        m2 = k + 1
        while m2 < len(body):
            tok = body[m2]
            if tok.kind == "punct" and tok.text == "{":
                depth += 1
            elif tok.kind == "punct" and tok.text == "}":
                depth -= 1
            elif tok.kind == "id" and tok.text == "__shared__":
                # In braces: a function's (a class may hold no __shared__). Outside them, where
                # the macro is used decides: it must be in a function (the walk checks).
                if depth <= 0:
                    self.toplevel_shared_macros.add(macro)
                m2 = sub.rewrite_shared(m2, True)
            elif sub.adjacent(m2, 3, "<"):
                sub.rewrite_launch(m2, len(body), True)
                m2 += 2
            m2 += 1
        self.keys = sub.keys
        self.out[i] = "#" + "".join(sub.out)

def rewrite(src, path="<input>", phases=True, cuda_arch=DEFAULT_CUDA_ARCH):
    """The rewritten text of src; raises RewriteError. The same number of lines without
    `phases`; with it, kernels fit for it get a phased form whose #line directives keep every
    line's number (phases.py). Device code sees __CUDA_ARCH__ as `cuda_arch`."""
    if not needs_rewrite(src):
        return src
    return _Rewriter(tokenize(src, path), path, phases, cuda_arch=cuda_arch).run()


def add_phases(src, path="<input>"):
    """src with nothing but the phased forms of its kernels added (phases.py): for a source written
    against cusim.hpp and compiled by the host compiler, which needs no other rewrite."""
    if "__global__" not in src:
        return src
    return _Rewriter(tokenize(src, path), path, True, only_phases=True).run()
