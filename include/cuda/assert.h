// SPDX-License-Identifier: MIT
// cusim's <assert.h>: the C library's, then, in a .cu file of an unmodified CUDA program (compiled
// by cusim's nvcc, which includes cusim's <cuda_runtime.h> first), assert as cusim's kernel API
// defines it: a failed assert in a kernel is a tagged fault (cudaErrorAssert at the next
// synchronisation), not the end of the process. A host source compiled by the host compiler
// (no __CUDACC__) keeps the C library's assert, as with NVIDIA's toolkit, whichever of
// <cuda_runtime.h> and <assert.h> it includes first. Like the C library's, it has no include
// guard: each inclusion follows NDEBUG as it is then.
#pragma GCC system_header
#include_next <assert.h>

#if defined(__cplusplus) && defined(__CUDACC__) && defined(CUSIM_UNMODIFIED_CUDA) && !defined(NDEBUG)
#  undef assert
#  define assert(expr)                                                                     \
      ((expr) ? static_cast<void>(0)                                                       \
              : ::cusim::detail::fail_assert(#expr, __func__,                              \
                                             ::cusim::detail::source_location::current()))
#endif
