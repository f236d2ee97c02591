# SPDX-License-Identifier: MIT
"""Unit tests of the launch spelling of cusim_add_executable's copies (tools/nvcc/launch_spelling.py
and its use by phase_copy.py): which `cusim::launch(kernel, ...)` become `cusim::launch<kernel>(...)`,
which stay as they are, and that every line keeps its number; then phase_copy.py on
tests/api/launch_spellings.cu (whose launches that test runs), a header's launches, and a build
for stepping through kernels, which is left alone.

    python3 tests/driver/test_launch_spelling.py [-v] [TestCase.test_name]
"""

import os
import re
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tools", "nvcc"))
import launch_spelling  # noqa: E402
import phase_copy  # noqa: E402

KERNELS = """
namespace ns { __global__ void nk(cusim::span<int> o) {} }
template <class T> __global__ void tk(cusim::span<T> o, T v) {}
template <int N>
static __global__ void __launch_bounds__(256) tn(cusim::span<int> o) {}
__global__ void __launch_bounds__(256) add(cusim::span<float> c) {}
"""


def respell(body, kernels=KERNELS):
    text = kernels + body
    out = launch_spelling.respell(text, launch_spelling.Program([text]))
    assert out.count("\n") == text.count("\n"), "a line lost or added"
    return out[len(kernels):]


class Respelled(unittest.TestCase):
    def test_a_kernel_by_name(self):
        self.assertEqual(respell("cusim::launch(add, 1, 256, c);"), "cusim::launch<add>( 1, 256, c);")

    def test_qualified_kernels_and_address(self):
        self.assertEqual(respell("cusim::launch(ns::nk, g, b, o);"), "cusim::launch<ns::nk>( g, b, o);")
        self.assertEqual(respell("::cusim::launch(&add, cfg, c);"), "::cusim::launch<&add>( cfg, c);")
        self.assertEqual(respell("cusim::launch(::ns::nk, g, b, o);"), "cusim::launch< ::ns::nk>( g, b, o);")

    def test_template_kernels_with_their_arguments(self):
        self.assertEqual(respell("cusim::launch(tk<float>, g, b, o, 1.f);"), "cusim::launch<tk<float>>( g, b, o, 1.f);")
        self.assertEqual(respell("cusim::launch(tk<unsigned int>, g, b, o, 1u);"),
                         "cusim::launch<tk<unsigned int>>( g, b, o, 1u);")
        self.assertEqual(respell("cusim::launch(tn<(3 > 2)>, g, b, o);"), "cusim::launch<tn<(3 > 2)>>( g, b, o);")
        # A comma of the template arguments in parentheses: a macro's argument stays one.
        self.assertEqual(respell("CHECK(cusim::launch(tm<int, 2>, g, b, o));", KERNELS + "template <class T, int N> __global__ void tm(T) {}\n"),
                         "CHECK(cusim::launch<(tm<int, 2>)>( g, b, o));")

    def test_cooperative(self):
        self.assertEqual(respell("cusim::launch_cooperative(add, cfg, c);"), "cusim::launch_cooperative<add>( cfg, c);")

    def test_lines_keep_their_numbers(self):
        self.assertEqual(respell("cusim::launch(\n  add, // the kernel\n  1, 256, c);"),
                         "cusim::launch<add>(\n // the kernel\n  1, 256, c);")
        self.assertEqual(respell("cusim::launch( /* kernel: */ add\n,\n  1, 256, c);"),
                         "cusim::launch<add>(\n\n  1, 256, c);")

    def test_a_macro_body_naming_a_kernel(self):
        self.assertEqual(respell("#define GO(n) cusim::launch(add, \\\n n, 1, c)\nGO(3);"),
                         "#define GO(n) cusim::launch<add>( \\\n n, 1, c)\nGO(3);")

    def test_names_the_launch_cannot_see(self):
        # A host function of the kernel's name in another namespace, a variable in another function.
        self.assertEqual(respell("namespace ref { void add(std::vector<float>& c); }\n"
                                 "void g() { auto add = 1; }\nvoid f() { cusim::launch(add, 1, 2, c); }"),
                         "namespace ref { void add(std::vector<float>& c); }\n"
                         "void g() { auto add = 1; }\nvoid f() { cusim::launch<add>( 1, 2, c); }")
        self.assertEqual(respell("void f(float* add);\nvoid g() { cusim::launch(ns::nk, 1, 2, c); }\n"
                                 "namespace ns { void h(int nk); }"),
                         "void f(float* add);\nvoid g() { cusim::launch<ns::nk>( 1, 2, c); }\n"
                         "namespace ns { void h(int nk); }")

    def test_unqualified_with_using_namespace(self):
        self.assertEqual(respell("using namespace cusim;\nvoid f() { launch(add, 1, 2, c); }"),
                         "using namespace cusim;\nvoid f() { launch<add>( 1, 2, c); }")
        self.assertEqual(respell("using cusim::launch;\nvoid f() { launch(add, 1, 2, c); }"),
                         "using cusim::launch;\nvoid f() { launch<add>( 1, 2, c); }")


