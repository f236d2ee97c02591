# SPDX-License-Identifier: MIT
"""Unit tests of the nvcc driver's token rewrite (tools/nvcc/rewrite.py): input snippets and the
exact text they become, line counts kept, and the constructs refused with their messages.

    python3 tests/driver/test_rewrite.py [-v] [TestCase.test_name]
"""

import os
import re
import sys
import unittest

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools", "nvcc"))
import rewrite  # noqa: E402

KEY = "::cusim::detail::source_location::current()"


def shared(n, name, targs):
    """A __shared__ declarator's rewrite; an array's also names it for bounds faults."""
    text = (f"static constexpr char cusim_shared_key_{n} = 0; auto& {name} = "
            f"::cusim::detail::shared_variable<{targs}>(&cusim_shared_key_{n}, {KEY});")
    if "[" in targs:
        text += (f" [[maybe_unused]] static const bool cusim_shared_key_{n}_named = "
                 f"::cusim::detail::name_array(\"{name}\", ::cusim::memory_space::shared);")
    return text



def launch(kernel, config, args):
    """What `kernel<<<config>>>(args)` becomes: the configuration first, then a probe of the
    kernel's address, a per-thread call of the kernel, and the arguments."""
    probe = (f"[=](auto cusim_t) -> decltype(::cusim::detail::kernel_pointer<decltype(cusim_t)>({kernel})) "
             f"{{ return ::cusim::detail::kernel_pointer<decltype(cusim_t)>({kernel}); }}")
    call = f"[=](auto&... cusim_a) CUSIM_KERNEL_CALL {{ {kernel}(cusim_a...); }}"
    return f"::cusim::detail::chevron({config})({probe}, {call}" + (f", {args})" if args else ")")


def unmarked(out):
    """The rewrite's output without the host functions' marks, in each form they take
    (rewrite.py: place_host_mark, mark_host_lambda)."""
    m = rewrite.HOST_CODE_MACRO
    for mark in (" () " + m, m + " ", " " + m, m):
        out = out.replace(mark, "")
    return out


# The tag the rewrite of "t.cu" puts in its namespace-scope names (rewrite.py: _Rewriter.tag).
TAG = rewrite._Rewriter([], "t.cu").tag


