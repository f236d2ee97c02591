# SPDX-License-Identifier: MIT
"""C and C++ source as tokens, and a cursor over them: the layer through which the rewrite
(rewrite.py) and the phases (phases.py) read a file.

Every character belongs to a token (whitespace, comments and directives included), so the texts
concatenate back to the source and each token knows its line. The cursor walks a token list by
index: the significant tokens (not TRIVIA), the partner of a bracket, the other end of a template
argument list; each scan is written once and told its direction.
"""

import re

TRIVIA = ("ws", "nl", "comment")  # what separates tokens and means nothing
OPEN = {"(": ")", "[": "]", "{": "}"}
CLOSE = {")": "(", "]": "[", "}": "{"}


class RewriteError(Exception):
    """``file:line: cusim nvcc: cannot rewrite <construct>: <why>``: source the tokenizer cannot
    read, or a construct the rewrite cannot rewrite safely (rewrite.py)."""

    def __init__(self, path, line, construct, why):
        super().__init__(f"{path}:{line}: cusim nvcc: cannot rewrite {construct}: {why}")


class Token:
    __slots__ = ("kind", "text", "line")

    def __init__(self, kind, text, line):
        self.kind = kind  # ws, nl, comment, pp, str, chr, id, num, punct
        self.text = text
        self.line = line

    def __repr__(self):
        return f"Token({self.kind}, {self.text!r}, {self.line})"


_STRING_PREFIXES = ("u8R", "LR", "uR", "UR", "R", "u8", "L", "u", "U")
_PUNCT = ("->*", "...", "::", "->", ".*", "++", "--", "&&", "||", "==", "!=", "+=", "-=", "*=",
          "/=", "%=", "&=", "|=", "^=", "##")
_ID_START = re.compile(r"[A-Za-z_$]")
_ID = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")
_NUMBER = re.compile(r"\.?[0-9](?:[eEpP][+-]|'[0-9A-Za-z_]|[0-9A-Za-z_.])*")


def _skip_quoted(src, i, quote, path, line):
    """Index just past the literal whose opening quote is at i."""
    n = len(src)
    j = i + 1
    while j < n:
        c = src[j]
        if c == "\\":
            j += 2
            continue
        if c == quote:
            return j + 1
        if c == "\n":
            break
        j += 1
    what = "string literal" if quote == '"' else "character literal"
    raise RewriteError(path, line, "the file", f"unterminated {what}")


def _skip_raw(src, i, path, line):
    """i is at the opening quote of R"delim( ... )delim"."""
    m = re.compile(r'"([^()\\\s]{0,16})\(').match(src, i)
    if not m:
        raise RewriteError(path, line, "the file", "malformed raw string literal")
    end = src.find(")" + m.group(1) + '"', m.end())
    if end < 0:
        raise RewriteError(path, line, "the file", "unterminated raw string literal")
    return end + len(m.group(1)) + 2


def tokenize(src, path="<input>"):
    """Splits C/C++ source into tokens whose texts concatenate back to src exactly."""
    tokens = []
    n = len(src)
    i = 0
    line = 1
    at_line_start = True
    while i < n:
        c = src[i]
        start = i
        if c == "\n":
            tokens.append(Token("nl", "\n", line))
            line += 1
            i += 1
            at_line_start = True
            continue
        if c in " \t\r\f\v" or (c == "\\" and src.startswith("\\\n", i)):
            while i < n and (src[i] in " \t\r\f\v" or src.startswith("\\\n", i)):
                i += 2 if src[i] == "\\" else 1
            text = src[start:i]
            tokens.append(Token("ws", text, line))
            line += text.count("\n")
            continue
        if src.startswith("//", i):
            while i < n and src[i] != "\n":
                i += 2 if src.startswith("\\\n", i) else 1
            text = src[start:i]
            tokens.append(Token("comment", text, line))
            line += text.count("\n")
            continue
        if src.startswith("/*", i):
            end = src.find("*/", i + 2)
            if end < 0:
                raise RewriteError(path, line, "the file", "unterminated comment")
            i = end + 2
            text = src[start:i]
            tokens.append(Token("comment", text, line))
            line += text.count("\n")
            continue
        if c == "#" and at_line_start:
            # A directive runs to the end of its (continued) line; comments and literals inside it
            # are skipped whole so that a /* */ spanning lines or a "//" in a string is no end.
            while i < n and src[i] != "\n":
                if src.startswith("\\\n", i):
                    i += 2
                elif src.startswith("//", i):
                    while i < n and src[i] != "\n":
                        i += 2 if src.startswith("\\\n", i) else 1
                elif src.startswith("/*", i):
                    end = src.find("*/", i + 2)
                    if end < 0:
                        raise RewriteError(path, line, "the file", "unterminated comment")
                    i = end + 2
                elif src[i] in "\"'":
                    i = _skip_quoted(src, i, src[i], path, line)
                else:
                    i += 1
            text = src[start:i]
            tokens.append(Token("pp", text, line))
            line += text.count("\n")
            continue
        at_line_start = False
        if _ID_START.match(c):
            m = _ID.match(src, i)
            word = m.group(0)
            j = m.end()
            if j < n and src[j] in "\"'" and word in _STRING_PREFIXES:
                if word.endswith("R") and src[j] == '"':
                    i = _skip_raw(src, j, path, line)
                else:
                    i = _skip_quoted(src, j, src[j], path, line)
                text = src[start:i]
                tokens.append(Token("str" if src[j] == '"' else "chr", text, line))
                line += text.count("\n")
                continue
            tokens.append(Token("id", word, line))
            i = j
            continue
        if c.isdigit() or (c == "." and i + 1 < n and src[i + 1].isdigit()):
            m = _NUMBER.match(src, i)
            tokens.append(Token("num", m.group(0), line))
            i = m.end()
            continue
        if c in "\"'":
            i = _skip_quoted(src, i, c, path, line)
            tokens.append(Token("str" if c == '"' else "chr", src[start:i], line))
            continue
        for p in _PUNCT:
            if src.startswith(p, i):
                tokens.append(Token("punct", p, line))
                i += len(p)
                break
        else:
            # < and > stay single characters: <<< is three of them, and >>> may close templates.
            tokens.append(Token("punct", c, line))
            i += 1
    return tokens


