# SPDX-License-Identifier: MIT
"""Unit tests of the nvcc driver's token layer (tools/nvcc/tokens.py): the tokenizer's kinds, lines
and lossless texts, its refusals with their messages, the #line directive, and the cursor's scans
in both directions.

    python3 tests/driver/test_tokens.py [-v] [TestCase.test_name]
"""

import os
import sys
import unittest

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools", "nvcc"))
import tokens  # noqa: E402


def kinds(src):
    return [(t.kind, t.text) for t in tokens.tokenize(src) if t.kind not in tokens.TRIVIA]


def cursor(src):
    """A cursor over src's tokens, and the index of each significant token, in order."""
    c = tokens.Cursor(tokens.tokenize(src))
    return c, [k for k, t in enumerate(c.t) if t.kind not in tokens.TRIVIA]


class Tokenize(unittest.TestCase):
    def test_the_texts_concatenate_back_to_the_source(self):
        src = ('#include <a.h>\n/* c\n */ int x = u8"s" L\'c\' R"d(raw)" ")d" 0x1p-3f;\\\n'
               "a->*b ... // tail\\\nstill comment\n#define M(x) \\\n  x\n")
        self.assertEqual("".join(t.text for t in tokens.tokenize(src)), src)

    def test_each_token_has_its_kind(self):
        self.assertEqual(kinds('a1 = 1.5e+3 + \'c\' + "s" + 1\'000;'),
                         [("id", "a1"), ("punct", "="), ("num", "1.5e+3"), ("punct", "+"), ("chr", "'c'"),
                          ("punct", "+"), ("str", '"s"'), ("punct", "+"), ("num", "1'000"), ("punct", ";")])

    def test_a_directive_is_one_token_to_the_end_of_its_continued_line(self):
        src = '#define A "//" /* x\n y */ \\\n b\nc'
        toks = tokens.tokenize(src)
        self.assertEqual((toks[0].kind, toks[0].text), ("pp", '#define A "//" /* x\n y */ \\\n b'))
        self.assertEqual((toks[-1].kind, toks[-1].text, toks[-1].line), ("id", "c", 4))

    def test_a_hash_after_other_tokens_is_no_directive(self):
        self.assertEqual(kinds("a # b"), [("id", "a"), ("punct", "#"), ("id", "b")])

    def test_angle_brackets_stay_single_so_that_a_launch_is_three(self):
        self.assertEqual([t for _, t in kinds("k<<<1, 2>>>(x) >>= a << b")],
                         ["k", "<", "<", "<", "1", ",", "2", ">", ">", ">", "(", "x", ")", ">", ">", "=",
                          "a", "<", "<", "b"])

    def test_string_prefixes_and_raw_strings_are_one_literal(self):
        self.assertEqual(kinds('u8R"x(a)"b)x" LR"(c)" U\'d\''),
                         [("str", 'u8R"x(a)"b)x"'), ("str", 'LR"(c)"'), ("chr", "U'd'")])

    def test_lines_count_newlines_in_comments_raw_strings_and_continuations(self):
        src = 'a /* 1\n2 */ b R"(3\n4)" c \\\n d\ne'
        lines = {t.text: t.line for t in tokens.tokenize(src) if t.kind == "id"}
        self.assertEqual(lines, {"a": 1, "b": 2, "c": 3, "d": 4, "e": 5})

    def test_what_cannot_be_read_is_refused_with_file_line_and_why(self):
        for src, line, why in (("int a;\n/* open", 2, "unterminated comment"),
                               ('x;\ny = "open\n";', 2, "unterminated string literal"),
                               ("\n\nc = 'x", 3, "unterminated character literal"),
                               ('r = R"abc', 1, "malformed raw string literal"),
                               ('r = R"d(never', 1, "unterminated raw string literal")):
            with self.subTest(src=src):
                with self.assertRaises(tokens.RewriteError) as e:
                    tokens.tokenize(src, "t.cu")
                self.assertEqual(str(e.exception), f"t.cu:{line}: cusim nvcc: cannot rewrite the file: {why}")


