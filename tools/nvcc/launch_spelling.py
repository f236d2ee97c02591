# SPDX-License-Identifier: MIT
"""The launch spelling of a build-time copy (phase_copy.py): `cusim::launch(NAME, args...)`, where
NAME names a __global__ function of the program, becomes `cusim::launch<NAME>(args...)`, the
spelling whose kernel is a template argument and so is compiled into the loop over a block's
threads (include/cusim/host/launch.hpp). The same for `launch_cooperative`.

Both spellings launch the same kernel with the same arguments: `launch<NAME>` compiles only where
NAME is a constant, and its value is then the kernel `launch(NAME, ...)` would get. So the rewrite
need only avoid what would stop a correct program compiling, and it is conservative. NAME is the
first argument, an identifier, qualified or not, with `&` or not, and with template arguments
exactly where the kernel is a template (`k<float>`), directly followed by the comma. Its last
identifier names a __global__ function declared in the program's texts (the source and the user's
headers), and nothing that the launch could see declares it as something else (_declared_otherwise:
a variable, a parameter, a function pointer, a host function): not the function around the launch
(its parameters, its locals, its lambdas' parameters), not a namespace whose names the launch sees
(one around it, or one named by a `using namespace`; for `ns::NAME`, ns), not a class, not a macro.
A kernel passed through a variable, a kernel named by a macro's parameter, and anything else, stays
as it is, correct and slower. Calls are found in the code and in #define bodies; the call must be
qualified (`cusim::launch`, `::cusim::launch`), or unqualified where the texts say `using namespace
cusim` or `using cusim::launch` and declare no launch of their own. Every line keeps its number."""

import re

from tokens import TRIVIA, Cursor, Token, tokenize

_LAUNCHES = ("launch", "launch_cooperative")
# Words after which an identifier is an operand, not a declared name.
_OPERAND_AFTER = {"return", "case", "throw", "new", "delete", "sizeof", "else", "do", "co_return", "co_yield",
                  "co_await", "typeid", "alignof", "noexcept", "decltype", "and", "or", "not", "xor", "bitand",
                  "bitor", "compl", "not_eq", "and_eq", "or_eq", "xor_eq", "goto", "namespace", "using"}
# Words that may stand between a kernel's template header and __global__.
_SPECIFIERS = {"static", "inline", "extern", "__noinline__", "__forceinline__", "constexpr", "__host__"}
# Words whose parenthesised group is no parameter list.
_ATTRIBUTE_LIKE = {"__launch_bounds__", "__attribute__", "alignas", "__declspec", "__maxnreg__",
                   "__cluster_dims__", "decltype", "noexcept"}
_CLASS_KEYS = {"class", "struct", "union", "enum"}
_DEFINE = re.compile(r"#\s*define\s+[A-Za-z_$][A-Za-z0-9_$]*(\([^)]*\))?")
_EVERYWHERE = None  # a declaration every launch may see (in a class, in a macro)


class Program:
    """What the program's texts say: `kernels`, name -> whether it is a template; `elsewhere`,
    name -> the namespaces (tuples of names; _EVERYWHERE) where something else of that name is
    declared; `using`, the last names of the namespaces a `using namespace` names; `unqualified`,
    whether a bare `launch(` is cusim's."""

    def __init__(self, texts):
        self.kernels = {}
        self.elsewhere = {}
        self.using = set()
        uses_cusim = False
        for text in texts:
            if "__global__" not in text and "cusim" not in text:
                continue
            code, macros = _code_and_macros(text)
            view = Cursor(code)
            own = set()
            for i, tok in enumerate(code):
                if tok.kind == "id" and tok.text == "__global__":
                    found = _kernel_declarator(view, i)
                    if found is not None:
                        own.add(found[0])
                        name = code[found[0]].text
                        self.kernels[name] = self.kernels.get(name, False) or found[1]
            scopes = _Scopes(view)
            for i in _declared_otherwise(view, own, 0, len(code)):
                namespace, block, in_class, in_parens = scopes.at(i)
                pointer = i >= 2 and code[i - 1].text in ("*", "&") and code[i - 2].text == "("
                if block is not None or (in_parens and not pointer):
                    continue  # a local or a parameter: only its function's launches see it (respell)
                self.elsewhere.setdefault(code[i].text, set()).add(_EVERYWHERE if in_class else namespace)
            for body in macros:
                mview = Cursor(body)
                for i in _declared_otherwise(mview, set(), 0, len(body)):
                    self.elsewhere.setdefault(body[i].text, set()).add(_EVERYWHERE)
            for i, tok in enumerate(code):
                if tok.kind == "id" and tok.text == "using":
                    uses_cusim = _using(view, i, self.using) or uses_cusim
                    named = _using_declaration(view, i)
                    if named is not None and named not in _LAUNCHES:
                        self.elsewhere.setdefault(named, set()).add(_EVERYWHERE)
        launches_declared = any(n in self.elsewhere for n in _LAUNCHES)
        self.unqualified = uses_cusim and not launches_declared

    def resolves(self, name, qualifier, namespace):
        """Whether `qualifier::name` (qualifier a tuple of names, None for a leading `::`, () for
        none), named in `namespace`, is a kernel that nothing else of that name could hide."""
        for where in self.elsewhere.get(name, ()):
            if where is _EVERYWHERE:
                return False
            if qualifier is None:  # ::name
                if where == ():
                    return False
            elif qualifier:
                if where[-len(qualifier):] == qualifier:
                    return False
            elif where == namespace[:len(where)] or (where and where[-1] in self.using):
                return False
        return True


