// SPDX-License-Identifier: MIT
// An unmodified CUDA program with a texture and a surface: an image in a CUDA array, read through a
// texture object with linear filtering half a texel to the right (each output the mean of two
// neighbours, the GPU's 9-bit filter weights), written through a surface object into a second
// array, and checked on the host.
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

#define CHECK_CUDA(call)                                                                      \
  do {                                                                                        \
    cudaError_t e_ = (call);                                                                  \
    if (e_ != cudaSuccess) {                                                                  \
      std::printf("%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_));      \
      return 1;                                                                               \
    }                                                                                         \
  } while (0)

__global__ void shift_half(cudaTextureObject_t in, cudaSurfaceObject_t out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) {
    // Texel centres are at +0.5: x + 1.0 lies halfway between texels x and x + 1.
    float v = tex2D<float>(in, x + 1.0f, y + 0.5f);
    surf2Dwrite(v, out, x * (int)sizeof(float), y);
  }
}

int main() {
  const int w = 96, h = 64;
  std::vector<float> img(w * h);
  for (int i = 0; i < w * h; ++i) img[i] = static_cast<float>((i * 37) % 101);

  cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  cudaArray_t src, dst;
  CHECK_CUDA(cudaMallocArray(&src, &desc, w, h));
  CHECK_CUDA(cudaMallocArray(&dst, &desc, w, h, cudaArraySurfaceLoadStore));
  CHECK_CUDA(cudaMemcpy2DToArray(src, 0, 0, img.data(), w * sizeof(float), w * sizeof(float), h,
                                 cudaMemcpyHostToDevice));

  cudaResourceDesc res{};
  res.resType = cudaResourceTypeArray;
  res.res.array.array = src;
  cudaTextureDesc tex{};
  tex.addressMode[0] = tex.addressMode[1] = cudaAddressModeClamp;
  tex.filterMode = cudaFilterModeLinear;
  tex.readMode = cudaReadModeElementType;
  cudaTextureObject_t in;
  CHECK_CUDA(cudaCreateTextureObject(&in, &res, &tex, nullptr));
  res.res.array.array = dst;
  cudaSurfaceObject_t out;
  CHECK_CUDA(cudaCreateSurfaceObject(&out, &res));

  dim3 block(16, 16), grid((w + 15) / 16, (h + 15) / 16);
  shift_half<<<grid, block>>>(in, out, w, h);
  CHECK_CUDA(cudaGetLastError());
  std::vector<float> got(w * h);
  CHECK_CUDA(cudaMemcpy2DFromArray(got.data(), w * sizeof(float), dst, 0, 0, w * sizeof(float), h,
                                   cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaDestroyTextureObject(in));
  CHECK_CUDA(cudaDestroySurfaceObject(out));
  CHECK_CUDA(cudaFreeArray(src));
  CHECK_CUDA(cudaFreeArray(dst));

  int bad = 0;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const float right = img[y * w + (x + 1 < w ? x + 1 : x)];  // clamp at the edge
      bad += got[y * w + x] != (img[y * w + x] + right) / 2;
    }
  std::printf("texture_shift (unmodified CUDA, %dx%d texture, linear filter, surface write): %s\n", w, h,
              bad ? "FAILED" : "OK");
  return bad ? 1 : 0;
}
