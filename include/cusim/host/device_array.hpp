// SPDX-License-Identifier: MIT
// cusim::device_array: an owning, RAII array in device memory, like numba's device arrays.
#pragma once

#include <cusim/config.hpp>
#include <cusim/host/check.hpp>
#include <cusim/kernel/arrays.hpp>
#if CUSIM_BACKEND_IS_SIM()
#  include <cusim/backend/sim/runtime.hpp>
#endif

#include <array>
#include <concepts>
#include <cstdio>
#include <ranges>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace cusim {

/// Rank-dimensional row-major array in device memory. Converts to the span / mdspan kernel
/// parameters it views. Move-only; freed on destruction.
template <class T, std::size_t Rank = 1>
class device_array {
  static_assert(std::is_trivially_copyable_v<T>, "device_array elements must be trivially copyable");
  static_assert(Rank >= 1 && Rank <= 4, "device_array supports ranks 1 to 4");

 public:
  using value_type = T;
  static constexpr std::size_t rank = Rank;

  device_array() = default;
  /// An uninitialised array of the given shape (one extent per axis). Throws cuda_error.
  template <std::integral... E>
    requires(sizeof...(E) == Rank)
  explicit device_array(E... extents) : device_array(std::array<index_t, Rank>{static_cast<index_t>(extents)...}) {}
  explicit device_array(const std::array<index_t, Rank>& shape) : shape_(shape) {
    for (index_t e : shape_)
      if (e < 0) throw cuda_error(cudaErrorInvalidValue, "cusim::device_array: negative extent " + std::to_string(e));
    if (size() != 0) check(cudaMalloc(reinterpret_cast<void**>(&data_), size() * sizeof(T)), "cusim::device_array");
  }
  device_array(device_array&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), shape_(std::exchange(other.shape_, {})) {}
  device_array& operator=(device_array&& other) noexcept {
    if (this != &other) {
      release();
      data_ = std::exchange(other.data_, nullptr);
      shape_ = std::exchange(other.shape_, {});
    }
    return *this;
  }
  device_array(const device_array&) = delete;
  device_array& operator=(const device_array&) = delete;
  ~device_array() { release(); }

  T* data() const noexcept { return data_; }
  std::size_t size() const noexcept {
    std::size_t n = 1;
    for (index_t e : shape_) n *= static_cast<std::size_t>(e);
    return n;
  }
  index_t extent(int axis) const noexcept {
    return axis >= 0 && axis < static_cast<int>(Rank) ? shape_[axis] : 0;
  }
  const std::array<index_t, Rank>& shape() const noexcept { return shape_; }

  /// The kernel-parameter view: span<T> for rank 1, mdspan<T, Rank> otherwise.
  auto view() const noexcept {
    if constexpr (Rank == 1)
      return span<T>(data_, size());
    else
      return mdspan<T, Rank>(data_, shape_.data());
  }
  operator mdspan<T, Rank>() const noexcept { return mdspan<T, Rank>(data_, shape_.data()); }
  operator mdspan<const T, Rank>() const noexcept { return mdspan<const T, Rank>(data_, shape_.data()); }
  operator span<T>() const noexcept requires(Rank == 1) { return span<T>(data_, size()); }
  operator span<const T>() const noexcept requires(Rank == 1) { return span<const T>(data_, size()); }

  /// Copies the whole array to a new host vector (row-major).
  std::vector<T> copy_to_host() const {
    std::vector<T> out(size());
    copy_to_host(out);
    return out;
  }
  /// Copies the whole array into `dest` (a contiguous range of exactly size() elements).
  template <std::ranges::contiguous_range C>
  void copy_to_host(C&& dest) const {
    expect_size(std::ranges::size(dest), "copy_to_host");
    if (size() != 0)
      check(cudaMemcpy(std::ranges::data(dest), data_, size() * sizeof(T), cudaMemcpyDeviceToHost),
            "cusim::device_array::copy_to_host");
  }
  /// Copies `src` (a contiguous range of exactly size() elements) into the array.
  template <std::ranges::contiguous_range C>
  void copy_from_host(const C& src) {
    expect_size(std::ranges::size(src), "copy_from_host");
    if (size() != 0)
      check(cudaMemcpy(data_, std::ranges::data(src), size() * sizeof(T), cudaMemcpyHostToDevice),
            "cusim::device_array::copy_from_host");
  }

 private:
  void expect_size(std::size_t n, const char* op) const {
    if (n != size())
      throw cuda_error(cudaErrorInvalidValue, std::string("cusim::device_array::") + op + ": host range has " +
                                                  std::to_string(n) + " elements, the array has " +
                                                  std::to_string(size()));
  }
  void release() noexcept {
    if (data_ != nullptr && cudaFree(data_) != cudaSuccess)
      std::fprintf(stderr, "cusim: cudaFree failed in ~device_array\n");
    data_ = nullptr;
  }

  T* data_ = nullptr;
  std::array<index_t, Rank> shape_{};
};

/// Copies a host range to a new rank-1 device array.
template <std::ranges::contiguous_range C>
auto to_device(const C& src) {
  using T = std::remove_cv_t<std::ranges::range_value_t<C>>;
  device_array<T, 1> out(std::ranges::size(src));
  out.copy_from_host(src);
  return out;
}

/// Copies a host range, read row-major, to a new device array of the given shape.
template <std::ranges::contiguous_range C, std::integral... E>
  requires(sizeof...(E) >= 1)
auto to_device(const C& src, E... shape) {
  using T = std::remove_cv_t<std::ranges::range_value_t<C>>;
  device_array<T, sizeof...(E)> out(shape...);
  out.copy_from_host(src);
  return out;
}

/// An uninitialised device array with the same shape and element type as `like`.
template <class T, std::size_t Rank>
device_array<T, Rank> device_array_like(const device_array<T, Rank>& like) {
  return device_array<T, Rank>(like.shape());
}
/// An uninitialised rank-1 device array with as many elements as the host range `like`.
template <std::ranges::contiguous_range C>
auto device_array_like(const C& like) {
  return device_array<std::remove_cv_t<std::ranges::range_value_t<C>>, 1>(std::ranges::size(like));
}

/// Fills a __constant__ cusim::const_array from a host range of exactly as many elements.
template <class A, std::ranges::contiguous_range C>
void copy_to_constant(A& symbol, const C& src) {
  if (std::ranges::size(src) != symbol.size())
    throw cuda_error(cudaErrorInvalidValue, "cusim::copy_to_constant: host range has " +
                                                std::to_string(std::ranges::size(src)) +
                                                " elements, the constant array has " + std::to_string(symbol.size()));
  check(cudaMemcpyToSymbol(symbol, std::ranges::data(src), sizeof(symbol)), "cusim::copy_to_constant");
}

}  // namespace cusim
