// SPDX-License-Identifier: MIT
// The exceptions of the C++ API: cusim::cuda_error and cusim::kernel_error.
#pragma once

#include <cusim/config.hpp>
#include <cusim/detail/source_location.hpp>

#include <cstdint>
#include <stdexcept>
#include <string>

#if CUSIM_BACKEND_IS_SIM()
#  include <cusim/backend/sim/runtime_types.hpp>
#  include <cusim/backend/sim/vector_types.hpp>
#endif

namespace cusim {

/// Where a checked array lives; named in out-of-bounds reports.
enum class memory_space : std::uint8_t { global, shared, dynamic_shared, local, constant };

/// The kind of fault a kernel_error reports.
enum class fault_kind : std::uint8_t {
  out_of_bounds,       ///< a checked array was indexed outside its extent
  barrier_divergence,  ///< threads of a block wait at different __syncthreads sites
  deadlock,            ///< no thread of a block can make progress
  exception,           ///< a C++ exception escaped the kernel
  assertion,           ///< a device-side assert failed
  stack_overflow,      ///< a thread overflowed its fiber stack
  shared_memory,       ///< the block's __shared__ arrays exceed the device limit
  warp_collective,     ///< a warp collective misused: caller outside its mask, lanes at different collectives, bad width
  grid_sync,           ///< this_grid().sync() outside a cooperative launch, or a block that never reaches it
  data_race,           ///< CUSIM_CHECK=race: two threads touch one location, one writes, nothing orders them
  uninitialized_read,  ///< CUSIM_CHECK=init: a read of shared or device memory never written
  illegal_address,     ///< a raw pointer the CPU could not access (SIGSEGV, SIGBUS): null or wild
  arithmetic,          ///< an integer division by zero (SIGFPE)
  trap,                ///< __trap(), or a trap instruction (SIGILL)
  misaligned_address,  ///< a load or store at an address not a multiple of its size (unmodified code)
};

/// A CUDA runtime error raised by the C++ API (launch validation, allocation, copies).
class cuda_error : public std::runtime_error {
 public:
  cuda_error(cudaError_t code, const std::string& what) : std::runtime_error(what), code_(code) {}
  /// The CUDA error code, as cudaGetLastError() would return it.
  cudaError_t code() const noexcept { return code_; }

 private:
  cudaError_t code_;
};

/// A fault inside a kernel, tagged with the simulated thread and block where it happened.
/// what() starts like numba's simulator, `tid=[x, y, z] ctaid=[x, y, z]: ...`, and ends with
/// the memory space (for array faults) and the source location.
class kernel_error : public std::runtime_error {
 public:
  struct details {
    fault_kind kind = fault_kind::exception;
    dim3 thread_idx{0, 0, 0};
    dim3 block_idx{0, 0, 0};
    std::int64_t index = 0;   ///< out_of_bounds: the offending index
    std::int64_t extent = 0;  ///< out_of_bounds: the size of the indexed axis
    int axis = 0;             ///< out_of_bounds: which axis
    memory_space space = memory_space::global;
    std::string file;  ///< source file of the fault ("" when unknown)
    unsigned line = 0;
    // data_race: the other side of the first hazard, its kind and how often it was seen.
    std::string hazard;  ///< "RAW", "WAR" or "WAW"
    dim3 other_thread_idx{0, 0, 0};
    dim3 other_block_idx{0, 0, 0};
    std::string other_file;
    unsigned other_line = 0;
    std::uint64_t count = 0;  ///< data_race, uninitialized_read: hazards (reads) of the first record
    std::size_t records = 0;  ///< data_race, uninitialized_read: distinct records in what()
  };

  kernel_error(const std::string& what, details d) : std::runtime_error(what), d_(std::move(d)) {}

  fault_kind kind() const noexcept { return d_.kind; }
  dim3 thread_idx() const noexcept { return d_.thread_idx; }
  dim3 block_idx() const noexcept { return d_.block_idx; }
  std::int64_t index() const noexcept { return d_.index; }
  std::int64_t extent() const noexcept { return d_.extent; }
  int axis() const noexcept { return d_.axis; }
  memory_space space() const noexcept { return d_.space; }
  const std::string& file() const noexcept { return d_.file; }
  unsigned line() const noexcept { return d_.line; }
  /// Everything known about the fault, including the other side of a data race.
  const details& info() const noexcept { return d_; }
  /// The CUDA error a GPU would report for this fault.
  cudaError_t code() const noexcept {
    switch (d_.kind) {
      case fault_kind::out_of_bounds:
      case fault_kind::stack_overflow:  // an H100 answers 700 (gpu-truth/sanitizer/stack_overflow.plain.txt)
      case fault_kind::illegal_address: return cudaErrorIllegalAddress;
      case fault_kind::assertion: return cudaErrorAssert;
      case fault_kind::misaligned_address: return cudaErrorMisalignedAddress;
      case fault_kind::shared_memory: return cudaErrorLaunchOutOfResources;
      default: return cudaErrorLaunchFailure;
    }
  }

 private:
  details d_;
};

}  // namespace cusim