def _code_and_macros(text):
    """The significant tokens of text without its directives, and the significant tokens of each
    #define body."""
    code, macros = [], []
    for tok in tokenize(text):
        if tok.kind == "pp":
            m = _DEFINE.match(tok.text)
            if m:
                macros.append([t for t in tokenize(tok.text[m.end():]) if t.kind not in TRIVIA])
        elif tok.kind not in TRIVIA:
            code.append(tok)
    return code, macros


def _using(view, i, namespaces):
    """i is at `using`: adds the last name of a `using namespace X::Y;` to namespaces; whether it
    is `using namespace cusim` or `using cusim::launch` (a bare launch is then cusim's)."""
    t = view.t
    k = i + 1
    if k < len(t) and t[k].text == "namespace":
        names = []
        k += 1
        while k < len(t) and (t[k].kind == "id" or view.is_punct(k, "::")):
            if t[k].kind == "id":
                names.append(t[k].text)
            k += 1
        if names:
            namespaces.add(names[-1])
        return names == ["cusim"]
    if view.is_punct(k, "::"):
        k += 1
    return (k + 2 < len(t) and t[k].text == "cusim" and view.is_punct(k + 1, "::") and t[k + 2].text in _LAUNCHES)


def _using_declaration(view, i):
    """i is at `using`: the name a `using X::name;` brings in, or None."""
    t = view.t
    k = i + 1
    last = None
    while k < len(t) and (t[k].kind == "id" or view.is_punct(k, "::")):
        if t[k].kind == "id":
            if t[k].text in ("namespace", "typename"):
                return None
            last = t[k].text
        k += 1
    return last if view.is_punct(k, ";") and k > i + 2 else None


class _Scopes:
    """Where each significant token stands: at(i) is (the namespaces around it, a tuple of names,
    anonymous ones left out; the index where the declaration of the outermost function body (or
    other block) around it starts, or None; whether it is in a class; whether it is inside a
    parenthesised group of namespace or class scope)."""

    def __init__(self, view):
        self.view = view
        t = view.t
        self.info = [None] * len(t)
        stack = []  # ("ns", names) | ("class",) | ("block", start) | ("linkage",)
        parens = 0
        for i, tok in enumerate(t):
            namespace = tuple(n for e in stack if e[0] == "ns" for n in e[1])
            block = next((e[1] for e in stack if e[0] == "block"), None)
            in_class = any(e[0] == "class" for e in stack)
            self.info[i] = (namespace, block, in_class, parens > 0)
            if tok.kind != "punct":
                continue
            if tok.text in ("(", "[") and block is None:
                parens += 1
            elif tok.text in (")", "]") and block is None and parens > 0:
                parens -= 1
            elif tok.text == "{":
                stack.append(self.opened(i) if block is None else ("block", block))
                if block is None:
                    parens = 0
            elif tok.text == "}" and stack:
                stack.pop()

    def at(self, i):
        return self.info[i]

    def opened(self, i):
        """What the { at i, outside any function, opens."""
        view = self.view
        t = view.t
        j = view.prev_sig(i)
        start = i
        ids, parens, assigns = [], False, False
        while j >= 0:
            tok = t[j]
            if tok.kind == "punct" and tok.text in (";", "{", "}"):
                break
            if tok.kind == "punct" and tok.text in (")", "]"):
                parens = parens or tok.text == ")"
                m = view.match_backward(j)
                if m < 0:
                    break
                j = m
            elif tok.kind == "punct" and tok.text == "=":
                assigns = True
            elif tok.kind == "id":
                ids.append(tok.text)
            start = j
            j -= 1
        ids.reverse()
        if "namespace" in ids and not parens:
            at = ids.index("namespace")
            if at > 0 and ids[at - 1] == "inline":  # its names are the enclosing namespace's too
                return ("ns", ())
            return ("ns", tuple(n for n in ids[at + 1:] if n != "inline"))
        if ids == ["extern"]:  # extern "C" {
            return ("linkage",)
        if _CLASS_KEYS & set(ids) and not parens and not assigns:
            return ("class",)
        return ("block", start)


