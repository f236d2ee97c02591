// SPDX-License-Identifier: MIT
// Checked arrays: span, mdspan (global memory), shared_array, dynamic_shared, local_array,
// const_array. Row-major like numba. On the simulator every element access is bounds-checked
// and a bad index throws cusim::kernel_error tagged with the thread, block and source line.
#pragma once

#include <cusim/config.hpp>
#include <cusim/detail/source_location.hpp>
#include <cusim/error.hpp>

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

namespace cusim {
/// Indices and extents are signed, so `a[i - 1]` with i == 0 reports index -1.
using index_t = std::int64_t;
}  // namespace cusim

// The backend's check_index, element and observed: what every element access below goes through.
#if CUSIM_BACKEND_IS_SIM()
#  include <cusim/backend/sim/array_checks.hpp>
#else
#  include <cusim/backend/cuda/array_checks.hpp>
#endif

namespace cusim {

namespace detail {

/// An index as the caller wrote it, with the caller's source line.
struct index_arg {
  index_t value;
  source_location site;

  template <std::integral I>
    requires(!std::same_as<I, bool>)
  constexpr CUSIM_HD index_arg(I i, source_location s = source_location::current()) noexcept
      : value(sizeof(I) < 4 ? static_cast<index_t>(i)  // uint8_t/uint16_t data used as an index
                            : static_cast<index_t>(static_cast<std::make_signed_t<I>>(i))),  // 0u - 1 is -1
        site(s) {}
};

template <class First, class... Rest>
CUSIM_HD constexpr const First& first_of(const First& first, const Rest&...) noexcept {
  return first;
}

/// Checks every index against its axis and returns the row-major offset (-1 after a fault the
/// GPU's checked mode recorded).
template <class... Idx>
CUSIM_HD inline index_t row_major_offset(const index_t* extents, memory_space space, const Idx&... idx) {
  index_t offset = 0;
  int axis = 0;
  bool ok = true;
  ((ok = check_index(idx.value, extents[axis], axis, space, idx.site) && ok,
    offset = offset * extents[axis] + idx.value, ++axis),
   ...);
  return ok ? offset : -1;
}

/// operator[] (rank 1) and operator()(i, j, ...) for an array type that provides at(idx...).
template <class Derived, std::size_t Rank>
struct element_access {
  CUSIM_HD decltype(auto) operator[](index_arg i) const requires(Rank == 1) { return self().at(i); }
  CUSIM_HD decltype(auto) operator()(index_arg i) const requires(Rank == 1) { return self().at(i); }
  CUSIM_HD decltype(auto) operator()(index_arg i, index_arg j) const requires(Rank == 2) {
    return self().at(i, j);
  }
  CUSIM_HD decltype(auto) operator()(index_arg i, index_arg j, index_arg k) const requires(Rank == 3) {
    return self().at(i, j, k);
  }
  CUSIM_HD decltype(auto) operator()(index_arg i, index_arg j, index_arg k, index_arg l) const
    requires(Rank == 4)
  {
    return self().at(i, j, k, l);
  }

 private:
  CUSIM_HD const Derived& self() const { return static_cast<const Derived&>(*this); }
};

/// Extents fixed at compile time (shared, local and constant arrays).
template <std::size_t N0, std::size_t... N>
struct static_extents {
  static constexpr std::size_t rank = 1 + sizeof...(N);
  static constexpr std::size_t count = (N0 * ... * N);
  struct list {
    index_t values[rank];
  };
  /// By value: a static member array would not exist in device code.
  static CUSIM_HD constexpr list extents() { return {{static_cast<index_t>(N0), static_cast<index_t>(N)...}}; }
  static CUSIM_HD constexpr index_t extent(int axis) {
    return axis >= 0 && axis < static_cast<int>(rank) ? extents().values[axis] : 0;
  }
  template <class... Idx>
  static CUSIM_HD index_t offset(memory_space space, const Idx&... idx) {
    constexpr list e = extents();
    return row_major_offset(e.values, space, idx...);
  }
};

/// What shared_array, local_array and const_array have in common: a shape fixed at compile time,
/// row-major checked access in memory space Space, and the element storage behind Derived::data().
template <class Derived, class Elem, memory_space Space, std::size_t N0, std::size_t... N>
class fixed_array : public element_access<Derived, 1 + sizeof...(N)> {
  using shape = static_extents<N0, N...>;

 public:
  using element_type = Elem;
  static constexpr std::size_t rank = shape::rank;

  static constexpr CUSIM_HD std::size_t size() noexcept { return shape::count; }
  static constexpr CUSIM_HD index_t extent(int axis) noexcept { return shape::extent(axis); }