class Rewrite(unittest.TestCase):
    def check(self, src, expected, registrations=False, lines=0, host_marks=False):
        """`registrations`: compare the kernels' registrations too (else they are left out);
        `host_marks`: the host functions' marks too (else they are left out); `lines`: how many
        lines the rewrite adds (#line-mapped ones)."""
        out = rewrite.rewrite(src, "t.cu", phases=False)
        if not registrations:
            out = re.sub(r" \[\[maybe_unused\]\] static const bool cusim_kernel_registered_[^\n]*?\}\);", "", out)
        if not host_marks:
            out = unmarked(out)
        self.assertEqual(out, expected)
        self.assertEqual(out.count("\n"), src.count("\n") + lines, "the line count changed")

    # -- kernels registered for launches by address
    def test_a_kernel_definition_is_registered_after_its_body_on_the_same_line(self):
        self.check("__global__ void k(int* p) {\n  *p = 1;\n}\nint x;\n",
                   "__global__ void k(int* p) {\n  *p = 1;\n} " + rewrite.registration("k", 1, 1, TAG) + "\nint x;\n",
                   registrations=True)

    def test_qualified_static_and_launch_bounds_kernels_are_registered_by_their_names(self):
        src = ("static __global__ void __launch_bounds__(256, 2) a(float* x) {}\n"
               "__global__ void ns::b(const int n) {}\n"
               "extern \"C\" __global__ void c() {}\n")
        self.check(src, "static __global__ void __launch_bounds__(256, 2) a(float* x) {} " + rewrite.registration("a", 1, 1, TAG) +
                   "\n__global__ void ns::b(const int n) {} " + rewrite.registration("ns::b", 2, 2, TAG) +
                   "\nextern \"C\" __global__ void c() {} " + rewrite.registration("c", 3, 3, TAG) + "\n",
                   registrations=True)

    def test_namespace_scope_constant_and_device_arrays_are_named_for_bounds_faults(self):
        src = ("__constant__ float c[17];\nnamespace n { __device__ int g[4][2] = {{1, 2}}, h; }\n"
               "__device__ int f(int x) { return x; }\nstruct S { __device__ int m[2]; };\n")
        name = lambda n, k, v, space: (f" [[maybe_unused]] static const bool cusim_array_named_{TAG}_{n}_{k}_ = "
                                       f"::cusim::detail::name_array(\"{v}\", ::cusim::memory_space::{space});")
        self.check(src, "__constant__ float c[17];" + name(1, 0, "c", "constant") +
                   "\nnamespace n { __device__ int g[4][2] = {{1, 2}}, h;" + name(2, 0, "g", "global") + " }\n"
                   "__device__ int f(int x) { return x; }\nstruct S { __device__ int m[2]; };\n", registrations=True)

    def test_the_names_of_registrations_differ_between_files(self):
        # One translation unit may include several rewritten headers, each with its first kernel
        # opening on the same line.
        a = rewrite.rewrite("__global__ void k() {}\n", "a.cuh")
        b = rewrite.rewrite("__global__ void k2() {}\n", "b.cuh")
        name = lambda out: re.search(r"cusim_kernel_registered_\w+", out).group(0)
        self.assertNotEqual(name(a), name(b))

    def test_templates_declarations_and_host_functions_are_not_registered(self):
        src = ("template <class T> __global__ void t(T* p) {}\n"
               "__global__ void declared(int);\n"
               "__device__ int helper() { return 1; }\n"
               "void host() {}\n")
        self.check(src, src, registrations=True)

    def refuse(self, src, message):
        with self.assertRaises(rewrite.RewriteError) as e:
            rewrite.rewrite(src, "t.cu")
        self.assertEqual(str(e.exception), message)

    # -- launches
    def test_a_launch_with_two_configuration_arguments(self):
        self.check("void f() { k<<<g, b>>>(x, y); }\n",
                   "void f() { " + launch("k", "g, b", "x, y") + "; }\n")

    def test_a_launch_with_shared_bytes_and_a_stream(self):
        self.check("void f() { k<<<g, b, 64, s>>>(); }\n",
                   "void f() { " + launch("k", "g, b, 64, s", "") + "; }\n")

    def test_qualified_and_templated_kernels(self):
        self.check("void f() { ::ns::inner::k<float, 4><<<1, 2>>>(p); }\n",
                   "void f() { " + launch("::ns::inner::k<float, 4>", "1, 2", "p") + "; }\n")
        self.check("void f() { ns::k<std::pair<int, int>><<<1, 2>>>(p); }\n",
                   "void f() { " + launch("ns::k<std::pair<int, int>>", "1, 2", "p") + "; }\n")
        self.check("template <class T> void f() { T::template k<T><<<1, 2>>>(); }\n",
                   "template <class T> void f() { " + launch("T::template k<T>", "1, 2", "") + "; }\n")

    def test_a_parenthesised_kernel_expression(self):
        self.check("void f() { (table[i])<<<1, 2>>>(p); }\n",
                   "void f() { " + launch("(table[i])", "1, 2", "p") + "; }\n")

    def test_a_member_function_pointer_of_an_object(self):
        self.check("void f() { s.kernel<<<1, 2>>>(p); }\n",
                   "void f() { " + launch("s.kernel", "1, 2", "p") + "; }\n")

    def test_configuration_and_arguments_across_lines(self):
        src = "void f() {\n  k<<<dim3(n / 256,\n        1), 256>>>(a,\n    b);\n}\n"
        self.check(src, "void f() {\n  " + launch("k", "dim3(n / 256,\n        1), 256", "a,\n    b") + ";\n}\n")

    def test_shifts_and_templates_inside_the_configuration(self):
        self.check("void f() { k<<<(n >> 1), std::max<int>(a, b)>>>(); }\n",
                   "void f() { " + launch("k", "(n >> 1), std::max<int>(a, b)", "") + "; }\n")

    def test_a_launch_in_a_macro_definition(self):
        self.check("#define LAUNCH(k, n) k<<<n, 32>>>(n)\n",
                   "#define LAUNCH(k, n) " + launch("k", "n, 32", "n") + "\n")

    def test_comments_strings_and_raw_strings_are_kept(self):
        src = ('// k<<<1, 1>>>();\n/* __shared__ int x; */ const char* s = "k<<<1,1>>>()";\n'
               'const char* r = R"x(__shared__ k<<<1,1>>>())x"; char c = \'<\';\n')
        self.check(src, src)

    def test_operator_shift_with_template_arguments_is_not_a_launch(self):
        src = "template <class T> struct S { friend std::ostream& operator<<<T>(std::ostream&, const S&); };\n"
        self.check(src, src)

    def test_closing_template_brackets_are_not_a_launch_end(self):
        src = "std::vector<std::vector<std::vector<int>>> v;\nint x = a << b;\n"
        self.check(src, src)

    # -- __shared__
    def test_a_shared_array_in_a_kernel(self):
        self.check("__global__ void k() {\n  __shared__ float tile[16][16];\n}\n",
                   "__global__ void k() {\n  " + shared(1, "tile", "float[16][16]") + "\n}\n")

    def test_several_declarators_specifiers_and_alignment(self):
        src = "__global__ void k() { static __shared__ __align__(16) volatile int a[4], *p, b; }\n"
        self.check(src, "__global__ void k() { " + " ".join([
            shared(1, "a", "volatile int[4], 16"), shared(2, "p", "volatile int*, 16"),
            shared(3, "b", "volatile int, 16")]) + " }\n")

    def test_a_template_type_with_commas(self):
        self.check("template <class T> __global__ void k() { __shared__ std::pair<T, int> s[2]; }\n",
                   "template <class T> __global__ void k() { " + shared(1, "s", "std::pair<T, int>[2]") + " }\n")

    def test_a_declaration_over_several_lines_keeps_them(self):
        self.check("void k() {\n  __shared__ float\n    s[BLOCK]\n    [BLOCK];\n  s[0][0] = 1;\n}\n",
                   "void k() {\n  " + shared(1, "s", "float[BLOCK][BLOCK]") + "\n\n\n  s[0][0] = 1;\n}\n")

    def test_shared_after_the_type(self):
        # reductionMultiBlockCG: `extern double __shared__ sdata[];`
        self.check("__global__ void k() { extern double __shared__ sdata[]; static unsigned int __shared__ n; }\n",
                   "__global__ void k() { double* const sdata = ::cusim::detail::dynamic_shared_pointer<double>(); " +
                   shared(1, "n", "unsigned int") + " }\n")
        self.check("__global__ void k() { int a; ns::pair<int, 2> __shared__ p[3]; }\n",
                   "__global__ void k() { int a; " + shared(1, "p", "ns::pair<int, 2>[3]") + " }\n")

    def test_extern_shared(self):
        self.check("__global__ void k() { extern __shared__ __align__(8) unsigned char smem[]; }\n",
                   "__global__ void k() { unsigned char* const smem = "
                   "::cusim::detail::dynamic_shared_pointer<unsigned char>(); }\n")

    def test_cusims_checked_shared_arrays_are_left_alone(self):
        src = "__global__ void k() { __shared__ cusim::shared_array<float, 16> s; }\n"
        self.check(src, src)

    def test_shared_in_a_lambda_and_a_nested_block(self):
        self.check("void f() { auto l = [] { if (1) { __shared__ int x; } }; }\n",
                   "void f() { auto l = [] { if (1) { " + shared(1, "x", "int") + " } }; }\n")

    def test_a_kernel_in_a_namespace_with_template_parameters(self):
        self.check("namespace n { template <class T, int N> __global__ void k() { __shared__ T s[N]; } }\n",
                   "namespace n { template <class T, int N> __global__ void k() { " + shared(1, "s", "T[N]") + " } }\n")

    # -- __shared__ at namespace scope: an object binding the block's variable, bound again at the
    # top of each device function naming it (on lines of their own, mapped back by #line)
    def bind(self, line, text, column):
        return f"\n{text}\n#line {line} \"t.cu\"\n" + " " * column

    def test_a_namespace_scope_array_is_an_object_bound_by_the_device_functions_naming_it(self):
        decl = ("[[maybe_unused]] static const ::cusim::detail::namespace_shared<float[64]> tile{" + KEY + "}; "
                f"[[maybe_unused]] static const bool cusim_shared_{TAG}_1_named = "
                "::cusim::detail::name_array(\"tile\", ::cusim::memory_space::shared);")
        self.check("__shared__ float tile[64];\n"
                   "__device__ void put(int i) { tile[i] = 1; }\n"
                   "__host__ __device__ float get(int i) { return tile[i]; }\n"
                   "__device__ float other(int tile) { return tile; }\n",
                   decl + "\n"
                   "__device__ void put(int i) {" + self.bind(2, "auto& tile = ::tile.get();", 28) + " tile[i] = 1; }\n"
                   "__host__ __device__ float get(int i) { return tile[i]; }\n"
                   "__device__ float other(int tile) { return tile; }\n", lines=3)

    def test_namespaces_qualify_the_binding_and_a_qualified_use_names_the_bound_variable(self):
        src = ("namespace a { namespace {\n__shared__ int n;\nextern __shared__ float dyn[];\n} }\n"
               "__global__ void k() { a::n = 1; dyn2(); }\n"
               "namespace a { __global__ void j() { auto l = [=] { return dyn[0]; }; } }\n")
        out = rewrite.rewrite(src, "t.cu", phases=False)
        self.assertIn("static const ::cusim::detail::namespace_shared<int> n{" + KEY + "};", out)
        self.assertIn("static constexpr ::cusim::detail::namespace_dynamic_shared<float> dyn{};", out)
        self.assertIn("__global__ void k() {\nauto& n = ::a::n.get();\n#line 5 \"t.cu\"\n" + " " * 21 +
                      "    n = 1; dyn2(); }", out)
        bind = "float* const dyn = ::cusim::detail::dynamic_shared_pointer<float>();"
        self.assertIn("void j() {\n" + bind + "\n#line 6", out)
        self.assertIn("[=] {\n" + bind + "\n#line 6", out)  # a lambda binds it too: nothing captured

    def test_a_macro_naming_a_namespace_scope_variable_binds_it_where_it_is_used(self):
        out = rewrite.rewrite("__shared__ int s[2];\n#define AT(i) s[i]\n#define TWICE(i) AT(i) + AT(i)\n"
                              "__device__ int f() { return TWICE(0); }\n__device__ int g() { return 0; }\n",
                              "t.cu", phases=False)
        self.assertIn("int f() {\nauto& s = ::s.get();\n", out)
        self.assertNotIn("int g() {\n", out)

    def test_a_kernel_using_a_namespace_scope_array_across_a_barrier_keeps_its_phased_form(self):
        src = ("__shared__ float buf[64];\n__global__ void k(float* o) {\n  int t = threadIdx.x;\n  buf[t] = t;\n"
               "  __syncthreads();\n  o[t] = buf[63 - t];\n}\n")
        out = rewrite.rewrite(src, "t.cu")
        self.assertIn("phases_begin", out)
        self.assertLess(out.index("auto& buf = ::buf.get();"), out.index("phases_begin"))

    # -- __shared__ in #define bodies (cuda-samples' cudasharedmem.h), the continued lines kept
    def test_extern_shared_in_a_macro_is_rewritten_in_place(self):
        src = ("#define BUILD(t, n) \\\n  template <> struct S<t> { \\\n"
               "    __device__ t& operator[](int i) { extern __shared__ t n[]; return n[i]; } \\\n  }\n"
               "BUILD(float, s_float);\n")
        self.check(src, src.replace("extern __shared__ t n[];",
                                    "t* const n = ::cusim::detail::dynamic_shared_pointer<t>();"))

    def test_a_fixed_size_shared_in_a_macro_has_a_key_per_expansion(self):
        key = "cusim_shared_key_1_ ## name"
        self.check("#define SCRATCH(type, name) __shared__ type \\\n  name[8]\n",
                   f"#define SCRATCH(type, name) static constexpr char {key} = 0; auto& name = "
                   f"::cusim::detail::shared_variable<type[8]>(&{key}, {KEY}); [[maybe_unused]] static const bool "
                   f"{key} ## _named = ::cusim::detail::name_array(#name, ::cusim::memory_space::shared);\\\n\n")

    # -- refusals
    def test_shared_in_a_class_is_refused(self):
        self.refuse("struct S {\n  __shared__ int x;\n};\n",
                    "t.cu:2: cusim nvcc: cannot rewrite the __shared__ declaration: a __shared__ variable at class "
                    "scope has no rewrite (CUDA allows none)")

    def test_a_macro_declaring_shared_used_outside_functions_is_refused(self):
        self.refuse("#define SMEM __shared__ float s[4];\nSMEM\n",
                    "t.cu:2: cusim nvcc: cannot rewrite the __shared__ declaration: macro 'SMEM', whose definition "
                    "declares a __shared__ variable, is used outside a function body")

    def test_an_initializer_is_refused(self):
        self.refuse("void k() {\n  __shared__ int x = 0;\n}\n",
                    "t.cu:2: cusim nvcc: cannot rewrite the __shared__ declaration: a __shared__ variable cannot "
                    "have an initializer")

    def test_a_kernel_made_by_a_call_is_refused(self):
        self.refuse("void f() {\n  pick(i)<<<1, 1>>>();\n}\n",
                    "t.cu:2: cusim nvcc: cannot rewrite the kernel launch <<<...>>>: the kernel expression before "
                    "<<< is not a name (ns::kernel, kernel<T, N>) or a parenthesised expression")

    def test_a_launch_without_arguments_is_refused(self):
        self.refuse("void f() {\n  k<<<1, 1>>>;\n}\n",
                    "t.cu:2: cusim nvcc: cannot rewrite the kernel launch <<<...>>>: no argument list '(...)' "
                    "follows >>>")

    def test_an_unclosed_configuration_is_refused(self):
        self.refuse("void f() {\n  k<<<1, 1>>(x);\n}\n",
                    "t.cu:2: cusim nvcc: cannot rewrite the kernel launch <<<...>>>: no >>> closes the launch "
                    "configuration")


    def test_an_unterminated_comment_is_refused(self):
        self.refuse("void k() {\n/* __shared__\n", "t.cu:2: cusim nvcc: cannot rewrite the file: unterminated comment")



