// SPDX-License-Identifier: MIT
// cusim's CUB (cub/detail/cusim_cub.cuh): cub::DeviceRadixSort over pointers, with DeviceReduce's
// protocol (cub/device/device_reduce.cuh). The sort is CUB's: stable, by the key bits
// [begin_bit, end_bit) of the key's order-preserving unsigned image (signed integers with the sign
// bit flipped, floating point with -0.0 before +0.0 and negative NaNs first, as CUB orders them),
// ascending or descending. It runs on the stream as a kernel, a least-significant-digit radix sort
// of 8-bit digits, using the temporary storage (as many keys and values as the input) between
// passes, so that the checks see every read and write.
#pragma once

#include <cub/detail/cusim_cub.cuh>
#include <cub/device/device_reduce.cuh>

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace cub {

struct NullType {};

/// A pair of buffers of which one holds the data (Current()) and the other is free (Alternate()):
/// the DoubleBuffer forms of DeviceRadixSort sort from Current() and leave the result in the one
/// selector then names.
template <typename T>
struct DoubleBuffer {
  T* d_buffers[2];
  int selector;

  __host__ __device__ __forceinline__ DoubleBuffer() : d_buffers{nullptr, nullptr}, selector(0) {}
  __host__ __device__ __forceinline__ DoubleBuffer(T* d_current, T* d_alternate)
      : d_buffers{d_current, d_alternate}, selector(0) {}
  __host__ __device__ __forceinline__ T* Current() { return d_buffers[selector]; }
  __host__ __device__ __forceinline__ T* Alternate() { return d_buffers[selector ^ 1]; }
};

namespace cusim_detail {

template <typename K>
using key_bits = std::conditional_t<sizeof(K) == 1, std::uint8_t,
                 std::conditional_t<sizeof(K) == 2, std::uint16_t,
                 std::conditional_t<sizeof(K) == 4, std::uint32_t, std::uint64_t>>>;

// The unsigned image of a key, ordered as the keys are.
template <typename K>
__device__ key_bits<K> ordered_bits(K key) {
  using U = key_bits<K>;
  U u;
  std::memcpy(&u, &key, sizeof(K));
  constexpr U sign = U(U(1) << (sizeof(K) * 8 - 1));
  if constexpr (std::is_floating_point_v<K>) u = (u & sign) ? U(~u) : U(u | sign);
  else if constexpr (std::is_signed_v<K>) u = U(u ^ sign);
  return u;
}

template <bool Descending, typename K, typename V>
__global__ void radix_sort_kernel(const K* keys_in, K* keys_out, const V* values_in, V* values_out, int n,
                                  int begin_bit, int end_bit, K* keys_tmp, V* values_tmp) {
  constexpr bool pairs = !std::is_same_v<V, NullType>;
  for (int i = 0; i < n; ++i) {
    keys_out[i] = keys_in[i];
    if constexpr (pairs) values_out[i] = values_in[i];
  }
  K* keys_from = keys_out;
  K* keys_to = keys_tmp;
  V* values_from = values_out;
  V* values_to = values_tmp;
  for (int shift = begin_bit; shift < end_bit; shift += 8) {
    const int bits = end_bit - shift < 8 ? end_bit - shift : 8;
    const unsigned mask = (1u << bits) - 1u;
    int offsets[257] = {};
    auto digit = [&](K key) {
      auto u = ordered_bits(key);
      if (Descending) u = decltype(u)(~u);
      return static_cast<unsigned>(u >> shift) & mask;
    };
    for (int i = 0; i < n; ++i) ++offsets[digit(keys_from[i]) + 1];
    for (int d = 1; d <= 256; ++d) offsets[d] += offsets[d - 1];
    for (int i = 0; i < n; ++i) {
      const int at = offsets[digit(keys_from[i])]++;
      keys_to[at] = keys_from[i];
      if constexpr (pairs) values_to[at] = values_from[i];
    }
    K* k = keys_from;
    keys_from = keys_to;
    keys_to = k;
    V* v = values_from;
    values_from = values_to;
    values_to = v;
  }
  if (keys_from != keys_out)
    for (int i = 0; i < n; ++i) {
      keys_out[i] = keys_from[i];
      if constexpr (pairs) values_out[i] = values_from[i];
    }
}

template <bool Descending, typename K, typename V>
cudaError_t radix_sort(void* d_temp_storage, std::size_t& temp_storage_bytes, const K* keys_in, K* keys_out,
                       const V* values_in, V* values_out, int n, int begin_bit, int end_bit, cudaStream_t stream) {
  constexpr bool pairs = !std::is_same_v<V, NullType>;
  const std::size_t key_bytes = (sizeof(K) * static_cast<std::size_t>(n > 0 ? n : 0) + 255) / 256 * 256;
  const std::size_t value_bytes = pairs ? sizeof(V) * static_cast<std::size_t>(n > 0 ? n : 0) : 0;
  const std::size_t needed = key_bytes + value_bytes + 256;
  if (d_temp_storage == nullptr) {
    temp_storage_bytes = needed;
    return cudaSuccess;
  }
  if (temp_storage_bytes < needed) return cudaErrorInvalidValue;
  K* keys_tmp = static_cast<K*>(d_temp_storage);
  V* values_tmp = pairs ? reinterpret_cast<V*>(static_cast<char*>(d_temp_storage) + key_bytes) : nullptr;
  return CUSIM_CUB_LAUNCH((radix_sort_kernel<Descending, K, V>), 1, 1, stream, keys_in, keys_out, values_in,
                          values_out, n, begin_bit, end_bit, keys_tmp, values_tmp);
}

}  // namespace cusim_detail

struct DeviceRadixSort {
  // The DoubleBuffer forms: sorted from Current() into Alternate(), which becomes Current(). They
  // ask for no more temporary storage than CUB's minimum (the buffers are the scratch space).
  template <typename KeyT>
  static cudaError_t SortKeys(void* d_temp_storage, std::size_t& temp_storage_bytes, DoubleBuffer<KeyT>& d_keys,
                              int num_items, int begin_bit = 0, int end_bit = sizeof(KeyT) * 8,
                              cudaStream_t stream = 0) {
    return double_buffer<false, KeyT, NullType>(d_temp_storage, temp_storage_bytes, d_keys, nullptr, num_items,
                                                begin_bit, end_bit, stream);
  }
  template <typename KeyT>
  static cudaError_t SortKeysDescending(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                        DoubleBuffer<KeyT>& d_keys, int num_items, int begin_bit = 0,
                                        int end_bit = sizeof(KeyT) * 8, cudaStream_t stream = 0) {
    return double_buffer<true, KeyT, NullType>(d_temp_storage, temp_storage_bytes, d_keys, nullptr, num_items,
                                               begin_bit, end_bit, stream);
  }
  template <typename KeyT, typename ValueT>
  static cudaError_t SortPairs(void* d_temp_storage, std::size_t& temp_storage_bytes, DoubleBuffer<KeyT>& d_keys,
                               DoubleBuffer<ValueT>& d_values, int num_items, int begin_bit = 0,
                               int end_bit = sizeof(KeyT) * 8, cudaStream_t stream = 0) {
    return double_buffer<false, KeyT, ValueT>(d_temp_storage, temp_storage_bytes, d_keys, &d_values, num_items,
                                              begin_bit, end_bit, stream);
  }
  template <typename KeyT, typename ValueT>
  static cudaError_t SortPairsDescending(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                         DoubleBuffer<KeyT>& d_keys, DoubleBuffer<ValueT>& d_values, int num_items,
                                         int begin_bit = 0, int end_bit = sizeof(KeyT) * 8, cudaStream_t stream = 0) {
    return double_buffer<true, KeyT, ValueT>(d_temp_storage, temp_storage_bytes, d_keys, &d_values, num_items,
                                             begin_bit, end_bit, stream);
  }

  template <typename KeyT>
  static cudaError_t SortKeys(void* d_temp_storage, std::size_t& temp_storage_bytes, const KeyT* d_keys_in,
                              KeyT* d_keys_out, int num_items, int begin_bit = 0,
                              int end_bit = sizeof(KeyT) * 8, cudaStream_t stream = 0) {
    return cusim_detail::radix_sort<false, KeyT, NullType>(d_temp_storage, temp_storage_bytes, d_keys_in,
                                                           d_keys_out, nullptr, nullptr, num_items, begin_bit,
                                                           end_bit, stream);
  }

  template <typename KeyT>
  static cudaError_t SortKeysDescending(void* d_temp_storage, std::size_t& temp_storage_bytes, const KeyT* d_keys_in,
                                        KeyT* d_keys_out, int num_items, int begin_bit = 0,
                                        int end_bit = sizeof(KeyT) * 8, cudaStream_t stream = 0) {
    return cusim_detail::radix_sort<true, KeyT, NullType>(d_temp_storage, temp_storage_bytes, d_keys_in,
                                                          d_keys_out, nullptr, nullptr, num_items, begin_bit,
                                                          end_bit, stream);
  }

  template <typename KeyT, typename ValueT>
  static cudaError_t SortPairs(void* d_temp_storage, std::size_t& temp_storage_bytes, const KeyT* d_keys_in,
                               KeyT* d_keys_out, const ValueT* d_values_in, ValueT* d_values_out, int num_items,
                               int begin_bit = 0, int end_bit = sizeof(KeyT) * 8, cudaStream_t stream = 0) {
    return cusim_detail::radix_sort<false, KeyT, ValueT>(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out,
                                                         d_values_in, d_values_out, num_items, begin_bit, end_bit,
                                                         stream);
  }

  template <typename KeyT, typename ValueT>
  static cudaError_t SortPairsDescending(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                         const KeyT* d_keys_in, KeyT* d_keys_out, const ValueT* d_values_in,
                                         ValueT* d_values_out, int num_items, int begin_bit = 0,
                                         int end_bit = sizeof(KeyT) * 8, cudaStream_t stream = 0) {
    return cusim_detail::radix_sort<true, KeyT, ValueT>(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out,
                                                        d_values_in, d_values_out, num_items, begin_bit, end_bit,
                                                        stream);
  }

 private:
  template <bool Descending, typename KeyT, typename ValueT>
  static cudaError_t double_buffer(void* d_temp_storage, std::size_t& temp_storage_bytes, DoubleBuffer<KeyT>& keys,
                                   DoubleBuffer<ValueT>* values, int num_items, int begin_bit, int end_bit,
                                   cudaStream_t stream) {
    if (d_temp_storage == nullptr) {
      temp_storage_bytes = cusim_detail::reduce_temp_bytes;
      return cudaSuccess;
    }
    if (temp_storage_bytes < cusim_detail::reduce_temp_bytes) return cudaErrorInvalidValue;
    // The current buffers are the input and the scratch space; the result goes to the alternates.
    const ValueT* values_in = values ? values->Current() : nullptr;
    ValueT* values_out = values ? values->Alternate() : nullptr;
    ValueT* values_tmp = values ? values->Current() : nullptr;
    cudaError_t e = CUSIM_CUB_LAUNCH((cusim_detail::radix_sort_kernel<Descending, KeyT, ValueT>), 1, 1, stream,
                                     static_cast<const KeyT*>(keys.Current()), keys.Alternate(), values_in,
                                     values_out, num_items, begin_bit, end_bit, keys.Current(), values_tmp);
    if (e == cudaSuccess) {
      keys.selector ^= 1;
      if (values) values->selector ^= 1;
    }
    return e;
  }
};

}  // namespace cub