def _kernel_declarator(view, i):
    """i is at `__global__`: (the index of the declared name, whether a template header precedes),
    or None."""
    t = view.t
    k = i + 1
    while k < len(t) and k < i + 200:
        tok = t[k]
        if tok.kind == "punct" and tok.text in (";", "{", "}", "="):
            return None
        if tok.kind == "punct" and tok.text == "[":
            k = view.match_forward(k)
            if k < 0:
                return None
        elif tok.kind == "punct" and tok.text == "(":
            p = k - 1
            if t[p].kind == "id" and t[p].text in _ATTRIBUTE_LIKE:
                k = view.match_forward(k)
                if k < 0:
                    return None
            elif t[p].kind == "id":
                return p, _after_template_header(view, i)
            else:
                return None
        k += 1
    return None


def _after_template_header(view, i):
    """Whether the declaration whose `__global__` is at i opens with `template <...>`."""
    t = view.t
    j = i - 1
    while j >= 0 and ((t[j].kind == "id" and t[j].text in _SPECIFIERS) or t[j].kind == "str"):
        j -= 1
    if j >= 0 and view.is_punct(j, "]"):  # an attribute before __global__
        j = view.match_backward(j) - 1
    if j < 0 or not view.is_punct(j, ">"):
        return False
    lt = view.angle_partner(j, -1, skip=(")", "]"))
    return lt > 0 and t[lt - 1].kind == "id" and t[lt - 1].text == "template"


def _declared_otherwise(view, own, lo, hi):
    """The indices in [lo, hi) of identifiers in a place that may declare them as something other
    than a kernel: after a type-like token (`auto k`, `F k`, `T* k`, `T& k`, `std::function<...> k`,
    `void k(`), or as `(*k)(` / `(&k)(`; `own`, the names of __global__ declarators, excepted."""
    t = view.t
    out = []
    for i in range(max(lo, 1), hi):
        tok = t[i]
        if tok.kind != "id" or i in own:
            continue
        p = t[i - 1]
        if p.kind == "id" and p.text not in _OPERAND_AFTER:
            out.append(i)
        elif p.kind == "punct" and p.text == ">":
            out.append(i)
        elif p.kind == "punct" and p.text in ("*", "&", "&&") and i >= 2:
            q = t[i - 2]
            if q.kind == "id" and q.text not in _OPERAND_AFTER or (q.kind == "punct" and q.text == ">"):
                out.append(i)
            elif (q.kind == "punct" and q.text == "(" and i + 2 < len(t) and view.is_punct(i + 1, ")")
                  and (view.is_punct(i + 2, "(") or view.is_punct(i + 2, "["))):
                out.append(i)
    return out


def respell(text, program, path="<input>", in_macro=False, hidden=frozenset()):
    """text with each launch of a known kernel by name in the template spelling (see the top);
    `hidden`, names no launch of text may take for a kernel."""
    if "launch" not in text or not program.kernels:
        return text
    tokens = tokenize(text, path)
    sig = [k for k, tok in enumerate(tokens) if tok.kind not in TRIVIA and tok.kind != "pp"]
    code = [tokens[k] for k in sig]
    view = Cursor(code)
    scopes = _Scopes(view)
    own = {found[0] for i, tok in enumerate(code) if tok.kind == "id" and tok.text == "__global__"
           for found in [_kernel_declarator(view, i)] if found is not None}
    locals_of = {}  # a block's declaration start -> the names its function declares
    out = [tok.text for tok in tokens]
    changed = False
    everywhere = None
    for k, tok in enumerate(tokens):
        if tok.kind == "pp":
            m = _DEFINE.match(tok.text)
            if m and "launch" in tok.text:
                # Wherever the macro is used: any function's names hide, and the macro's parameters.
                if everywhere is None:
                    everywhere = {code[i].text for i in _declared_otherwise(view, own, 0, len(code))}
                params = set(re.findall(r"[A-Za-z_$][A-Za-z0-9_$]*", m.group(1) or ""))
                body = respell(tok.text[m.end():], program, path, True, frozenset(hidden | everywhere | params))
                if body != tok.text[m.end():]:
                    out[k] = tok.text[:m.end()] + body
                    changed = True
    for s, tok in enumerate(code):
        if tok.kind != "id" or tok.text not in _LAUNCHES or not _is_cusim_launch(view, s, program):
            continue
        found = _kernel_argument(view, s)
        if found is None:
            continue
        paren, comma, name, qualifier, template = found
        kernel = code[name].text
        namespace, block, _, _ = scopes.at(s)
        if program.kernels.get(kernel) != template or kernel in hidden:
            continue
        if not program.resolves(kernel, qualifier, namespace):
            continue
        if block is not None and not qualifier and qualifier is not None:
            if block not in locals_of:
                end = _block_end(view, block)
                locals_of[block] = {code[i].text for i in _declared_otherwise(view, own, block, end)}
            if kernel in locals_of[block]:
                continue
        a, b = sig[paren], sig[comma]
        spelled = " ".join("".join(" " if tokens[j].kind in TRIVIA else tokens[j].text for j in range(a + 1, b)).split())
        lines = "".join(tokens[j].text for j in range(a, b + 1)).count("\n")
        if _has_bare_comma(view, paren, comma):  # `k<int, 2>`: one macro argument still, if in one
            spelled = "(" + spelled + ")"
        newline = "\\\n" if in_macro else "\n"
        out[a] = "<" + (" " if spelled.startswith(":") else "") + spelled + ">(" + newline * lines
        for j in range(a + 1, b + 1):
            out[j] = ""
        changed = True
    return "".join(out) if changed else text