class LeftAsItIs(unittest.TestCase):
    def unchanged(self, body, kernels=KERNELS):
        self.assertEqual(respell(body, kernels), body)

    def test_kernels_through_variables_and_parameters(self):
        self.unchanged("void f(void (*k)(cusim::span<float>)) { cusim::launch(k, 1, 2, c); }")
        self.unchanged("void f() { auto k = &add; cusim::launch(k, 1, 2, c); }")

    def test_a_variable_or_host_function_named_like_a_kernel(self):
        self.unchanged("void f() { auto add = &other; cusim::launch(add, 1, 2, c); }")
        self.unchanged("void g(void (*add)(cusim::span<float>)) { cusim::launch(add, 1, 2, c); }")
        self.unchanged("int add(int);\nvoid f() { cusim::launch(add, 1, 2, c); }")
        self.unchanged("std::function<void()> add;\nvoid f() { cusim::launch(add, 1, 2, c); }")
        self.unchanged("struct S { void (*add)(cusim::span<float>); };\nvoid f() { cusim::launch(add, 1, 2, c); }")

    def test_names_the_launch_sees(self):
        self.unchanged("namespace ref { int add(int); }\nusing namespace ref;\nvoid f() { cusim::launch(add, 1, 2, c); }")
        self.unchanged("namespace ref { int add(int); }\nusing ref::add;\nvoid f() { cusim::launch(add, 1, 2, c); }")
        self.unchanged("namespace ns { int nk; }\nvoid f() { cusim::launch(ns::nk, 1, 2, c); }")
        self.unchanged("namespace ref { int add(int);\nvoid f() { cusim::launch(add, 1, 2, c); } }")
        self.unchanged("void f() { auto run = [&](void (*add)(cusim::span<float>)) { cusim::launch(add, 1, 2, c); }; }")
        self.unchanged("struct S { void f(float* add) { cusim::launch(add, 1, 2, c); } };")
        self.unchanged("void S::f(int add) { cusim::launch(add, 1, 2, c); }")

    def test_a_macro_parameter(self):
        self.unchanged("#define GO(add, ...) cusim::launch(add, __VA_ARGS__)\nGO(add, 1, 2, c);")

    def test_what_is_no_named_kernel(self):
        self.unchanged("cusim::launch(tk, 1, 2, o, 1);")  # a template without its arguments: no launch either way
        self.unchanged("cusim::launch(add<int>, 1, 2, c);")  # not a template
        self.unchanged("cusim::launch(kernels[0], 1, 2, c);")
        self.unchanged("cusim::launch(s.add, 1, 2, c);")
        self.unchanged("cusim::launch(pick(add), 1, 2, c);")
        self.unchanged("cusim::launch(add ? x : y, 1, 2, c);")

    def test_not_cusims_launch(self):
        self.unchanged("void f() { launch(add, 1, 2, c); }")  # no using: the program's own launch
        self.unchanged("void f() { x.launch(add, 1, 2, c); p->launch(add, 1); other::launch(add, 1); }")
        self.unchanged("using namespace cusim;\nvoid launch(int);\nvoid f() { launch(add, 1, 2, c); }")
        self.unchanged('const char* s = "cusim::launch(add, 1, 2, c)"; // cusim::launch(add, 1)')
        self.unchanged("cusim::launch<add>(1, 2, c);")