class Phases(unittest.TestCase):
    """Which kernels get the phased form (tools/nvcc/phases.py), and what it keeps."""

    KERNEL = ("__global__ void k(const float* in, float* out) {\n"
              "  __shared__ float s[64];\n"
              "  const unsigned t = threadIdx.x;\n"
              "  s[t] = in[t];\n"
              "  __syncthreads();\n"
              "  for (unsigned stride = 32; stride > 0; stride >>= 1) {\n"
              "    if (t < stride) s[t] += s[t + stride];\n"
              "    __syncthreads();\n"
              "  }\n"
              "  if (t == 0) out[0] = s[0];\n"
              "}\n")

    def phased(self, src):
        out = rewrite.rewrite(src, "t.cu")
        plain = rewrite.rewrite(src, "t.cu", phases=False)
        if "phases_begin" not in out:
            self.assertEqual(out, plain)
            return None
        # The first form is the plain rewrite, after the phased one, which a #line closes that gives
        # the rest of the line of the body's { back its number.
        start = out.index(" if (::cusim::detail::phases_begin()) {")
        guard = out.rfind(" if constexpr (std::is_trivially_copyable_v", 0, start)  # a template's T (below)
        if guard >= 0 and "\n" not in out[guard:start]:
            start = guard
        end = out.index("\n", out.index("return; }\n#line ", start) + len("return; }\n")) + 1
        self.assertEqual(out[:start] + out[end:], plain)
        return out

    def test_a_reduction_gets_loops_between_barriers_and_keeps_its_lines(self):
        out = self.phased(self.KERNEL)
        self.assertIsNotNone(out)
        # Two replicated variables (t and stride), the loop's condition voted by every thread.
        self.assertEqual(out.count("cusim_pb_.slots<"), 2)
        self.assertIn("cusim_c_.vote(static_cast<bool>(", out)
        self.assertIn("if (cusim_pb_.leave(", out)
        # Each statement of the phased form stands on its own line, at its own column.
        self.assertIn('#line 7 "t.cu"\n    if (t < stride) s[t] += s[t + stride];', out)
        self.assertIn('#line 3 "t.cu"\n                     threadIdx.x', out)
        self.assertIn('return; }\n#line 1 "t.cu"\n\n  static constexpr char', out)

    def test_a_return_ends_the_thread_and_skips_its_later_phases(self):
        src = self.KERNEL.replace("  s[t] = in[t];\n", "  if (t > 40) return;\n  s[t] = in[t];\n")
        out = self.phased(src)
        self.assertIn("goto cusim_exit_", out)
        self.assertIn("cusim_c_.exit();", out)

    def test_kernels_that_cannot_be_proven_the_same_keep_only_their_fibers(self):
        cases = {
            "a barrier in a branch": ("  s[t] = in[t];\n", "  if (t < 8) __syncthreads();\n"),
            "a warp shuffle": ("  s[t] = in[t];\n", "  s[t] = __shfl_down_sync(0xffffffffu, in[t], 1);\n"),
            "an atomic that may spin": ("  s[t] = in[t];\n", "  atomicCAS((int*)out, 0, 1);\n"),
            "an atomic's result read in a loop without a barrier": (
                "  s[t] = in[t];\n", "  while (atomicAdd((int*)out, 0) == 0) {}\n"),
            "an atomic's result read in a loop's condition": (
                "  s[t] = in[t];\n", "  for (int k = 0; atomicMax((int*)out, k) < 4; ++k) {}\n"),
            "an atomic inside another": ("  s[t] = in[t];\n", "  atomicAdd((int*)out, atomicExch((int*)out, 1));\n"),
            "volatile read in a loop without a barrier": (
                "  s[t] = in[t];\n", "  volatile float* f = out;\n  while (f[0] == 0) {}\n"),
            "a volatile cast in a loop without a barrier": (
                "  s[t] = in[t];\n", "  while (((volatile float*)out)[0] == 0) {}\n"),
            "a call reaching a barrier inside a condition": ("  s[t] = in[t];\n", "  if (waits(t)) s[t] = 0;\n"),
            "a call reaching a barrier beside a subscript": ("  s[t] = in[t];\n", "  s[t] = in[t] + waits(t);\n"),
            "a call reaching a barrier with an early return": ("  s[t] = in[t];\n", "  s[t] = early(t);\n"),
            "a call of a function not defined here": ("  s[t] = in[t];\n", "  s[t] = helper(in[t]);\n"),
            "a local of a type not known to be trivial": ("  s[t] = in[t];\n", "  Thing x = make(t);\n"),
            "an auto local": ("  s[t] = in[t];\n", "  auto x = in[t];\n"),
            "a lambda": ("  s[t] = in[t];\n", "  s[t] = [&] { return in[t]; }();\n"),
            "goto": ("  s[t] = in[t];\n", "  goto done;\n"),
            "a break out of a loop over a barrier": ("    if (t < stride)", "    if (stride == 4) break;\n    if (t < stride)"),
            "the address of a replicated variable": ("  s[t] = in[t];\n", "  const unsigned* p = &t;\n"),
            "a barrier in a do loop": ("  for (unsigned stride = 32; stride > 0; stride >>= 1) {", "  do {"),
            "__syncthreads_count": ("  __syncthreads();\n  for", "  __syncthreads_count(1);\n  for"),
            "a conditional directive": ("  s[t] = in[t];\n", "#ifdef X\n  s[t] = in[t];\n#endif\n"),
            "a parameter's address taken": ("  s[t] = in[t];\n", "  const float** p = &in;\n"),
        }
        helpers = ("__device__ unsigned waits(unsigned x) { __syncthreads(); return x + 1; }\n"
                   "__device__ unsigned early(unsigned x) { if (x) return 1; __syncthreads(); return x; }\n")
        for what, (old, new) in cases.items():
            src = self.KERNEL.replace(old, new, 1)
            self.assertNotEqual(src, self.KERNEL, what)
            if "waits(" in new or "early(" in new:
                src = helpers + src
            with self.subTest(what):
                try:
                    self.assertIsNone(self.phased(src))
                except rewrite.RewriteError:
                    pass

    def test_written_parameters_are_each_threads_own_copy(self):
        src = self.KERNEL.replace("  s[t] = in[t];\n", "  in += 64;\n  ++out;\n  s[t] = in[t];\n")
        out = self.phased(src)
        self.assertIsNotNone(out)
        # A slot per thread, each holding the parameter's value, bound by the parameter's name.
        self.assertIn("cusim_pb_.slots<std::remove_cv_t<decltype(in)>>(in)", out)
        self.assertIn("std::remove_cv_t<decltype(out)>& out = ", out)
        src = self.KERNEL.replace("const float* in, float* out)", "const float* in, float* out, Thing th)")
        src = src.replace("  s[t] = in[t];\n", "  th = Thing();\n  s[t] = in[t];\n")
        self.assertIsNone(self.phased(src))

    def test_writes_through_parameters_and_pragmas_are_no_obstacle(self):
        src = self.KERNEL.replace("  s[t] = in[t];\n", "  out[t] = in[t];\n  const float* first = &in[0];\n"
                                  "  s[t] = in[t] + (first == in);\n")
        src = src.replace("  for (unsigned stride", "#pragma unroll\n  for (unsigned stride")
        out = self.phased(src)
        self.assertIsNotNone(out)
        self.assertNotIn("#pragma", out.split("phases_begin")[1].split("return; }")[0])

    def test_cooperative_groups_block_syncs_are_barriers(self):
        # The cuda-samples' spelling: a block handle, cg::sync(cta) and cta.sync().
        src = self.KERNEL.replace("  const unsigned t", "  cg::thread_block cta = cg::this_thread_block();\n  const unsigned t")
        src = src.replace("  __syncthreads();\n  for", "  cg::sync(cta);\n  for").replace("    __syncthreads();", "    cta.sync();")
        out = self.phased(src)
        self.assertIsNotNone(out)
        phased = out.split("phases_begin")[1].split("return; }")[0]
        self.assertNotIn("sync(", phased.replace("cusim_", ""))
        self.assertNotIn("this_thread_block", phased)
        # Any other use of the handle (its rank, a tile of it) keeps the kernel on fibers.
        self.assertIsNone(self.phased(src.replace("  if (t == 0)", "  if (cta.thread_rank() == 0)")))

    def test_only_cusim_views_among_the_parameters_may_be_called(self):
        src = self.KERNEL.replace("  s[t] = in[t];\n", "  s[t] = f(t);\n")
        functor = src.replace("(const float* in, float* out)", "(const float* in, float* out, Fn f)")
        view = src.replace("(const float* in, float* out)", "(const float* in, float* out, cusim::span<const float> f)")
        self.assertIsNone(self.phased(functor))
        self.assertIsNotNone(self.phased(view))
        # A functor parameter named as a function of the file is still the parameter.
        calm = "__device__ float f(unsigned x) { return 2.0f * x; }\n"
        self.assertIsNotNone(self.phased(calm + src))
        self.assertIsNone(self.phased(calm + functor))

    def test_a_device_function_of_the_file_may_be_called_unless_it_waits(self):
        calm = "__device__ float twice(float x) { return 2.0f * x; }\n"
        waits = "__device__ float twice(float x) { __syncthreads(); return 2.0f * x; }\n"
        src = self.KERNEL.replace("  s[t] = in[t];\n", "  s[t] = twice(in[t]);\n")
        self.assertIsNotNone(self.phased(calm + src))
        self.assertIsNone(self.phased(waits + src))

    def test_a_called_function_holding_barriers_is_inlined_in_the_phased_copy(self):
        # scan's shape: the block handle and a volatile shared pointer passed down two calls, the
        # inner one's result in an expression of the outer one's return.
        src = ("#include <cooperative_groups.h>\n"
               "namespace cg = cooperative_groups;\n"
               "__device__ unsigned inclusive(unsigned v, volatile unsigned* s, unsigned n, cg::thread_block cta) {\n"
               "  unsigned pos = threadIdx.x + n;\n"
               "  s[pos] = v;\n"
               "  for (unsigned off = 1; off < n; off <<= 1) {\n"
               "    cg::sync(cta);\n"
               "    unsigned t = s[pos] + s[pos - off];\n"
               "    cg::sync(cta);\n"
               "    s[pos] = t;\n"
               "  }\n"
               "  return s[pos];\n"
               "}\n"
               "__device__ unsigned exclusive(unsigned v, volatile unsigned* s, unsigned n, cg::thread_block cta) {\n"
               "  return inclusive(v, s, n, cta) - v;\n"
               "}\n"
               "__global__ void k(unsigned* out, const unsigned* in, unsigned n) {\n"
               "  cg::thread_block cta = cg::this_thread_block();\n"
               "  __shared__ unsigned s[512];\n"
               "  unsigned pos = blockIdx.x * blockDim.x + threadIdx.x;\n"
               "  unsigned v = in[pos];\n"
               "  unsigned r = exclusive(v, s, n, cta);\n"
               "  out[pos] = r;\n"
               "}\n")
        out = self.phased(src)
        self.assertIsNotNone(out)
        phased = out[:out.index("return; }\n#line ")]
        # The callees' bodies, at their own lines; their results through cusim_rN_.
        self.assertIn('#line 8 "t.cu"\n', phased)
        self.assertIn("s[pos] + s[pos - off]", phased)
        self.assertIn("cusim_r2_ = ", phased)
        self.assertIn("cusim_r1_ = cusim_r2_ - v;", phased)
        self.assertIn("unsigned& r = (cusim_l", phased)
        self.assertIn("cusim_pb_.leave(::cusim::detail::source_location{__FILE__, 6, 0})", phased)
        # Four phases: before the loop, the loop's two, after it (what follows the calls joins it).
        self.assertEqual(phased.count("phase_cursor cusim_c_"), 4)
        # A volatile read in a loop without a barrier (a spin) keeps the kernel on fibers.
        spin = src.replace("  return s[pos];\n", "  while (s[0] == 0) {}\n  return s[pos];\n")
        self.assertIsNone(self.phased(spin))

    def test_atomics_that_cannot_wait_are_phased(self):
        # histogram's shape: a __device__ function's atomicAdd, one in a loop, a ticket read outside loops.
        src = ("__device__ void add(unsigned* h, unsigned b) { atomicAdd(h + b, 1); }\n"
               "__device__ unsigned tickets;\n"
               "__global__ void k(unsigned* hist, const unsigned char* data, unsigned n, unsigned* last) {\n"
               "  __shared__ unsigned s[256];\n"
               "  s[threadIdx.x] = 0;\n"
               "  __syncthreads();\n"
               "  for (unsigned i = threadIdx.x; i < n; i += blockDim.x) add(s, data[i]);\n"
               "  __syncthreads();\n"
               "  if (s[threadIdx.x] != 0) atomicAdd(&hist[threadIdx.x], s[threadIdx.x]);\n"
               "  __threadfence();\n"
               "  if (threadIdx.x == 0) { unsigned t = atomicInc(&tickets, gridDim.x - 1); *last = t; }\n"
               "}\n")
        self.assertIsNotNone(self.phased(src))
        # A function whose atomic's result is read may be called in a loop: a spin, maybe.
        self.assertIsNone(self.phased(src.replace("{ atomicAdd(h + b, 1); }", "{ while (atomicAdd(h + b, 0) == 0) {} }")))
        self.assertIsNone(self.phased(src.replace("{ atomicAdd(h + b, 1); }", "{ if (atomicAdd(h + b, 1)) h[0] = 1; }")))
        self.assertIsNone(self.phased(src.replace("atomicInc(&tickets", "atomicCAS(&tickets")))

    def test_auto_locals_whose_type_names_no_local_are_replicated(self):
        src = self.KERNEL.replace("  const unsigned t = threadIdx.x;\n",
                                  "  auto [x, y] = cusim::grid<2>();\n  const auto t = threadIdx.x;\n")
        out = self.phased(src)
        # [x, y] is named in one stretch only: a local of it, with no slot.
        self.assertNotIn("cusim_pb_.slots<std::remove_cv_t<std::decay_t<decltype(cusim::grid<2>())>>>()", out)
        self.assertIn("std::remove_cv_t<std::decay_t<decltype(cusim::grid<2>())>> cusim_l0_{};", out)
        self.assertIn("[[maybe_unused]] auto& [x, y] = (cusim_l0_ = ", out)
        self.assertIn("[[maybe_unused]] const auto& t = cusim_l1_;", out)
        # Named after a barrier too, it lives in a slot per thread.
        out = self.phased(src.replace("out[0] = s[0];", "out[0] = s[0] + x;"))
        self.assertIn("cusim_pb_.slots<std::remove_cv_t<std::decay_t<decltype(cusim::grid<2>())>>>()", out)
        self.assertIn("::cusim::detail::slot_store(cusim_v0_, cusim_i_, cusim_l0_);", out)

    def test_a_stretch_copies_back_only_the_variables_it_may_write(self):
        # KERNEL: t is const (never copied back); stride is written by the loop's step (>>=).
        src = self.KERNEL.replace("  const unsigned t = threadIdx.x;\n",
                                  "  unsigned t = threadIdx.x, u = t + 1, w = 0, r = 0, v = 0;\n  __syncthreads();\n")
        src = src.replace("  if (t == 0) out[0] = s[0];\n",
                          "  w += u; helper(r); v = 2;\n  __syncthreads();\n  if (t == 0) out[0] = s[0] + u + w + r + v;\n")
        out = self.phased("__device__ void helper(unsigned& x) { x = 1; }\n" + src)
        self.assertIsNotNone(out)
        stores = re.findall(r"slot_store\(cusim_v(\d+)_", out)
        slots = {name: re.search(r"\[\[maybe_unused\]\] unsigned& %s = \(cusim_l(\d+)_ =" % name, out)
                 for name in ("t", "u", "w", "r", "v")}
        self.assertTrue(all(slots.values()), out)
        slot = {name: m.group(1) for name, m in slots.items()}
        # Declared in the first stretch: copied there; then w (+=), r (a call's argument) and v (=)
        # again, never t or u, which later stretches only read.
        self.assertEqual(stores.count(slot["w"]), 2, out)
        self.assertEqual(stores.count(slot["r"]), 2, out)
        self.assertEqual(stores.count(slot["v"]), 2, out)
        self.assertEqual(stores.count(slot["t"]), 1, out)
        self.assertEqual(stores.count(slot["u"]), 1, out)

    def test_kernels_without_barriers_are_left_as_they_are(self):
        src = "__global__ void k(float* p) { p[threadIdx.x] = 1; }\n"
        self.assertEqual(rewrite.rewrite(src, "t.cu"), rewrite.rewrite(src, "t.cu", phases=False))

    # The cuda-samples' shapes (docs/performance.md, "Which samples' kernels get phases").
    def test_template_type_parameters_are_replicated_where_trivial(self):
        src = ("template <class T, unsigned int blockSize, bool nIsPow2>\n"
               "__global__ void k(const T* in, T* out) {\n"
               "  __shared__ T s[blockSize];\n"
               "  unsigned int tid = threadIdx.x;\n"
               "  T mySum = in[tid];\n"
               "  if (nIsPow2) mySum += in[tid + blockSize];\n"
               "  s[tid] = mySum;\n"
               "  __syncthreads();\n"
               "  for (unsigned int s2 = blockDim.x / 2; s2 > 0; s2 >>= 1) {\n"
               "    if (tid < s2) { s[tid] = mySum = mySum + s[tid + s2]; }\n"
               "    __syncthreads();\n"
               "  }\n"
               "  if (tid == 0) out[blockIdx.x] = mySum;\n"
               "}\n")
        out = self.phased(src)
        self.assertIsNotNone(out)
        # The phased form only for the instantiations whose T the slots take.
        self.assertIn(" if constexpr (std::is_trivially_copyable_v<std::remove_cv_t<T>> && "
                      "std::is_trivially_default_constructible_v<std::remove_cv_t<T>> && !std::is_array_v<T>) "
                      "if (::cusim::detail::phases_begin())",
                      out)
        self.assertIn("cusim_pb_.slots<std::remove_cv_t<T>>()", out)
        # A pointer to T needs no such condition; a kernel that is no template knows no T.
        self.assertNotIn("if constexpr", self.phased(src.replace("  T mySum = in[tid];", "  T* mySum2 = out; float mySum = in[tid];")))
        self.assertIsNone(self.phased(src.replace("template <class T, unsigned int blockSize, bool nIsPow2>\n", "")
                                      .replace("blockSize", "64").replace("nIsPow2", "true")))

    def test_a_class_of_the_file_that_cannot_wait_may_be_used(self):
        helper = ("template <class T> struct SharedMemory {\n"
                  "  __device__ inline operator T*() { extern __shared__ int smem[]; return (T*)smem; }\n"
                  "};\n"
                  "template <> struct SharedMemory<double> {\n"
                  "  __device__ inline operator double*() { extern __shared__ double smem_d[]; return (double*)smem_d; }\n"
                  "};\n")
        src = self.KERNEL.replace("  __shared__ float s[64];\n", "  float* s = SharedMemory<float>();\n")
        self.assertIsNotNone(self.phased(helper + src))
        self.assertIsNone(self.phased(src))  # a class this file does not define: unknown
        waits = helper.replace("return (double*)smem_d;", "__syncthreads(); return (double*)smem_d;")
        self.assertIsNone(self.phased(waits + src))
        # A constructor defined outside the class counts too.
        outside = "struct Waits { __device__ Waits(); };\n__device__ Waits::Waits() { __syncthreads(); }\n"
        self.assertIsNone(self.phased(outside + src.replace("SharedMemory<float>()", "(Waits(), nullptr)")))

    def test_function_like_macros_of_the_file_that_cannot_wait_may_be_used(self):
        src = self.KERNEL.replace("  s[t] = in[t];\n", "  s[t] = IMUL(in[t], 2);\n")
        self.assertIsNotNone(self.phased("#define IMUL(a, b) __fmul_rn(a, b)\n" + src))
        self.assertIsNone(self.phased("#define IMUL(a, b) (__syncthreads(), (a) * (b))\n" + src))
        self.assertIsNone(self.phased("#define IMUL(a, b) a(b)\n" + src))
        self.assertIsNone(self.phased(src))  # another file's macro: unknown
        # One naming what is not its parameter (a local of the kernel?), or declaring, is not an expression.
        self.assertIsNone(self.phased("#define IMUL(a, b) ((a) * (b) * t)\n" + src))
        self.assertIsNone(self.phased("#define IMUL(a, b) float a = b; return\n" + src))
        # Nor may a class's or a macro's name open a statement: it may declare a variable.
        helper = "struct Calm { __device__ Calm() {} };\n"
        self.assertIsNone(self.phased(helper + self.KERNEL.replace("  s[t] = in[t];\n", "  Calm c;\n  s[t] = in[t];\n")))

    def test_a_call_of_a_function_of_the_file_may_open_a_statement(self):
        comparator = "__device__ void Comparator(float& a, float& b) { if (a > b) { float t = a; a = b; b = t; } }\n"
        src = self.KERNEL.replace("  s[t] = in[t];\n", "  s[t] = in[t];\n  Comparator(s[t], s[t]);\n")
        self.assertIsNotNone(self.phased(comparator + src))
        self.assertIsNone(self.phased(comparator.replace("if (a > b)", "__syncthreads(); if (a > b)") + src))

    def test_macros_and_device_functions_of_the_headers_beside_the_file(self):
        import tempfile
        src = self.KERNEL.replace("  s[t] = in[t];\n", "  s[t] = UMUL(in[t], 2.0f);\n  Comparator(s[t], s[t]);\n")
        with tempfile.TemporaryDirectory() as d:
            def phased_with(header):
                with open(os.path.join(d, "common.cuh"), "w") as f:
                    f.write(header)
                out = rewrite.rewrite('#include "common.cuh"\n' + src, os.path.join(d, "t.cu"))
                return "phases_begin" in out
            calm = ("#define UMUL(a, b) ((a) * (b))\n"
                    "__device__ inline void Comparator(float& a, float& b) { if (a > b) { float t = a; a = b; b = t; } }\n")
            self.assertTrue(phased_with(calm))
            self.assertFalse(phased_with(calm.replace("if (a > b)", "__syncthreads(); if (a > b)")))
            self.assertFalse(phased_with(calm.replace("#define UMUL(a, b) ((a) * (b))", "#define UMUL(a, b) __shfl_sync(a, b, 0)")))
            self.assertFalse(phased_with(""))

    def test_shared_arrays_declared_in_a_loop_are_declared_once(self):
        src = self.KERNEL.replace("  __shared__ float s[64];\n", "").replace(
            "    if (t < stride)", "    __shared__ float As[16][16];\n    As[t % 16][0] = 1;\n    if (t < stride)")
        src = src.replace("  s[t] = in[t];\n", "  float* s = out;\n")
        out = self.phased(src)
        self.assertIsNotNone(out)
        head = out.split("phases_begin()) {")[1].split("::cusim::detail::phase_block cusim_pb_;")[0]
        self.assertIn("As", head)
        # Named outside the loop: left on fibers.
        self.assertIsNone(self.phased(src.replace("  if (t == 0) out[0] = s[0];", "  float As = 0;\n  if (t == 0) out[0] = As;")))

    def test_a_block_of_its_own_holding_barriers_is_a_level(self):
        src = self.KERNEL.replace("  for (unsigned stride = 32;", "  {\n  for (unsigned stride = 32;").replace(
            "  if (t == 0) out[0]", "  }\n  if (t == 0) out[0]")
        out = self.phased(src)
        self.assertIsNotNone(out)
        self.assertEqual(out.count("cusim_pb_.leave("), 1)

    def test_a_loop_variable_named_as_a_parameter(self):
        src = self.KERNEL.replace("const float* in, float* out)", "const float* in, float* out, unsigned stride)").replace(
            "  s[t] = in[t];\n", "  s[t] = in[t] + stride;\n")
        out = self.phased(src)
        self.assertIsNotNone(out)
        # The loop's binder of `stride` opens a scope of its own in the phase that uses the parameter.
        self.assertRegex(out, r"\{ \[\[maybe_unused\]\] unsigned& stride = \(cusim_l\d+_ =")

    def test_the_block_handle_in_other_spellings(self):
        src = self.KERNEL.replace("  const unsigned t", "  auto cta = cg::this_thread_block();\n  const unsigned t")
        src = src.replace("  __syncthreads();\n  for", "  cg::sync(cta);\n  for").replace("    __syncthreads();", "    cta.sync();")
        self.assertIsNotNone(self.phased(src))
        using = src.replace("auto cta = cg::this_thread_block();", "thread_block cta = this_thread_block();").replace(
            "cg::sync(cta);", "sync(cta);")
        self.assertIsNotNone(self.phased(using))
        # A tile's sync is no block barrier: no phased form.
        tile = self.KERNEL.replace("  __syncthreads();\n  for", "  tile.sync();\n  for").replace("    __syncthreads();", "")
        self.assertIsNone(self.phased(tile))

    def test_the_decisions_are_reported_on_request(self):
        import contextlib
        import io
        src = self.KERNEL + self.KERNEL.replace("void k(", "void k2(").replace("  s[t] = in[t];\n", "  atomicExch(out, 1.0f);\n")
        err = io.StringIO()
        old = os.environ.get("CUSIM_NVCC_PHASES_REPORT")
        os.environ["CUSIM_NVCC_PHASES_REPORT"] = "1"
        try:
            with contextlib.redirect_stderr(err):
                rewrite.rewrite(src, "t.cu")
        finally:
            if old is None:
                del os.environ["CUSIM_NVCC_PHASES_REPORT"]
            else:
                os.environ["CUSIM_NVCC_PHASES_REPORT"] = old
        self.assertEqual(err.getvalue(), "t.cu:1: cusim nvcc: kernel k: phased\n"
                                         "t.cu:12: cusim nvcc: kernel k2: not phased: atomicExch\n")
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            rewrite.rewrite(src, "t.cu")
        self.assertEqual(err.getvalue(), "")