def _has_bare_comma(view, paren, comma):
    """Whether a comma stands between paren and comma outside any parentheses: one the
    preprocessor would take for the end of a macro argument once the launch's own ( moves."""
    depth = 0
    for k in range(paren + 1, comma):
        tok = view.t[k]
        if tok.kind == "punct" and tok.text in ("(", "["):
            depth += 1
        elif tok.kind == "punct" and tok.text in (")", "]"):
            depth -= 1
        elif tok.kind == "punct" and tok.text == "," and depth == 0:
            return True
    return False


def _block_end(view, start):
    """The end of the function (or other block) whose declaration starts at start: past the }
    closing its first { outside parentheses."""
    k = start
    while k < len(view.t) and not view.is_punct(k, "{"):
        if view.is_punct(k, "(") or view.is_punct(k, "["):
            k = view.match_forward(k)
            if k < 0:
                return len(view.t)
        k += 1
    end = view.match_forward(k) if k < len(view.t) else -1
    return len(view.t) if end < 0 else end + 1


def _is_cusim_launch(view, i, program):
    """The id at i (launch or launch_cooperative) is cusim's, called: `cusim::launch (`, or a bare
    `launch (` where the program uses cusim's."""
    if not view.is_punct(i + 1, "("):
        return False
    t = view.t
    if view.is_punct(i - 1, "::"):
        if i < 2 or t[i - 2].kind != "id" or t[i - 2].text != "cusim":
            return False
        r = i - 3
        if view.is_punct(r, "::"):
            r -= 1
            return not (r >= 0 and t[r].kind == "id")  # ::cusim::launch, not x::cusim::launch
        return not (r >= 0 and t[r].kind == "punct" and t[r].text in (".", "->"))
    if not program.unqualified:
        return False
    p = i - 1
    return not (p >= 0 and (t[p].kind == "id" and t[p].text not in _OPERAND_AFTER
                            or t[p].kind == "punct" and t[p].text in (".", "->", ">")))


def _kernel_argument(view, i):
    """(the `(` after the launch at i, the `,` after its first argument, the index of the
    argument's last name, its qualifier: a tuple of names, () for none, None for a leading `::`,
    whether it has template arguments) where the argument has that shape; None otherwise."""
    t = view.t
    paren = i + 1
    k = paren + 1
    if view.is_punct(k, "&"):
        k += 1
    qualifier = []
    rooted = view.is_punct(k, "::")
    if rooted:
        k += 1
    if k >= len(t) or t[k].kind != "id":
        return None
    name = k
    k += 1
    while view.is_punct(k, "::"):
        if k + 1 >= len(t) or t[k + 1].kind != "id":
            return None
        qualifier.append(t[name].text)
        name = k + 1
        k += 2
    template = view.is_punct(k, "<")
    if template:
        gt = view.angle_partner(k, 1, skip=("(", "["),
                                ends=lambda tok: tok.kind == "punct" and tok.text in (";", "{", "}"))
        if gt < 0:
            return None
        k = gt + 1
    if not view.is_punct(k, ","):
        return None
    return paren, k, name, (None if rooted and not qualifier else tuple(qualifier)), template