def line_directive(line, path):
    """`#line line "path"` and its newline, path spelled as a string literal."""
    escaped = path.replace("\\", "\\\\").replace('"', '\\"')
    return f'#line {line} "{escaped}"\n'


class Cursor:
    """Navigation over the token list `t` by index. A scan that runs off either end answers -1
    (prev_sig: -1, next_sig: len(t)); none raises."""

    def __init__(self, tokens):
        self.t = tokens

    def next_sig(self, i):
        """The first significant token after i."""
        i += 1
        while i < len(self.t) and self.t[i].kind in TRIVIA:
            i += 1
        return i

    def prev_sig(self, i):
        """The last significant token before i."""
        i -= 1
        while i >= 0 and self.t[i].kind in TRIVIA:
            i -= 1
        return i

    def sig_between(self, a, b):
        """The significant tokens strictly between a and b."""
        return [m for m in range(a + 1, b) if self.t[m].kind not in TRIVIA]

    def is_punct(self, i, text):
        return 0 <= i < len(self.t) and self.t[i].kind == "punct" and self.t[i].text == text

    def adjacent(self, i, n, ch):
        """Tokens i..i+n-1 are each the punctuator ch, with nothing between them."""
        return all(self.is_punct(i + k, ch) for k in range(n))

    def match_forward(self, i):
        """i is at an opening (, [ or {: the index of its closing partner, or -1."""
        return self._match(i, 1)

    def match_backward(self, i):
        """i is at a closing ), ] or }: the index of its opening partner, or -1."""
        return self._match(i, -1)

    def _match(self, i, step):
        into, out_of = (OPEN, CLOSE) if step > 0 else (CLOSE, OPEN)
        stack = []
        j = i
        while 0 <= j < len(self.t):
            tok = self.t[j]
            if tok.kind == "punct":
                if tok.text in into:
                    stack.append(into[tok.text])
                elif tok.text in out_of:
                    if not stack or stack.pop() != tok.text:
                        return -1
                    if not stack:
                        return j
            j += step
        return -1

    def angle_partner(self, i, step, skip=(), ends=None, limit=None):
        """i is at the `<` (step 1) or the `>` (step -1) of a template argument list: the index of
        the other end, or -1. A bracket of `skip` opening a group in the scan's direction ( ( or [
        forwards, ) or ] backwards) passes the group whole; a token `ends(tok)` is true of stops the
        scan, as does reaching `limit` (by default, the end of the tokens in that direction)."""
        near, far = ("<", ">") if step > 0 else (">", "<")
        if limit is None:
            limit = len(self.t) if step > 0 else -1
        depth = 0
        j = i
        while (j < limit) if step > 0 else (j > limit):
            tok = self.t[j]
            if ends is not None and ends(tok):
                return -1
            if tok.kind == "punct":
                if tok.text in skip:
                    j = self._match(j, step)
                    if j < 0:
                        return -1
                elif tok.text == near:
                    depth += 1
                elif tok.text == far:
                    depth -= 1
                    if depth == 0:
                        return j
            j += step
        return -1
