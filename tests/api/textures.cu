// SPDX-License-Identifier: MIT
// Texture and surface objects from cusim API kernels: the H100's values of a 2-D uchar4 texture
// read as normalized floats with linear filtering (../shared/gpu-truth/libraries.h100.txt), a
// layered fetch, a surface written and read back, and (on the simulator) the tagged fault of a
// trapped surface write. With CUSIM_BACKEND=cuda the same source uses NVIDIA's runtime and fetches.
#include "test_support.hpp"

#include <string>
#include <vector>

__global__ void fetch_uchar4(cudaTextureObject_t t, cusim::span<const float2> ps, cusim::span<float4> out) {
  for (std::size_t i = 0; i < ps.size(); ++i) out[i] = tex2D<float4>(t, ps[i].x, ps[i].y);
}

__global__ void scale_surface(cudaSurfaceObject_t s, int width, int height) {
  const int x = static_cast<int>(threadIdx.x), y = static_cast<int>(blockIdx.x);
  if (x < width && y < height) {
    const int v = surf2Dread<int>(s, x * 4, y);
    surf2Dwrite(v * 3, s, x * 4, y);
  }
}

__global__ void write_outside(cudaSurfaceObject_t s) { surf2Dwrite(1, s, 64, 0); }

TEST_CASE("a uchar4 texture read as normalized floats filters as the H100 does") {
  const int w = 4, h = 3;
  std::vector<uchar4> img(w * h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      img[y * w + x] = make_uchar4(x * 80, y * 120, (x + y) * 37, 255 - x * y * 20);
  cudaChannelFormatDesc cd = cudaCreateChannelDesc<uchar4>();
  cudaArray_t array = nullptr;
  REQUIRE(cudaMallocArray(&array, &cd, w, h) == cudaSuccess);
  REQUIRE(cudaMemcpy2DToArray(array, 0, 0, img.data(), w * sizeof(uchar4), w * sizeof(uchar4), h,
                              cudaMemcpyHostToDevice) == cudaSuccess);
  cudaResourceDesc rd{};
  rd.resType = cudaResourceTypeArray;
  rd.res.array.array = array;
  cudaTextureDesc td{};
  td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
  td.filterMode = cudaFilterModeLinear;
  td.readMode = cudaReadModeNormalizedFloat;
  cudaTextureObject_t t = 0;
  REQUIRE(cudaCreateTextureObject(&t, &rd, &td, nullptr) == cudaSuccess);
  const std::vector<float2> ps = {{1.3f, 0.7f}, {2.71f, 1.93f}, {1.001f, 2.499f}};
  auto dps = cusim::to_device(ps);
  cusim::device_array<float4> out(ps.size());
  cusim::launch(fetch_uchar4, 1, 1, t, dps, out);
  const auto r = out.copy_to_host();
  // libraries.h100.txt: the values printed with %.9g, which identify the floats.
  const float want[3][4] = {{0.251224548f, 0.0937514305f, 0.145098045f, 0.987441838f},
                            {0.693629384f, 0.672800779f, 0.528252065f, 0.752147734f},
                            {0.156862751f, 0.941176474f, 0.362752736f, 0.921568632f}};
  for (int i = 0; i < 3; ++i) {
    INFO("point ", i);
    CHECK(r[i].x == want[i][0]);
    CHECK(r[i].y == want[i][1]);
    CHECK(r[i].z == want[i][2]);
    CHECK(r[i].w == want[i][3]);
  }
  CHECK(cudaDestroyTextureObject(t) == cudaSuccess);
  CHECK(cudaFreeArray(array) == cudaSuccess);
}

TEST_CASE("a surface is read and written by a cusim kernel, and a write outside it with Trap faults") {
  const int w = 4, h = 2;
  cudaChannelFormatDesc cd = cudaCreateChannelDesc<int>();
  cudaArray_t array = nullptr;
  REQUIRE(cudaMallocArray(&array, &cd, w, h, cudaArraySurfaceLoadStore) == cudaSuccess);
  const int values[h][w] = {{1, 2, 3, 4}, {5, 6, 7, 8}};
  REQUIRE(cudaMemcpy2DToArray(array, 0, 0, values, sizeof values[0], sizeof values[0], h, cudaMemcpyHostToDevice) ==
          cudaSuccess);
  cudaResourceDesc rd{};
  rd.resType = cudaResourceTypeArray;
  rd.res.array.array = array;
  cudaSurfaceObject_t s = 0;
  REQUIRE(cudaCreateSurfaceObject(&s, &rd) == cudaSuccess);
  cusim::launch(scale_surface, h, 32, s, w, h);
  cusim::synchronize();
  int back[h][w] = {};
  REQUIRE(cudaMemcpy2DFromArray(back, sizeof back[0], array, 0, 0, sizeof back[0], h, cudaMemcpyDeviceToHost) ==
          cudaSuccess);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) CHECK(back[y][x] == 3 * values[y][x]);
  // Copying past the array is CUDA's invalid value.
  CHECK(cudaMemcpy2DToArray(array, 4, 0, values, sizeof values[0], sizeof values[0], 1, cudaMemcpyHostToDevice) ==
        cudaErrorInvalidValue);
  cudaGetLastError();
  if (on_simulator) {
    const std::string msg = kernel_error_of([&] { cusim::launch(write_outside, 1, 1, s); });
    CHECK(msg.find("tid=[0, 0, 0] ctaid=[0, 0, 0]: surf2Dwrite of 4 bytes at x = 64 bytes, y = 0, z = 0 is outside "
                   "surface object ") == 0);
    CHECK(msg.find("(4 x 2 x 1 elements of 4 bytes; cudaBoundaryModeTrap)") != std::string::npos);
  }
  CHECK(cudaDestroySurfaceObject(s) == cudaSuccess);
  cudaFreeArray(array);  // after the fault, the simulator's context may keep its error
}