class LineDirective(unittest.TestCase):
    def test_the_path_is_spelled_as_a_string_literal(self):
        self.assertEqual(tokens.line_directive(7, 'C:\\dir\\"q".cu'), '#line 7 "C:\\\\dir\\\\\\"q\\".cu"\n')

    def test_a_plain_path_is_as_it_is(self):
        self.assertEqual(tokens.line_directive(1, "/src/a.cu"), '#line 1 "/src/a.cu"\n')


class Cursor(unittest.TestCase):
    def test_significant_neighbours_skip_whitespace_and_comments_and_stop_at_the_ends(self):
        c, sig = cursor("a /* x */\n // y\n b")
        self.assertEqual(c.next_sig(sig[0]), sig[1])
        self.assertEqual(c.prev_sig(sig[1]), sig[0])
        self.assertEqual(c.next_sig(sig[1]), len(c.t))
        self.assertEqual(c.prev_sig(sig[0]), -1)
        self.assertEqual(c.sig_between(sig[0], sig[1]), [])
        self.assertEqual(c.sig_between(-1, len(c.t)), sig)

    def test_brackets_are_matched_both_ways_over_nested_groups(self):
        c, sig = cursor("f(a[1], {b}) + g()")
        paren, bracket, brace = sig[1], sig[3], sig[7]
        self.assertEqual(c.match_forward(paren), sig[10])
        self.assertEqual(c.match_backward(sig[10]), paren)
        self.assertEqual(c.match_forward(bracket), sig[5])
        self.assertEqual(c.match_backward(sig[9]), brace)
        self.assertEqual(c.match_forward(sig[13]), sig[14])

    def test_a_mismatched_or_unclosed_bracket_has_no_partner(self):
        c, sig = cursor("( a ] ) [ b")
        self.assertEqual(c.match_forward(sig[0]), -1)
        self.assertEqual(c.match_backward(sig[3]), -1)
        self.assertEqual(c.match_forward(sig[4]), -1)

    def test_punctuators_and_adjacent_runs(self):
        c, sig = cursor("a <<< b >> > c")
        self.assertTrue(c.is_punct(sig[1], "<"))
        self.assertFalse(c.is_punct(sig[0], "<"))
        self.assertFalse(c.is_punct(len(c.t), "<"))
        self.assertTrue(c.adjacent(sig[1], 3, "<"))
        self.assertFalse(c.adjacent(sig[5], 3, ">"))  # `>> >`: whitespace between

    def test_an_angle_scan_finds_the_other_end_in_either_direction(self):
        c, sig = cursor("f<a<b>, c<d<e>>>(x)")
        lt, gt = sig[1], sig[14]
        self.assertEqual(c.angle_partner(lt, 1), gt)
        self.assertEqual(c.angle_partner(gt, -1), lt)
        self.assertEqual(c.angle_partner(sig[3], 1), sig[5])

    def test_an_angle_scan_skips_the_groups_it_is_told_to(self):
        c, sig = cursor("t<(a > b)>")
        lt, gt = sig[1], sig[7]
        self.assertEqual(c.angle_partner(lt, 1), sig[4])  # the > inside the parentheses
        self.assertEqual(c.angle_partner(lt, 1, skip=("(",)), gt)
        self.assertEqual(c.angle_partner(gt, -1, skip=(")",)), lt)

    def test_an_angle_scan_stops_where_it_is_told_and_at_its_limit(self):
        c, sig = cursor("a < b; c > d")
        self.assertEqual(c.angle_partner(sig[1], 1), sig[5])
        self.assertEqual(c.angle_partner(sig[1], 1, ends=lambda t: t.text == ";"), -1)
        self.assertEqual(c.angle_partner(sig[5], -1, ends=lambda t: t.text == ";"), -1)
        self.assertEqual(c.angle_partner(sig[1], 1, limit=sig[5]), -1)
        self.assertEqual(c.angle_partner(sig[5], -1, limit=sig[1]), -1)
        self.assertEqual(c.angle_partner(sig[5], -1, limit=sig[1] - 1), sig[1])

    def test_an_unbalanced_skipped_group_ends_the_scan(self):
        c, sig = cursor("t< ( >")
        self.assertEqual(c.angle_partner(sig[1], 1, skip=("(",)), -1)


if __name__ == "__main__":
    unittest.main()