class PhaseCopy(unittest.TestCase):
    """cusim_add_executable's phased copy of a source written against cusim.hpp (phase_copy.py)."""

    API = ("#include <cusim/cusim.hpp>\n"
           "__global__ void k(cusim::span<const float> in, cusim::span<float> out) {\n"
           "  __shared__ cusim::shared_array<float, 64> s;\n"
           "  const unsigned t = threadIdx.x;\n"
           "  s[t] = in[t];\n"
           "  __syncthreads();\n"
           "  if (t == 0) out[0] = s[0] + s[63];\n"
           "}\n"
           "int main() { return 0; }\n")

    def test_only_the_phased_forms_are_added(self):
        out = rewrite.add_phases(self.API, "a.cu")
        self.assertIn("phases_begin", out)
        self.assertNotIn("register_kernel_probe", out)  # nothing of the unmodified-CUDA rewrite
        start = out.index(" if (::cusim::detail::phases_begin()) {")
        end = out.index("\n", out.index("return; }\n#line ", start) + len("return; }\n")) + 1
        self.assertEqual(out[:start] + out[end:], self.API)

    @staticmethod
    def copy_of(src, *args, **kwargs):
        """The text of the phased copy phase_copy.py writes for src (beside it, as a.copy.cu)."""
        import phase_copy
        copy = os.path.join(os.path.dirname(src), "out", "a.copy.cu")
        phase_copy.write_copy(src, copy, *args, **kwargs)
        with open(copy) as f:
            return f.read()

    def test_unoptimised_builds_and_unreadable_sources_are_copied_as_they_are(self):
        import tempfile
        with tempfile.TemporaryDirectory() as d:
            src = os.path.join(d, "a.cu")
            with open(src, "w") as f:
                f.write(self.API)
            head = f'#line 1 "{src}"\n'
            self.assertIn("phases_begin", self.copy_of(src, "RelWithDebInfo"))
            self.assertIn("phases_begin", self.copy_of(src, "Debug", ["-O2"]))
            self.assertEqual(self.copy_of(src, "Debug"), head + self.API)
            self.assertEqual(self.copy_of(src, ""), head + self.API)
            self.assertEqual(self.copy_of(src, "Release", ["-O0", "-g"]), head + self.API)
            bad = self.API.replace("__global__", "struct S { __shared__ float x[2]; };\n__global__")
            with open(src, "w") as f:
                f.write(bad)
            with self.assertRaises(rewrite.RewriteError):
                rewrite.add_phases(bad, src)
            self.assertEqual(self.copy_of(src, "Release"), head + bad)

    def test_the_users_headers_get_their_phased_forms_too(self):
        # A kernel in a header found through an include directory is phased in a copy that the
        # source's copy includes by its absolute path; a header with nothing to phase, and one under
        # a directory that is not the user's (cusim's own), are used in place; what the copy was
        # made from (the depfile's list) is every user header read.
        import tempfile
        import phase_copy
        with tempfile.TemporaryDirectory() as d:
            inc, ours = os.path.join(d, "inc"), os.path.join(d, "ours")
            os.makedirs(inc)
            os.makedirs(ours)
            kernel = self.API.replace("int main() { return 0; }\n", "")
            for path, text in ((os.path.join(inc, "k.hpp"), "#pragma once\n" + kernel),
                               (os.path.join(inc, "plain.hpp"), "#pragma once\nint f();\n"),
                               (os.path.join(ours, "lib.hpp"), "#pragma once\n" + kernel.replace("void k(", "void l("))):
                with open(path, "w") as f:
                    f.write(text)
            src = os.path.join(d, "a.cu")
            with open(src, "w") as f:
                f.write('#include "k.hpp"\n#include <plain.hpp>\n#include "lib.hpp"\nint main() { return 0; }\n')
            copy = os.path.join(d, "out", "a.copy.cu")
            inputs = phase_copy.write_copy(src, copy, "Release", (), [inc, ours], [ours])
            header_copy = os.path.join(d, "out", "include", "0", "k.hpp")
            with open(copy) as f:
                plain = os.path.join(inc, "plain.hpp")  # the user's: by its path, as the compiler found it
                self.assertEqual(f.read(), f'#line 1 "{src}"\n#include "{header_copy}"\n#include "{plain}"\n'
                                           '#include "lib.hpp"\nint main() { return 0; }\n')
            with open(header_copy) as f:
                text = f.read()
            self.assertTrue(text.startswith(f'#line 1 "{os.path.join(inc, "k.hpp")}"\n#pragma once\n'))
            self.assertIn("phases_begin", text)
            self.assertEqual(os.listdir(os.path.join(d, "out", "include")), ["0"])
            self.assertEqual(sorted(inputs), sorted([src, os.path.join(inc, "k.hpp"), os.path.join(inc, "plain.hpp")]))
            # Unoptimised: the source as it is, its headers in place.
            self.assertEqual(phase_copy.write_copy(src, copy, "Debug", (), [inc], []), [src])


