# SPDX-License-Identifier: MIT
"""Unit tests of the nvcc driver's include graph (tools/nvcc/includes.py): which headers are the
user's, which get a copy, how a copy's includes name the copies, and the make escaping of paths.
The rewrite is stood in for by a transform that marks what it changed.

    python3 tests/driver/test_includes.py [-v] [TestCase.test_name]
"""

import os
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools", "nvcc"))
import includes  # noqa: E402


def mark(text, name):
    """The stand-in rewrite: a file saying KERNEL needs it."""
    return text.replace("KERNEL", "REWRITTEN")


class Graph(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = os.path.realpath(self.tmp.name)

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, name, text):
        path = os.path.join(self.dir, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
        return path

    def graph(self, source="a.cu", quoted=(), dirs=(), not_user=(), transform=mark):
        src = os.path.join(self.dir, source)
        search = includes.Search([self.dir] + [os.path.join(self.dir, d) for d in quoted],
                                 [os.path.join(self.dir, d) for d in dirs])
        return includes.IncludeGraph(src, search, [os.path.join(self.dir, d) for d in not_user], transform)

    def node(self, graph, name):
        return graph.nodes[os.path.join(self.dir, name)]

    def test_a_header_needing_the_rewrite_and_every_header_including_it_are_copied(self):
        self.write("a.cu", '#include "outer.h"\n#include "plain.h"\n')
        self.write("outer.h", '#include "inner.h"\n')
        self.write("inner.h", "KERNEL\n")
        self.write("plain.h", "int x;\n")
        g = self.graph()
        self.assertEqual({os.path.basename(p): n.copied for p, n in g.nodes.items()},
                         {"a.cu": True, "outer.h": True, "inner.h": True, "plain.h": False})

    def test_nothing_is_copied_when_nothing_needs_the_rewrite(self):
        self.write("a.cu", '#include "plain.h"\n')
        self.write("plain.h", "int x;\n")
        self.assertFalse(self.graph().root.copied)

    def test_a_cycle_of_includes_ends_and_is_copied_whole(self):
        self.write("a.cu", '#include "x.h"\n')
        self.write("x.h", '#pragma once\n#include "y.h"\n')
        self.write("y.h", '#pragma once\n#include "x.h"\nKERNEL\n')
        g = self.graph()
        self.assertTrue(self.node(g, "x.h").copied and self.node(g, "y.h").copied)

    def test_quoted_includes_search_the_includer_first_and_angled_ones_only_the_include_directories(self):
        self.write("a.cu", '#include "sub/s.h"\n#include <k.h>\n')
        self.write("sub/s.h", '#include "k.h"\n')  # finds sub/k.h, beside it
        self.write("sub/k.h", "KERNEL sub\n")
        self.write("k.h", "KERNEL top\n")  # beside a.cu: not searched for <k.h>
        self.write("inc/k.h", "KERNEL inc\n")
        g = self.graph(dirs=["inc"])
        self.assertEqual(sorted(os.path.relpath(p, self.dir) for p in g.nodes),
                         ["a.cu", "inc/k.h", "sub/k.h", "sub/s.h"])

    def test_headers_under_the_toolkit_or_the_system_are_not_the_users_and_stop_the_search(self):
        self.write("a.cu", '#include <k.h>\n#include "stdio.h"\n')
        self.write("toolkit/k.h", "KERNEL\n")
        self.write("later/k.h", "KERNEL\n")  # after the toolkit in the search: never reached
        g = self.graph(dirs=["toolkit", "later"], not_user=["toolkit"])
        self.assertEqual(list(g.nodes), [os.path.join(self.dir, "a.cu")])
        self.assertEqual(g.root.includes, [])

    def test_a_header_reached_by_two_paths_is_one_node(self):
        self.write("a.cu", '#include "h.h"\n#include "sub/../h.h"\n#include "link.h"\n')
        self.write("h.h", "KERNEL\n")
        os.makedirs(os.path.join(self.dir, "sub"))
        os.symlink(os.path.join(self.dir, "h.h"), os.path.join(self.dir, "link.h"))
        g = self.graph()
        self.assertEqual(len(g.nodes), 2)
        self.assertEqual([k for _, k in g.root.includes], [os.path.join(self.dir, "h.h")] * 3)

    def test_macro_includes_missing_headers_and_commented_ones_are_left_to_the_compiler_or_followed(self):
        self.write("a.cu", '#include HEADER\n#include "missing.h"\n#if 0\n#include "off.h"\n#endif\n')
        self.write("off.h", "KERNEL\n")
        g = self.graph()
        self.assertEqual([os.path.basename(k) for _, k in g.root.includes], ["off.h"])  # conditional: followed
        self.assertEqual(g.root.includes[0][0], 3)  # the line index of the #include

    def test_a_copys_includes_name_the_copies_and_the_originals_by_absolute_path(self):
        self.write("a.cu", 'KERNEL\n#include "k.h"\n  #  include <p.h> // kept\n')
        self.write("k.h", "KERNEL\n")
        self.write("inc/p.h", "int p;\n")
        g = self.graph(dirs=["inc"])
        self.node(g, "k.h").copy = "/copies/k.h"
        self.assertEqual(g.text_of(g.root), 'REWRITTEN\n#include "/copies/k.h"\n  #  include "'
                         + os.path.join(self.dir, "inc", "p.h") + '" // kept\n')

    def test_a_copy_opens_with_a_line_directive_naming_its_original(self):
        self.write("a.cu", '#include "k.h"\n')
        self.write("k.h", "KERNEL\n")
        g = self.graph()
        k = self.node(g, "k.h")
        k.copy = "/copies/k.h"
        self.assertEqual(g.copy_text(k), f'#line 1 "{k.path}"\nREWRITTEN\n')
        self.assertTrue(g.copy_text(g.root).startswith(f'#line 1 "{os.path.join(self.dir, "a.cu")}"\n'))

    def test_includes_are_found_again_past_the_lines_a_rewrite_adds(self):
        # A rewrite may add #line-mapped lines (a kernel's phased form): each #include is found on
        # its line in the rewritten text all the same.
        def add_lines(text, name):
            return text.replace("KERNEL\n", f'KERNEL {{\n#line 1 "{name}"\nadded\nadded\n}}\n#line 2 "{name}"\n')
        self.write("a.cu", 'KERNEL\n#include "k.h"\n')
        self.write("k.h", "KERNEL\n")
        g = self.graph(transform=add_lines)
        self.node(g, "k.h").copy = "/copies/k.h"
        self.assertTrue(g.text_of(g.root).endswith('\n#include "/copies/k.h"\n'))

    def test_the_transforms_error_propagates(self):
        def refuse(text, name):
            raise ValueError(name)
        self.write("a.cu", "int x;\n")
        with self.assertRaises(ValueError):
            self.graph(transform=refuse)


class MakeEscape(unittest.TestCase):
    def test_spaces_hashes_and_dollars_are_escaped_for_make(self):
        self.assertEqual(includes.make_escape("/a b/#c$d.cu"), "/a\\ b/\\#c$$d.cu")


if __name__ == "__main__":
    unittest.main()
