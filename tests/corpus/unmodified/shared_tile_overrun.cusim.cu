#line 1 "shared_tile_overrun.cu"
// A tiled transpose whose 16x16 shared tile is read one column too far: row overrun.
#include <cstdio>

#define TILE 16

__global__ void transpose(float* out, const float* in, int n) {
  static constexpr char cusim_shared_key_1 = 0; auto& tile = ::cusim::detail::shared_variable<float[TILE][TILE]>(&cusim_shared_key_1, ::cusim::detail::source_location::current()); [[maybe_unused]] static const bool cusim_shared_key_1_named = ::cusim::detail::name_array("tile", ::cusim::memory_space::shared);
  int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * n + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  out[y * n + x] = tile[threadIdx.x][threadIdx.y + 1];  // bug: + 1
} [[maybe_unused]] static const bool cusim_kernel_registered_1_6_ = ::cusim::detail::register_kernel_probe([](auto cusim_t_) -> decltype(::cusim::detail::kernel_pointer<decltype(cusim_t_)>(transpose)) { return ::cusim::detail::kernel_pointer<decltype(cusim_t_)>(transpose); });

int main() {
  const int n = 64;
  float *in, *out;
  cudaMalloc(&in, n * n * sizeof(float));
  cudaMalloc(&out, n * n * sizeof(float));
  cudaMemset(in, 0, n * n * sizeof(float));
  ::cusim::detail::chevron(dim3(n / TILE, n / TILE), dim3(TILE, TILE))([=](auto cusim_t) -> decltype(::cusim::detail::kernel_pointer<decltype(cusim_t)>(transpose)) { return ::cusim::detail::kernel_pointer<decltype(cusim_t)>(transpose); }, [=](auto&... cusim_a) { transpose(cusim_a...); }, out, in, n);
  printf("transpose: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