class CudaArch(unittest.TestCase):
    """__CUDA_ARCH__ as nvcc's device pass defines it, in device code only (rewrite.py:
    cuda_arch_directive, device_view)."""

    def rewritten(self, src, arch=800):
        out = rewrite.rewrite(src, "t.cu", phases=False, cuda_arch=arch)
        out = re.sub(r" \[\[maybe_unused\]\] static const bool cusim_kernel_registered_[^\n]*?\}\);", "", out)
        out = unmarked(out)  # the host functions' marks: HostCode
        self.assertEqual(out.count("\n"), src.count("\n"), "the line count changed")
        return out

    def test_every_form_of_the_test_sees_the_value_in_a_kernel(self):
        body = ("#if __CUDA_ARCH__ >= 800\n#ifdef __CUDA_ARCH__\n#ifndef __CUDA_ARCH__\n"
                "#if defined(__CUDA_ARCH__) && defined __CUDA_ARCH__\n"
                "#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 600\n#endif\n#endif\n#endif\n#endif\n#endif\n")
        out = self.rewritten("__global__ void k() {\n" + body + "}\n")
        self.assertEqual(out, "__global__ void k() {\n#if 800 >= 800\n#if 1\n#if 0\n#if 1 && 1\n"
                              "#if !1 || 800 >= 600\n#endif\n#endif\n#endif\n#endif\n#endif\n}\n")

    def test_elif_and_else_of_a_chain_follow_its_if(self):
        src = "__device__ int f() {\n#if __CUDA_ARCH__ >= 900\nreturn 9;\n#elif __CUDA_ARCH__ >= 700\nreturn 7;\n#else\nreturn 0;\n#endif\n}\n"
        self.assertEqual(self.rewritten(src), src.replace("__CUDA_ARCH__", "800"))
        # A chain whose #if does not test it but whose #elif does.
        src = "__device__ int f() {\n#if X\nreturn 9;\n#elif defined(__CUDA_ARCH__)\nreturn 7;\n#endif\n}\n"
        self.assertEqual(self.rewritten(src), src.replace("defined(__CUDA_ARCH__)", "1"))

    def test_host_functions_see_it_undefined(self):
        src = "int h() {\n#ifdef __CUDA_ARCH__\nreturn 1;\n#endif\nreturn 0;\n}\n__host__ int g() {\n#if __CUDA_ARCH__\n#endif\n}\n"
        self.assertEqual(self.rewritten(src), src)

    def test_host_device_functions_get_both_views_chosen_at_run_time(self):
        # The device view in kernel threads, the host's elsewhere; the copy's lines by #line.
        body = "\n#ifdef __CUDA_ARCH__\nreturn 1;\n#else\nreturn 0;\n#endif\n"
        src = "__host__ __device__ int f() {" + body + "}\nint g;\n"
        out = rewrite.rewrite(src, "t.cu", phases=False)
        self.assertEqual(out, "__host__ __device__ int f() { if (!__builtin_is_constant_evaluated() && "
                              "::cusim::detail::current_thread_ != nullptr) {\n#line 1 \"t.cu\"\n" + " " * 29 +
                              body.replace("#ifdef __CUDA_ARCH__", "#if 1") + "\n} else {\n#line 1 \"t.cu\"\n" +
                              " " * 29 + body + "}}\nint g;\n")
        # With a goto (labels cannot be duplicated): the device view only.
        src = "__device__ __host__ inline int f() {\n#if !defined(__CUDA_ARCH__)\n#endif\ngoto e; e: return 0;\n}\n"
        self.assertEqual(self.rewritten(src), src.replace("defined(__CUDA_ARCH__)", "1"))
        # Without a test of __CUDA_ARCH__: one body.
        src = "__host__ __device__ int f() {\n#ifdef X\n#endif\nreturn 0;\n}\n"
        self.assertEqual(self.rewritten(src), src)

    def test_namespace_scope_chains_go_by_what_they_declare(self):
        # warpAggregatedAtomicsCG: device functions inside the #if; reduction: a specialisation.
        dev = "#if __CUDA_ARCH__ >= 700\n__device__ int f(int b) { return b; }\n#endif\n"
        self.assertEqual(self.rewritten(dev), dev.replace("__CUDA_ARCH__", "800"))
        spec = "#if __CUDA_ARCH__ >= 800\ntemplate <> __device__ __forceinline__ int w<int>(int m) { return m; }\n#endif\n"
        self.assertEqual(self.rewritten(spec, 750), spec.replace("__CUDA_ARCH__", "750"))
        # jacobiCudaGraphs: a __device__ function in the #else group.
        jac = "#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 600\n#else\n__device__ double atomicAdd(double*, double);\n#endif\n"
        self.assertEqual(self.rewritten(jac), "#if !1 || 800 >= 600\n#else\n__device__ double atomicAdd(double*, double);\n#endif\n")
        # Host code: the include stays.
        host = "#ifndef __CUDA_ARCH__\n#include <iostream>\n#endif\n__global__ void k() {}\n"
        self.assertEqual(self.rewritten(host), host)

    def test_nested_chains_are_decided_each_by_its_own_code(self):
        src = ("#ifndef __CUDA_ARCH__\n#include <cstdio>\n#else\n#if __CUDA_ARCH__ < 700\n"
               "__device__ int old();\n#endif\n#endif\n")
        # The outer chain holds a __device__ declaration too (in its nested chain): device view.
        self.assertEqual(self.rewritten(src), src.replace("#ifndef __CUDA_ARCH__", "#if 0").replace("__CUDA_ARCH__", "800"))
        src2 = "#ifdef __CUDA_ARCH__\n#define ON_DEVICE 1\n#endif\n#if __CUDA_ARCH__ >= 700\n__device__ int f();\n#endif\n"
        self.assertEqual(self.rewritten(src2), "#ifdef __CUDA_ARCH__\n#define ON_DEVICE 1\n#endif\n#if 800 >= 700\n__device__ int f();\n#endif\n")

    def test_the_value_in_device_code_and_not_in_host_code(self):
        src = ("__global__ void k(int* p) { *p = __CUDA_ARCH__ / 10; auto l = [=] { return __CUDA_ARCH__; }; }\n"
               "void h(int* p) { *p = sizeof(__CUDA_ARCH__); }\n")
        self.assertEqual(self.rewritten(src, 700), "__global__ void k(int* p) { *p = 700 / 10; auto l = [=] { return 700; }; }\n"
                                                   "void h(int* p) { *p = sizeof(__CUDA_ARCH__); }\n")

    def test_a_continued_directive_keeps_its_lines(self):
        src = "__device__ void f() {\n#if defined( \\\n  __CUDA_ARCH__) && \\\n  __CUDA_ARCH__ > 1\n#endif\n}\n"
        self.assertEqual(self.rewritten(src), "__device__ void f() {\n#if 1\\\n && \\\n  800 > 1\n#endif\n}\n")

    def test_member_functions_go_by_their_own_qualifiers(self):
        src = ("struct S {\n  __device__ int d() {\n#ifdef __CUDA_ARCH__\n#endif\n  }\n"
               "  int h() {\n#ifdef __CUDA_ARCH__\n#endif\n  }\n};\n")
        self.assertEqual(self.rewritten(src), src.replace("#ifdef __CUDA_ARCH__", "#if 1", 1))

    def test_includes_after_an_added_device_copy_still_name_the_rewritten_headers(self):
        # The device copy of a __host__ __device__ body adds lines: an #include after it is found
        # on its line all the same, and names the rewritten copy of the header.
        import tempfile
        import includes
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "k.cuh"), "w") as f:
                f.write("__global__ void k() { __shared__ int s[2]; s[0] = 1; }\n")
            src = os.path.join(d, "a.cu")
            with open(src, "w") as f:
                f.write("__host__ __device__ int f() {\n#ifdef __CUDA_ARCH__\nreturn 1;\n#endif\nreturn 0;\n}\n"
                        '#include "k.cuh"\nint main() { return f(); }\n')
            graph = includes.IncludeGraph(src, includes.Search([d], []), [],
                                          lambda text, name: rewrite.rewrite(text, name, False))
            header = graph.nodes[os.path.realpath(os.path.join(d, "k.cuh"))]
            self.assertTrue(header.copied)
            header.copy = "/copies/k.cuh"
            text = graph.text_of(graph.root)
            self.assertIn('\n#include "/copies/k.cuh"\nint main()', text)  # after a directive: not marked

    def test_the_driver_picks_the_architecture_the_simulated_sm_80_runs(self):
        import driver
        def arch(*args, device=None):
            return driver.cuda_arch(driver.parse(list(args) + ["x.cu"]), {"CUSIM_DEVICE": device} if device else {})
        self.assertEqual(arch(), 750)  # nvcc 13's default sm_75
        self.assertEqual(arch("-arch=sm_80"), 800)
        self.assertEqual(arch("-gencode", "arch=compute_70,code=sm_70", "-gencode", "arch=compute_90,code=sm_90",
                              "-gencode", "arch=compute_86,code=sm_86"), 700)
        self.assertEqual(arch("-arch=sm_75", "-arch=sm_80", "-arch=sm_90"), 800)
        self.assertEqual(arch("-arch=sm_90"), 900)  # nothing the device can run: the lowest listed
        self.assertEqual(arch("-arch=native"), 800)
        self.assertEqual(arch("--gpu-architecture=all"), 800)
        # CUSIM_DEVICE in the build's environment: the device the program will run on.
        samples = "--generate-code=arch=compute_75,code=sm_75 --generate-code=arch=compute_90,code=sm_90".split()
        self.assertEqual(arch(*samples, device="h100"), 900)
        self.assertEqual(arch(*samples, device="a100"), 750)
        self.assertEqual(arch(*samples, device="v100"), 750)  # nothing it can run: the lowest listed
        self.assertEqual(arch("-arch=native", device="t4"), 750)
        self.assertEqual(arch("-arch=sm_80", device="unknown"), 800)