  template <class... Idx>
  CUSIM_HD Elem& at(const Idx&... idx) const {
    Elem& e = element(static_cast<const Derived&>(*this).data(), shape::offset(Space, idx...));
    if constexpr (Space == memory_space::shared) return observed(e, Space, first_of(idx...).site);
    return e;  // local arrays are private to a thread, constant arrays read-only
  }
};

}  // namespace detail

/// A checked view of `size()` elements of global memory (a kernel parameter). 16 bytes, so it
/// travels in registers: the memory space (named in fault reports) shares the size's word.
template <class T>
class span : public detail::element_access<span<T>, 1> {
  static constexpr int space_shift = 56;
  static constexpr std::uint64_t size_mask = (std::uint64_t{1} << space_shift) - 1;

 public:
  using element_type = T;
  using value_type = std::remove_cv_t<T>;

  constexpr span() = default;
  CUSIM_HD constexpr span(T* data, std::size_t size, memory_space space = memory_space::global) noexcept
      : data_(data), word_((static_cast<std::uint64_t>(size) & size_mask) |
                           static_cast<std::uint64_t>(space) << space_shift) {}
  template <class U>
    requires std::is_convertible_v<U (*)[], T (*)[]>
  CUSIM_HD constexpr span(const span<U>& other) noexcept : span(other.data(), other.size(), other.space()) {}

  CUSIM_HD constexpr T* data() const noexcept { return data_; }
  CUSIM_HD constexpr std::size_t size() const noexcept { return static_cast<std::size_t>(word_ & size_mask); }
  CUSIM_HD constexpr index_t extent(int axis) const noexcept { return axis == 0 ? static_cast<index_t>(size()) : 0; }
  CUSIM_HD constexpr memory_space space() const noexcept { return static_cast<memory_space>(word_ >> space_shift); }
  CUSIM_HD constexpr T* begin() const noexcept { return data_; }
  CUSIM_HD constexpr T* end() const noexcept { return data_ + size(); }

  CUSIM_HD T& at(const detail::index_arg& i) const {
    const index_t extent = static_cast<index_t>(size());
    return detail::observed(detail::element(data_, detail::row_major_offset(&extent, space(), i)), space(), i.site);
  }

 private:
  T* data_ = nullptr;
  std::uint64_t word_ = 0;
};

/// A checked, row-major view of global memory with Rank axes: m(i, j) is data()[i * extent(1) + j].
template <class T, std::size_t Rank>
class mdspan : public detail::element_access<mdspan<T, Rank>, Rank> {
  static_assert(Rank >= 1 && Rank <= 4, "cusim::mdspan supports ranks 1 to 4");

 public:
  using element_type = T;
  using value_type = std::remove_cv_t<T>;
  static constexpr std::size_t rank = Rank;

  constexpr mdspan() = default;
  template <std::integral... E>
    requires(sizeof...(E) == Rank)
  CUSIM_HD constexpr mdspan(T* data, E... extents) noexcept
      : data_(data), extents_{static_cast<index_t>(extents)...} {}
  CUSIM_HD constexpr mdspan(T* data, const index_t* extents) noexcept : data_(data) {
    for (std::size_t a = 0; a < Rank; ++a) extents_[a] = extents[a];
  }
  template <class U>
    requires std::is_convertible_v<U (*)[], T (*)[]>
  CUSIM_HD constexpr mdspan(const mdspan<U, Rank>& other) noexcept : mdspan(other.data(), other.extents()) {}

  CUSIM_HD constexpr T* data() const noexcept { return data_; }
  CUSIM_HD constexpr const index_t* extents() const noexcept { return extents_; }
  CUSIM_HD constexpr index_t extent(int axis) const noexcept {
    return axis >= 0 && axis < static_cast<int>(Rank) ? extents_[axis] : 0;
  }
  CUSIM_HD constexpr std::size_t size() const noexcept {
    index_t n = 1;
    for (std::size_t a = 0; a < Rank; ++a) n *= extents_[a];
    return static_cast<std::size_t>(n);
  }

  template <class... Idx>
  CUSIM_HD T& at(const Idx&... idx) const {
    return detail::observed(detail::element(data_, detail::row_major_offset(extents_, memory_space::global, idx...)),
                            memory_space::global, detail::first_of(idx...).site);
  }

 private:
  T* data_ = nullptr;
  index_t extents_[Rank] = {};
};

}  // namespace cusim

#if CUSIM_BACKEND_IS_SIM()
#  include <cusim/backend/sim/arrays.hpp>
#else
#  include <cusim/backend/cuda/arrays.hpp>
#endif

namespace cusim {

/// A read-only array in constant memory, declared at namespace scope:
/// `__constant__ cusim::const_array<float, 9> weights;` and filled from the host with
/// cusim::copy_to_constant(weights, values). An aggregate on both backends.
template <class T, std::size_t N0, std::size_t... N>
class const_array
    : public detail::fixed_array<const_array<T, N0, N...>, const T, memory_space::constant, N0, N...> {
 public:
  CUSIM_HD const T* data() const noexcept { return data_; }
  T data_[(N0 * ... * N)];  // public only so that the type stays an aggregate; use copy_to_constant
};

}  // namespace cusim