class Copies(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = os.path.realpath(self.tmp.name)

    def tearDown(self):
        self.tmp.cleanup()

    def copy_of(self, source, config="Release", include_dirs=()):
        copy = os.path.join(self.dir, "copy", os.path.basename(source))
        phase_copy.write_copy(source, copy, config, include_dirs=include_dirs)
        with open(copy) as f:
            return f.read()

    def test_the_api_tests_launches(self):
        source = os.path.join(HERE, "..", "api", "launch_spellings.cu")
        with open(source) as f:
            original = f.read()
        copy = self.copy_of(source)
        self.assertEqual(copy.count("\n"), original.count("\n") + 1 + copy.count("\n#line "))  # the #line lines
        code = re.sub(r"//[^\n]*", "", copy)
        spelled = sorted(set(re.findall(r"launch(?:_cooperative)?<[^(;]*>\(", code)))
        self.assertEqual(spelled, sorted([
            "launch<add_one>(",  # in LAUNCH_ADD_ONE's body, and beside the explicit launch<add_one>
            "launch<block_sums>(",  # a kernel with barriers
            "launch<overrun>(", "launch<scale<float>>(", "launch<scale<int>>(", "launch<spelled::fill>(",
            "launch<spelled::inner::negate>(", "launch<&spelled::fill>(", "launch_cooperative<neighbours>("]))
        # What stays: kernels through variables, parameters and a macro's parameter.
        for call in ("cusim::launch(kernel, 1, 64, out);", "cusim::launch(k, 1, 64, out);",
                     "cusim::launch(kernel, __VA_ARGS__)", "cusim::launch(kernel, 2, 32, out)"):
            self.assertIn(call, copy)
        self.assertNotIn("cusim::launch(spelled::", copy)

    def test_a_headers_launches_and_kernels(self):
        self.write_file("inc/k.cuh", "#pragma once\n__global__ void hk(cusim::span<int> o) {}\n"
                                     "inline void go(cusim::span<int> o) { cusim::launch(hk, 1, 1, o); }\n")
        source = self.write_file("a.cu", '#include "k.cuh"\nvoid f(cusim::span<int> o) { cusim::launch(hk, 2, 2, o); }\n')
        copy = self.copy_of(source, include_dirs=[os.path.join(self.dir, "inc")])
        self.assertIn("cusim::launch<hk>( 2, 2, o);", copy)
        header = re.search(r'#include "([^"]*k\.cuh)"', copy).group(1)
        with open(header) as f:
            self.assertIn("cusim::launch<hk>( 1, 1, o);", f.read())

    def test_a_header_it_cannot_read_stops_the_respelling_not_the_copy(self):
        # The header's `isn't` is no token sequence the rewrite can read: what it declares is
        # unknown, so no launch is respelled; the copy is made all the same.
        self.write_file("h.h", "#if 0\ncusim isn't here\n#endif\n")
        source = self.write_file("a.cu", '#include "h.h"\n__global__ void k(int) {}\n'
                                         "void f() { cusim::launch(k, 1, 1, 0); }\n")
        copy = self.copy_of(source)
        self.assertIn("cusim::launch(k, 1, 1, 0);", copy)
        self.assertIn('#include "' + os.path.join(self.dir, "h.h") + '"', copy)  # the graph's copy, not the source

    def test_a_build_for_stepping_through_kernels_is_left_alone(self):
        source = self.write_file("a.cu", "__global__ void k(int) {}\nvoid f() { cusim::launch(k, 1, 1, 0); }\n")
        self.assertIn("cusim::launch(k, 1, 1, 0);", self.copy_of(source, config="Debug"))
        self.assertIn("cusim::launch<k>( 1, 1, 0);", self.copy_of(source, config="RelWithDebInfo"))

    def write_file(self, name, text):
        path = os.path.join(self.dir, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
        return path


if __name__ == "__main__":
    unittest.main()