CAST = "::cusim::detail::gpu_cast"
SHL, SHR = "::cusim::detail::gpu_shl", "::cusim::detail::gpu_shr"


class DeviceOperations(unittest.TestCase):
    """Integer casts and shifts in device code become the calls of gpu_defined.hpp (rewrite.py:
    rewrite_device_operations), with their operands' extents by C++'s grammar; what the rewrite
    cannot delimit for sure stays as it is."""

    def device(self, body, qualifiers="__device__"):
        src = f"{qualifiers} void f() {{\n{body}\n}}\n"
        out = rewrite.rewrite(src, "t.cu", phases=False)
        out = re.sub(r" \[\[maybe_unused\]\] static const bool cusim_kernel_registered_[^\n]*?\}\);", "", out)
        self.assertEqual(out.count("\n"), src.count("\n"), "the line count changed")
        return out.split("\n", 1)[1].rsplit("\n}", 1)[0]

    def same(self, body):
        self.assertEqual(self.device(body), body)

    # -- the device heap
    def test_malloc_and_free_in_device_code_take_the_device_heap(self):
        self.assertEqual(self.device("void* p = malloc(n); free(p);"),
                         "void* p = ::cusim::detail::device_malloc(n); ::cusim::detail::device_free(p);")
        self.assertEqual(self.device("int* q = (int*)std::malloc(8); ::free(q);"),
                         "int* q = (int*)::cusim::detail::device_malloc(8); ::cusim::detail::device_free(q);")

    def test_members_other_namespaces_and_host_code_keep_their_malloc(self):
        self.same("p = pool.malloc(n); q->free(p); r = mine::malloc(4); auto f = free;")
        src = "void host() { void* p = malloc(4); free(p); }\n"
        self.assertEqual(rewrite.rewrite(src, "t.cu", phases=False), src)

    # -- casts
    def test_c_style_casts_to_every_integer_type(self):
        for typ in ("int", "unsigned", "unsigned int", "long", "long long", "unsigned long long", "short", "char",
                    "signed char", "size_t", "std::size_t", "int32_t", "uint64_t", "std::uint32_t", "ptrdiff_t"):
            self.assertEqual(self.device(f"y = ({typ})x;"), f"y = {CAST}<{typ}>(x);")

    def test_the_operand_of_a_c_style_cast_is_a_unary_expression(self):
        self.assertEqual(self.device("y = (int)x * 2 + (int)-f;"), f"y = {CAST}<int>(x) * 2 + {CAST}<int>(-f);")
        self.assertEqual(self.device("y = (long long)a[i].b->c(3)++ + 1;"), f"y = {CAST}<long long>(a[i].b->c(3)++) + 1;")
        self.assertEqual(self.device("y = (int)*p + (int)(x + 1) + (int)ns::v<3>::f(x);"),
                         f"y = {CAST}<int>(*p) + {CAST}<int>((x + 1)) + {CAST}<int>(ns::v<3>::f(x));")
        self.assertEqual(self.device("y = (int)sizeof(float) + (unsigned)static_cast<float>(d);"),
                         f"y = {CAST}<int>(sizeof(float)) + {CAST}<unsigned>(static_cast<float>(d));")

    def test_nested_casts(self):
        self.assertEqual(self.device("y = (long long)(unsigned)x;"), f"y = {CAST}<long long>({CAST}<unsigned>(x));")
        self.assertEqual(self.device("y = (int)(float)x;"), f"y = {CAST}<int>((float)x);")

    def test_functional_and_static_casts(self):
        self.assertEqual(self.device("y = int(f) + unsigned(g) * std::size_t(h);"),
                         f"y = {CAST}<int>(f) + {CAST}<unsigned>(g) * {CAST}<std::size_t>(h);")
        self.assertEqual(self.device("y = static_cast<int>(f) + static_cast<unsigned long long>(d);"),
                         f"y = {CAST}<int>(f) + {CAST}<unsigned long long>(d);")
        self.assertEqual(self.device("g(int(x), (short)h);"), f"g({CAST}<int>(x), {CAST}<short>(h));")

    def test_what_is_no_integer_cast_stays(self):
        for body in ("y = sizeof(int) + alignof(long);", "y = (float)i + static_cast<double>(j);",
                     "int (x) = 3;", "y = int();", "void g(int);", "y = (MyInt)x;", "y = static_cast<T>(x);",
                     "auto p = new int(3);", "std::function<int(float)> h;"):
            self.same(body)

    def test_a_cast_whose_operand_cannot_be_delimited_stays(self):
        self.same("y = (int)x y;")  # not an expression the rewrite reads
        self.same("y = (int)S{1}.x;")  # T{...}
        self.same("y = (int)[]{ return 1.5f; }();")  # a lambda

    def test_host_code_keeps_its_casts_and_shifts_and_host_device_code_gets_them(self):
        src = "void h() { y = (int)x << 2; }\n"
        self.assertEqual(rewrite.rewrite(src, "t.cu", phases=False), src)
        self.assertEqual(self.device("y = (int)x;", "__host__ __device__"), f"y = {CAST}<int>(x);")
        self.assertEqual(self.device("y = (int)x;", "__global__"), f"y = {CAST}<int>(x);")

    def test_shared_declarations_keep_their_constant_expressions(self):
        out = self.device("__shared__ float s[(int)N << 2];\ny = s[(int)f];")
        self.assertIn("shared_variable<float[(int)N << 2]>", out)
        self.assertTrue(out.endswith(f"y = s[{CAST}<int>(f)];"))

    # -- shifts
    def test_shifts_and_their_compound_assignments(self):
        self.assertEqual(self.device("y = a << 2; z = b >> n;"), f"y = {SHL}(a, 2); z = {SHR}(b, n);")
        self.assertEqual(self.device("a <<= 2; b >>= c + 1;"),
                         "::cusim::detail::gpu_shl_assign(a, 2); ::cusim::detail::gpu_shr_assign(b, c + 1);")
        self.assertEqual(self.device("x <<= c ? 1 : 2, y = 3;"), "::cusim::detail::gpu_shl_assign(x, c ? 1 : 2), y = 3;")

    def test_shift_operands_by_precedence(self):
        self.assertEqual(self.device("y = a * b << c + d == e;"), f"y = {SHL}(a * b, c + d) == e;")
        self.assertEqual(self.device("y = x >> 16 & 0xff | m;"), f"y = {SHR}(x, 16) & 0xff | m;")
        self.assertEqual(self.device("y = c <= a << b && a << b > c;"), f"y = c <= {SHL}(a, b) && {SHL}(a, b) > c;")
        self.assertEqual(self.device("y = c ? a << 1 : b >> 1;"), f"y = c ? {SHL}(a, 1) : {SHR}(b, 1);")
        self.assertEqual(self.device("y = (1 << n) - 1;"), f"y = ({SHL}(1, n)) - 1;")
        self.assertEqual(self.device("y = -a[i].m << ~s;"), f"y = {SHL}(-a[i].m, ~s);")

    def test_shifts_are_left_associative(self):
        self.assertEqual(self.device("y = a >> b << c >> d;"), f"y = {SHR}({SHL}({SHR}(a, b), c), d);")

    def test_shifts_and_casts_together(self):
        self.assertEqual(self.device("y = (int)f << 2;"), f"y = {SHL}({CAST}<int>(f), 2);")
        self.assertEqual(self.device("y = x << (int)f;"), f"y = {SHL}(x, {CAST}<int>(f));")
        self.assertEqual(self.device("y = (long long)(1u << s);"), f"y = {CAST}<long long>(({SHL}(1u, s)));")

    def test_templates_around_shifts(self):
        self.assertEqual(self.device("y = min<int>(a, b) << 2;"), f"y = {SHL}(min<int>(a, b), 2);")
        self.assertEqual(self.device("y = foo<bar<int>>(x) << 2;"), f"y = {SHL}(foo<bar<int>>(x), 2);")
        self.assertEqual(self.device("y = a << foo<bar<int>>(x);"), f"y = {SHL}(a, foo<bar<int>>(x));")
        self.assertEqual(self.device("y = foo<1 << 3>(x);"), f"y = foo<{SHL}(1, 3)>(x);")
        self.assertEqual(self.device("y = std::numeric_limits<int>::digits >> 1;"),
                         f"y = {SHR}(std::numeric_limits<int>::digits, 1);")
        self.assertEqual(self.device("v.template get<int>() << 1;"), f"{SHL}(v.template get<int>(), 1);")

    def test_statements_around_shifts(self):
        self.assertEqual(self.device("if (x) y <<= 1;"), "if (x) ::cusim::detail::gpu_shl_assign(y, 1);")
        self.assertEqual(self.device("for (int i = 1; i < n; i <<= 1) {}"),
                         "for (int i = 1; i < n; ::cusim::detail::gpu_shl_assign(i, 1)) {}")
        self.assertEqual(self.device("while (m >>= 1) {}"), "while (::cusim::detail::gpu_shr_assign(m, 1)) {}")
        self.assertEqual(self.device("return x >> 3;"), f"return {SHR}(x, 3);")

    def test_a_shift_over_lines_keeps_its_lines(self):
        self.assertEqual(self.device("y = a\n  << b;"), f"y = {SHL}(a\n, b);")

    def test_what_is_no_shift_or_cannot_be_delimited_stays(self):
        for body in ("std::vector<std::vector<int>> v;",  # two template lists closed
                     "y = a < b >> 1;",  # a < that may open a template: ambiguous
                     "operator<<(a, b);",
                     "k<<<1, 2>>>(x);",
                     "y = a <\n#if X\n< 2;\n#endif",  # a directive inside
                     "y = (x) << 1 y;",
                     "y = x << (T)f;"):  # a cast to a type the rewrite cannot tell
            out = self.device(body)
            self.assertNotIn("gpu_sh", out, body)

    def test_stream_manipulators_are_no_shift_counts(self):
        # An overload set cannot be a function template's argument: `os << std::endl` stays.
        self.assertEqual(self.device("std::cout << x << std::endl;"), f"{SHL}(std::cout, x) << std::endl;")
        self.assertEqual(self.device("y = a << right;"), f"y = {SHL}(a, right);")

    def test_macro_arguments_before_a_statement_are_not_taken_for_an_operand(self):
        self.assertEqual(self.device("MACRO(x) y <<= 1;"), "MACRO(x) ::cusim::detail::gpu_shl_assign(y, 1);")


