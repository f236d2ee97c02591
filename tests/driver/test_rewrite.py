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
    call = f"[=](auto&... cusim_a) {{ {kernel}(cusim_a...); }}"
    return f"::cusim::detail::chevron({config})({probe}, {call}" + (f", {args})" if args else ")")


# The tag the rewrite of "t.cu" puts in its namespace-scope names (rewrite.py: _Rewriter.tag).
TAG = rewrite._Rewriter([], "t.cu").tag


class Rewrite(unittest.TestCase):
    def check(self, src, expected, registrations=False):
        """`registrations`: compare the kernels' registrations too (else they are left out)."""
        out = rewrite.rewrite(src, "t.cu", phases=False)
        if not registrations:
            out = re.sub(r" \[\[maybe_unused\]\] static const bool cusim_kernel_registered_[^\n]*?\}\);", "", out)
        self.assertEqual(out, expected)
        self.assertEqual(out.count("\n"), src.count("\n"), "the line count changed")

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

    # -- refusals
    def test_shared_at_namespace_scope_is_refused(self):
        self.refuse("int a;\n__shared__ float s[4];\n",
                    "t.cu:2: cusim nvcc: cannot rewrite the __shared__ declaration: a __shared__ variable outside "
                    "a function body (namespace or class scope) has no rewrite; declare it inside the kernel")

    def test_shared_in_a_class_is_refused(self):
        self.refuse("struct S {\n  __shared__ int x;\n};\n",
                    "t.cu:2: cusim nvcc: cannot rewrite the __shared__ declaration: a __shared__ variable outside "
                    "a function body (namespace or class scope) has no rewrite; declare it inside the kernel")

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

    def test_shared_in_a_macro_is_refused(self):
        self.refuse("#define SMEM __shared__ float s[4]\n",
                    "t.cu:1: cusim nvcc: cannot rewrite the __shared__ declaration: it is inside a macro definition")

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
            "an atomic": ("  s[t] = in[t];\n", "  atomicAdd(out, in[t]);\n"),
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
        for what, (old, new) in cases.items():
            src = self.KERNEL.replace(old, new, 1)
            self.assertNotEqual(src, self.KERNEL, what)
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

    def test_a_device_function_of_the_file_may_be_called_unless_it_waits(self):
        calm = "__device__ float twice(float x) { return 2.0f * x; }\n"
        waits = "__device__ float twice(float x) { __syncthreads(); return 2.0f * x; }\n"
        src = self.KERNEL.replace("  s[t] = in[t];\n", "  s[t] = twice(in[t]);\n")
        self.assertIsNotNone(self.phased(calm + src))
        self.assertIsNone(self.phased(waits + src))

    def test_auto_locals_whose_type_names_no_local_are_replicated(self):
        src = self.KERNEL.replace("  const unsigned t = threadIdx.x;\n",
                                  "  auto [x, y] = cusim::grid<2>();\n  const auto t = threadIdx.x;\n")
        out = self.phased(src)
        self.assertIn("cusim_pb_.slots<std::remove_cv_t<std::decay_t<decltype(cusim::grid<2>())>>>()", out)
        self.assertIn("[[maybe_unused]] auto& [x, y] = (cusim_l0_ = ", out)
        self.assertIn("[[maybe_unused]] const auto& t = cusim_l1_;", out)

    def test_kernels_without_barriers_are_left_as_they_are(self):
        src = "__global__ void k(float* p) { p[threadIdx.x] = 1; }\n"
        self.assertEqual(rewrite.rewrite(src, "t.cu"), rewrite.rewrite(src, "t.cu", phases=False))



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
            bad = self.API.replace("__global__", "#define S __shared__ float x[2];\n__global__")
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


if __name__ == "__main__":
    unittest.main()