class InlinePtx(unittest.TestCase):
    """asm statements in device code become C++ on their operands (rewrite.py: rewrite_asm,
    ptx.py), on the lines they held; an instruction the simulator does not run is refused by name;
    host code's asm stays."""

    def device(self, body, qualifiers="__device__"):
        src = f"{qualifiers} void f() {{\n{body}\n}}\n"
        out = rewrite.rewrite(src, "t.cu", phases=False)
        self.assertEqual(out.count("\n"), src.count("\n"), "the line count changed")
        return out.split("\n", 1)[1].rsplit("\n}", 1)[0]

    def test_bfind_with_an_output_and_an_input(self):
        self.assertEqual(self.device('asm volatile("bfind.u32 %0, %1;" : "=r"(ret) : "r"(word));'),
                         "do { (ret) = ((unsigned)(word)) == 0 ? 0xffffffffu : 31u - (unsigned)__clz("
                         "((unsigned)(word))); } while (0);")

    def test_a_special_register_and_several_instructions_over_lines(self):
        out = self.device('asm("mov.u32 %0, %%lanemask_lt;\\n\\t"\n    "add.u32 %0, %0, %1;" : "=r"(m) : "n"(2));')
        self.assertIn("(m) = ((unsigned)((1u << (::cusim::detail::linear_thread_index() & 31u)) - 1u))", out)
        self.assertIn("(m) = (unsigned)(((unsigned)(m)) + ((unsigned)(2)))", out)
        self.assertEqual(out.count("\n"), 1)

    def test_unknown_instructions_and_operands_are_refused_by_name(self):
        for body, what in (('asm("cvt.rn.f32.s32 %0, %1;" : "=f"(y) : "r"(x));', "instruction 'cvt.rn.f32.s32 %0, %1'"),
                           ('asm("mov.u32 %0, %%nsmid;" : "=r"(y));', "special register %nsmid"),
                           ('asm("@p add.u32 %0, %0, 1;" : "+r"(y));', "'@p add.u32 %0, %0, 1' (predicates")):
            with self.assertRaises(rewrite.RewriteError) as e:
                self.device(body)
            self.assertIn(what, str(e.exception))
            self.assertIn("is not one the simulator runs", str(e.exception))

    def test_host_code_keeps_its_asm(self):
        src = 'void host() { asm volatile("pause"); }\n'
        self.assertEqual(rewrite.rewrite(src, "t.cu", phases=False), src)


class HostCode(unittest.TestCase):
    """Host functions' definitions marked CUSIM_HOST_CODE, which the driver defines as the
    attribute that leaves them uninstrumented (rewrite.py: mark_host_function, place_host_mark,
    mark_host_lambda), where it moves no column of the definition's line when there is such a place."""

    def marked(self, src):
        """src's rewrite after a kernel's definition on the line before it: what follows that
        definition (a mark at the end of its line, then src's lines)."""
        out = rewrite.rewrite("__global__ void k() {}\n" + src, "t.cu", phases=False)
        out = re.sub(r" \[\[maybe_unused\]\] static const bool cusim_kernel_registered_[^\n]*?\}\);", "", out)
        self.assertEqual(out.count("\n"), src.count("\n") + 1, "the line count changed")
        self.assertTrue(out.startswith("__global__ void k() {}"))
        return out[len("__global__ void k() {}"):]

    def test_host_functions_main_members_and_templates_are_marked(self):
        M = rewrite.HOST_CODE_MACRO
        # At the end of the code line before the definition: no column of its own line moves.
        self.assertEqual(self.marked("int main() { return 0; }\nstatic inline float h(float a) { return a; }\n"),
                         f" {M}\nint main() {{ return 0; }} {M}\nstatic inline float h(float a) {{ return a; }}\n")
        self.assertEqual(self.marked("template <class T, int N = (1 > 0)>\nT gold(const T* a) { return a[0]; }\n"),
                         f"\ntemplate <class T, int N = (1 > 0)> {M}\nT gold(const T* a) {{ return a[0]; }}\n")
        self.assertEqual(self.marked("struct S {\n public:\n  int g() const { return 1; }\n  S() : a(1) {}\n  int a;\n};\n"
                                     "int S::f() { return 2; }\n"),
                         f"\nstruct S {{\n public: {M}\n  int g() const {{ return 1; }} {M}\n  S() : a(1) {{}}\n  int a;\n}}; {M}\n"
                         "int S::f() { return 2; }\n")
        # Both branches of an #if, as the rewrite sees them: on a blank line or before a comment after a
        # directive; right after one, nowhere (the function stays instrumented).
        self.assertEqual(self.marked("#if A\n\nvoid f() {}\n#else\n// g\nvoid f() { g(); }\n#endif\n#ifdef B\nvoid h() {}\n#endif\n"),
                         f"\n#if A\n{M}\nvoid f() {{}}\n#else\n{M} // g\nvoid f() {{ g(); }}\n#endif\n#ifdef B\nvoid h() {{}}\n#endif\n")
        # With code before it on its own line: in front of it (the rest of the line moves).
        self.assertEqual(self.marked('extern "C" void c() {}\n[[nodiscard]] int n() { return 1; }\n'
                                     "template <class T> T t() { return T(); }\n"),
                         f'\nextern "C" {M} void c() {{}}\n[[nodiscard]] {M} int n() {{ return 1; }}\n'
                         f"template <class T> {M} T t() {{ return T(); }}\n")

    def test_device_code_and_what_device_code_may_call_stay_instrumented(self):
        src = ("__device__ int d() { return 1; }\n__host__ __device__ int hd() { return 2; }\n"
               "__device__ __host__ int dh() { return 3; }\nconstexpr int ce() { return 4; }\n"
               "#define QUAL __device__\nQUAL int q() { return 5; }\nHOST_DEVICE int m() { return 6; }\n"
               "struct F { __device__ int operator()(int x) const { return x; } };\n"
               "auto lambda = [](int x) { return x; };\nint decl(int);\n"
               "template <class T> requires true void r() {}\n")
        self.assertEqual(self.marked(src), "\n" + src)

    def test_lambdas_in_host_functions_are_marked_where_both_compilers_take_it(self):
        M = rewrite.HOST_CODE_MACRO
        self.assertEqual(self.marked("int main() { auto l = [](int x) { return x; }; return l(1); }\n"),
                         f" {M}\nint main() {{ auto l = [](int x) {M} {{ return x; }}; return l(1); }}\n")
        self.assertEqual(self.marked("void f(int* p) { g([&] { p[0] = 1; }, p); return [=]{ }(); }\n"),
                         f" {M}\nvoid f(int* p) {{ g([&] () {M} {{ p[0] = 1; }}, p); return [=] () {M}{{ }}(); }}\n")
        # Left instrumented: the two compilers take the attribute in different places, or a device lambda.
        body = ("auto a = [=](int x) mutable { return x; }; auto b = [](int x) -> int { return x; };\n"
                "auto c = [](int x) noexcept { return x; }; auto d = [] __device__ (int x) { return x; };\n"
                "auto e = []<class T>(T x) { return x; }; if (p) [[likely]] { g(); } int t[2] {};\n")
        self.assertEqual(self.marked("void f(int* p) {\n" + body + "}\n"), f" {M}\nvoid f(int* p) {{\n" + body + "}\n")
        # In device code nothing is marked.
        src = "__device__ int d() { auto l = [](int x) { return x; }; return l(1); }\n"
        self.assertEqual(self.marked(src), "\n" + src)


class LaunchKernel(unittest.TestCase):
    """cudaLaunchKernel of a kernel's name, cast or not, launches as <<<>>> does (rewrite.py:
    rewrite_launch_kernel); anything else stays the call by address."""

    def launched(self, body):
        out = rewrite.rewrite("__global__ void k(int*) {}\nvoid f(void** a, void* p) {\n" + body + "\n}\n", "t.cu",
                              phases=False)
        return out.split("\n")[2]

    def named(self, kernel, first, rest, cooperative=False):
        probe = (f"[=](auto cusim_t) -> decltype(::cusim::detail::kernel_pointer<decltype(cusim_t)>({kernel})) "
                 f"{{ return ::cusim::detail::kernel_pointer<decltype(cusim_t)>({kernel}); }}")
        call = f"[=](auto&... cusim_a) CUSIM_KERNEL_CALL {{ {kernel}(cusim_a...); }}"
        flag = "true" if cooperative else "false"
        return f"::cusim::detail::launch_kernel_named<{flag}>({probe}, {call}, {first}, {rest});"

    def test_a_named_kernel_cast_or_not_is_launched_by_name(self):
        for first, kernel in (("(void*)k", "k"), ("(const void *)&k", "k"), ("reinterpret_cast<void*>(k<128, 2>)", "k<128, 2>"),
                              ("reinterpret_cast<const void*>(&ns::k)", "ns::k"), ("(void*)::k", "::k"), ("k", "k")):
            self.assertEqual(self.launched(f"cudaLaunchKernel({first}, 1, dim3(2), a, 0, s);"),
                             self.named(kernel, first, "1, dim3(2), a, 0, s"))
        self.assertEqual(self.launched("::cudaLaunchCooperativeKernel((void*)k, g, b, a);"),
                         self.named("k", "(void*)k", "g, b, a", cooperative=True))
        self.assertEqual(self.launched("cudaError_t e = cudaLaunchKernel(p, 1, 1, a);"),
                         "cudaError_t e = " + self.named("p", "p", "1, 1, a"))

    def test_anything_else_stays_the_call_by_address(self):
        for body in ("cudaLaunchKernel((void*)(k), 1, 1, a);", "cudaLaunchKernel(table[0], 1, 1, a);",
                     "cudaLaunchKernel(get(), 1, 1, a);", "cudaLaunchKernel((char*)k + 0, 1, 1, a);",
                     "x.cudaLaunchKernel((void*)k, 1, 1, a);", "my::cudaLaunchKernel((void*)k, 1, 1, a);",
                     "cudaLaunchKernelExC(&cfg, (void*)k, a);"):
            self.assertEqual(self.launched(body), body)


if __name__ == "__main__":
    unittest.main()
