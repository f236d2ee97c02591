// SPDX-License-Identifier: MIT
// Textures and surfaces in an unmodified program: the H100's exact answers for filtering, address
// modes, read modes, layered textures and a surface round trip (the lines of
// ../shared/gpu-truth/libraries.h100.txt from "== textures" to "surface after 2v+1", made by the
// same calls as gpu-truth/libraries.cu), the other formats, fetches and boundary modes, CUDA's
// error codes for bad arguments and copies past an array, and the tagged faults of a destroyed or
// unknown texture object and of a surface write out of range with cudaBoundaryModeTrap.
#include "check.h"

#include <cuda_fp16.h>

#include <cstdarg>
#include <cstring>
#include <string>
#include <vector>

namespace {
std::vector<std::string> lines;
void line(const char* format, ...) __attribute__((format(printf, 1, 2)));
void line(const char* format, ...) {
  char buffer[1024];
  va_list args;
  va_start(args, format);
  std::vsnprintf(buffer, sizeof buffer, format, args);
  va_end(args);
  lines.emplace_back(buffer);
}

// libraries.h100.txt, "== textures" to "surface after 2v+1".
const char* const h100[] = {
    "tex1D<float> unnormalized point clamp: 0 0 0 0 0 1 1 9 9 49 49 49 49",
    "tex1D<float> unnormalized point border: 0 0 0 0 0 1 1 9 9 49 0 0 0",
    "tex1D<float> unnormalized linear clamp: 0 0 0 0 0.25 0.6015625 1 8.00390625 12.5 49 49 49 49",
    "tex1D<float> unnormalized linear border: 0 0 0 0 0.25 0.6015625 1 8.00390625 12.5 49 24.5 0 0",
    "tex1D<float> normalized point wrap: 36 0 0 0 0 1 1 9 9 49 0 1 16",
    "tex1D<float> normalized point clamp: 0 0 0 0 0 1 1 9 9 49 49 49 49",
    "tex1D<float> normalized point mirror: 1 0 0 0 0 1 1 9 9 49 49 36 16",
    "tex1D<float> normalized point border: 0 0 0 0 0 1 1 9 9 49 0 0 0",
    "tex1D<float> normalized linear wrap: 38.5898438 24.5 12.25 0 0.25 0.6015625 1 8.00390625 12.5 49 24.5 1.59765625 14.25",
    "tex1D<float> normalized linear clamp: 0 0 0 0 0.25 0.6015625 1 8.00390625 12.5 49 49 49 49",
    "tex1D<float> normalized linear mirror: 0.80078125 0 0 0 0.25 0.6015625 1 8.00390625 12.5 49 49 33.8085938 14.25",
    "tex1D<float> normalized linear border: 0 0 0 0 0.25 0.6015625 1 8.00390625 12.5 49 24.5 0 0",
    "tex2D<float4> uchar4 normalized-float linear clamp (0.5, 0.5): 0 0 0 1",
    "tex2D<float4> uchar4 normalized-float linear clamp (1, 1): 0.156862751 0.235294119 0.145098045 0.980392158",
    "tex2D<float4> uchar4 normalized-float linear clamp (1.3, 0.7): 0.251224548 0.0937514305 0.145098045 0.987441838",
    "tex2D<float4> uchar4 normalized-float linear clamp (2.71, 1.93): 0.693629384 0.672800779 0.528252065 0.752147734",
    "tex2D<float4> uchar4 normalized-float linear clamp (3.9, 2.6): 0.941176474 0.941176474 0.725490212 0.529411793",
    "tex2D<float4> uchar4 normalized-float linear clamp (-0.4, 5): 0 0.941176474 0.290196091 1",
    "tex2D<float4> uchar4 normalized-float linear clamp (1.001, 2.499): 0.156862751 0.941176474 0.362752736 0.921568632",
    "tex2DLayered<float> linear clamp: 10 110.25 210.5 10.75 111 211.25 11.5 111.75 212 12.25 112.5 212.75",
    "surface kernel: cudaSuccess",
    "surface after 2v+1: 3 5 7 9 11 13 15 17",
};
}  // namespace

// The kernels of gpu-truth/libraries.cu's textures section.
__global__ void fetch1d(cudaTextureObject_t t, const float* xs, int n, float* out) {
  for (int i = 0; i < n; ++i) out[i] = tex1D<float>(t, xs[i]);
}
__global__ void fetch2d(cudaTextureObject_t t, const float2* ps, int n, float4* out) {
  for (int i = 0; i < n; ++i) out[i] = tex2D<float4>(t, ps[i].x, ps[i].y);
}
__global__ void fetch_layered(cudaTextureObject_t t, int n, float* out) {
  for (int i = 0; i < n; ++i) out[i] = tex2DLayered<float>(t, 0.5f + 0.25f * i, 1.5f, i % 3);
}
__global__ void surface_roundtrip(cudaSurfaceObject_t s, int w, int h) {
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      float v;
      surf2Dread(&v, s, x * (int)sizeof(float), y);
      surf2Dwrite(v * 2.f + 1.f, s, x * (int)sizeof(float), y);
    }
}

// The same program as libraries.cu's textures(), its lines collected.
static void h100_lines() {
  const int W = 8;
  float h[W] = {0.f, 1.f, 4.f, 9.f, 16.f, 25.f, 36.f, 49.f};
  cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
  cudaArray_t arr;
  CHECK_EQ(cudaMallocArray(&arr, &cd, W), cudaSuccess);
  CHECK_EQ(cudaMemcpy2DToArray(arr, 0, 0, h, W * sizeof(float), W * sizeof(float), 1, cudaMemcpyHostToDevice), cudaSuccess);
  const float xs_unnorm[] = {-1.3f, 0.f, 0.25f, 0.5f, 0.75f, 1.1f, 1.5f, 3.3f, 3.999f, 7.5f, 8.f, 9.7f, 20.25f};
  const int nx = sizeof xs_unnorm / sizeof xs_unnorm[0];
  float *dxs, *dout;
  cudaMalloc(&dxs, sizeof xs_unnorm);
  cudaMalloc(&dout, 64 * sizeof(float));
  const char* amode[] = {"wrap", "clamp", "mirror", "border"};
  for (int norm = 0; norm < 2; ++norm)
    for (int filt = 0; filt < 2; ++filt)
      for (int am = 0; am < 4; ++am) {
        if (!norm && (am == 0 || am == 2)) continue;
        float xs[nx];
        for (int i = 0; i < nx; ++i) xs[i] = norm ? xs_unnorm[i] / W : xs_unnorm[i];
        cudaMemcpy(dxs, xs, sizeof xs, cudaMemcpyHostToDevice);
        cudaResourceDesc rd{};
        rd.resType = cudaResourceTypeArray;
        rd.res.array.array = arr;
        cudaTextureDesc td{};
        td.addressMode[0] = (cudaTextureAddressMode)am;
        td.filterMode = filt ? cudaFilterModeLinear : cudaFilterModePoint;
        td.readMode = cudaReadModeElementType;
        td.normalizedCoords = norm;
        cudaTextureObject_t t;
        cudaError_t e = cudaCreateTextureObject(&t, &rd, &td, nullptr);
        if (e != cudaSuccess) {
          line("tex1D %s create: %s", amode[am], cudaGetErrorName(e));
          continue;
        }
        fetch1d<<<1, 1>>>(t, dxs, nx, dout);
        cudaDeviceSynchronize();
        float out[nx];
        cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost);
        std::string s = std::string("tex1D<float> ") + (norm ? "normalized" : "unnormalized") + " " +
                        (filt ? "linear" : "point") + " " + amode[am] + ":";
        for (int i = 0; i < nx; ++i) {
          char v[32];
          std::snprintf(v, sizeof v, " %.9g", out[i]);
          s += v;
        }
        line("%s", s.c_str());
        cudaDestroyTextureObject(t);
      }
  const int W2 = 4, H2 = 3;
  uchar4 img[H2][W2];
  for (int y = 0; y < H2; ++y)
    for (int x = 0; x < W2; ++x) img[y][x] = make_uchar4(x * 80, y * 120, (x + y) * 37, 255 - x * y * 20);
  cudaChannelFormatDesc cd4 = cudaCreateChannelDesc<uchar4>();
  cudaArray_t arr2;
  cudaMallocArray(&arr2, &cd4, W2, H2);
  cudaMemcpy2DToArray(arr2, 0, 0, img, W2 * sizeof(uchar4), W2 * sizeof(uchar4), H2, cudaMemcpyHostToDevice);
  cudaResourceDesc rd2{};
  rd2.resType = cudaResourceTypeArray;
  rd2.res.array.array = arr2;
  cudaTextureDesc td2{};
  td2.addressMode[0] = td2.addressMode[1] = cudaAddressModeClamp;
  td2.filterMode = cudaFilterModeLinear;
  td2.readMode = cudaReadModeNormalizedFloat;
  cudaTextureObject_t t2;
  CHECK_EQ(cudaCreateTextureObject(&t2, &rd2, &td2, nullptr), cudaSuccess);
  const float2 ps[] = {{0.5f, 0.5f}, {1.f, 1.f}, {1.3f, 0.7f}, {2.71f, 1.93f}, {3.9f, 2.6f}, {-0.4f, 5.f}, {1.001f, 2.499f}};
  const int np = sizeof ps / sizeof ps[0];
  float2* dps;
  float4* d4;
  cudaMalloc(&dps, sizeof ps);
  cudaMalloc(&d4, np * sizeof(float4));
  cudaMemcpy(dps, ps, sizeof ps, cudaMemcpyHostToDevice);
  fetch2d<<<1, 1>>>(t2, dps, np, d4);
  cudaDeviceSynchronize();
  float4 o4[np];
  cudaMemcpy(o4, d4, sizeof o4, cudaMemcpyDeviceToHost);
  for (int i = 0; i < np; ++i)
    line("tex2D<float4> uchar4 normalized-float linear clamp (%g, %g): %.9g %.9g %.9g %.9g", ps[i].x, ps[i].y, o4[i].x,
         o4[i].y, o4[i].z, o4[i].w);
  cudaExtent ext = make_cudaExtent(4, 3, 3);
  cudaArray_t arr3;
  CHECK_EQ(cudaMalloc3DArray(&arr3, &cd, ext, cudaArrayLayered), cudaSuccess);
  float lay[3][3][4];
  for (int l = 0; l < 3; ++l)
    for (int y = 0; y < 3; ++y)
      for (int x = 0; x < 4; ++x) lay[l][y][x] = 100.f * l + 10.f * y + x;
  cudaMemcpy3DParms p{};
  p.srcPtr = make_cudaPitchedPtr(lay, 4 * sizeof(float), 4, 3);
  p.dstArray = arr3;
  p.extent = ext;
  p.kind = cudaMemcpyHostToDevice;
  CHECK_EQ(cudaMemcpy3D(&p), cudaSuccess);
  cudaResourceDesc rd3{};
  rd3.resType = cudaResourceTypeArray;
  rd3.res.array.array = arr3;
  cudaTextureDesc td3{};
  td3.addressMode[0] = td3.addressMode[1] = cudaAddressModeClamp;
  td3.filterMode = cudaFilterModeLinear;
  td3.readMode = cudaReadModeElementType;
  cudaTextureObject_t t3;
  cudaCreateTextureObject(&t3, &rd3, &td3, nullptr);
  fetch_layered<<<1, 1>>>(t3, 12, dout);
  cudaDeviceSynchronize();
  float ol[12];
  cudaMemcpy(ol, dout, sizeof ol, cudaMemcpyDeviceToHost);
  std::string s = "tex2DLayered<float> linear clamp:";
  for (int i = 0; i < 12; ++i) {
    char v[32];
    std::snprintf(v, sizeof v, " %.9g", ol[i]);
    s += v;
  }
  line("%s", s.c_str());
  cudaArray_t arr4;
  cudaMallocArray(&arr4, &cd, 4, 2, cudaArraySurfaceLoadStore);
  float sv[2][4] = {{1, 2, 3, 4}, {5, 6, 7, 8}};
  cudaMemcpy2DToArray(arr4, 0, 0, sv, 4 * sizeof(float), 4 * sizeof(float), 2, cudaMemcpyHostToDevice);
  cudaResourceDesc rd4{};
  rd4.resType = cudaResourceTypeArray;
  rd4.res.array.array = arr4;
  cudaSurfaceObject_t s4;
  CHECK_EQ(cudaCreateSurfaceObject(&s4, &rd4), cudaSuccess);
  surface_roundtrip<<<1, 1>>>(s4, 4, 2);
  line("surface kernel: %s", cudaGetErrorName(cudaDeviceSynchronize()));
  cudaMemcpy2DFromArray(sv, 4 * sizeof(float), arr4, 0, 0, 4 * sizeof(float), 2, cudaMemcpyDeviceToHost);
  s = "surface after 2v+1:";
  for (int y = 0; y < 2; ++y)
    for (int x = 0; x < 4; ++x) {
      char v[32];
      std::snprintf(v, sizeof v, " %g", sv[y][x]);
      s += v;
    }
  line("%s", s.c_str());
  cudaDestroyTextureObject(t2);
  cudaDestroyTextureObject(t3);
  cudaDestroySurfaceObject(s4);
  cudaFreeArray(arr);
  cudaFreeArray(arr2);
  cudaFreeArray(arr3);
  cudaFreeArray(arr4);
  cudaFree(dxs);
  cudaFree(dout);
  cudaFree(dps);
  cudaFree(d4);
}

// ---- other formats and fetches --------------------------------------------------------------------

__global__ void formats(cudaTextureObject_t by_element, cudaTextureObject_t normalized, cudaTextureObject_t halves,
                        cudaTextureObject_t linear, cudaTextureObject_t cube, cudaTextureObject_t volume, int4* ints,
                        float* floats) {
  ints[0] = make_int4(0, 0, 0, 0);
  const char2 c = tex2D<char2>(by_element, 1.5f, 0.5f);  // point, unnormalized: texel (1, 0)
  ints[0].x = c.x;
  ints[0].y = c.y;
  tex1Dfetch(&ints[1].x, linear, 2);
  ints[1].y = tex1Dfetch<int>(linear, 5);   // past the 4 elements: 0
  ints[1].z = tex1Dfetch<int>(linear, -1);  // before them: 0
  const float2 n = tex2D<float2>(normalized, 0.5f, 0.5f);  // signed 8-bit read as [-1, 1]
  floats[0] = n.x;
  floats[1] = n.y;
  floats[2] = tex1D<float>(halves, 1.5f);  // half texels read as float
  floats[3] = tex1D<float>(halves, 1.75f);  // not filtered: point
  for (int face = 0; face < 6; ++face) {
    const float dirs[6][3] = {{1, 0.2f, 0.1f}, {-1, 0.1f, 0.2f}, {0.1f, 1, 0.2f}, {0.2f, -1, 0.1f}, {0.1f, 0.2f, 1}, {0.2f, 0.1f, -1}};
    floats[4 + face] = texCubemap<float>(cube, dirs[face][0], dirs[face][1], dirs[face][2]);
  }
  floats[10] = tex3D<float>(volume, 1.5f, 0.5f, 1.5f);  // texel (1, 0, 1)
  floats[11] = tex2DLod<float>(normalized, 0.5f, 0.5f, 0.f);
}

__global__ void surfaces(cudaSurfaceObject_t s, cudaSurfaceObject_t layered, int* out) {
  out[0] = surf2Dread<int>(s, 4 * 4, 0, cudaBoundaryModeZero);   // past the row: 0
  out[1] = surf2Dread<int>(s, 4 * 7, 5, cudaBoundaryModeClamp);  // clamped to (3, 1)
  surf2Dwrite(99, s, -4, 0, cudaBoundaryModeZero);               // dropped
  surf2Dwrite(77, s, 4 * 9, 0, cudaBoundaryModeClamp);           // to (3, 0)
  surf2DLayeredwrite(5, layered, 4, 1, 2);
  out[2] = surf2DLayeredread<int>(layered, 4, 1, 2);
  int r;
  surf1Dread(&r, s, 4);
  out[3] = r;
}

static void other_formats() {
  // 2-D char2 read by element type.
  cudaChannelFormatDesc c2 = cudaCreateChannelDesc<char2>();
  CHECK_EQ(c2.x, 8);
  CHECK_EQ(c2.y, 8);
  CHECK_EQ(c2.z, 0);
  CHECK_EQ(c2.f, cudaChannelFormatKindSigned);
  cudaArray_t a2;
  CHECK_EQ(cudaMallocArray(&a2, &c2, 2, 2), cudaSuccess);
  const char2 texels[4] = {make_char2(1, 2), make_char2(-3, 4), make_char2(5, 6), make_char2(7, -128)};
  CHECK_EQ(cudaMemcpyToArray(a2, 0, 0, texels, sizeof texels, cudaMemcpyHostToDevice), cudaSuccess);
  cudaResourceDesc r{};
  r.resType = cudaResourceTypeArray;
  r.res.array.array = a2;
  cudaTextureDesc d{};
  d.addressMode[0] = d.addressMode[1] = cudaAddressModeClamp;
  cudaTextureObject_t by_element, normalized;
  CHECK_EQ(cudaCreateTextureObject(&by_element, &r, &d, nullptr), cudaSuccess);
  d.readMode = cudaReadModeNormalizedFloat;
  d.normalizedCoords = 1;
  CHECK_EQ(cudaCreateTextureObject(&normalized, &r, &d, nullptr), cudaSuccess);
  cudaResourceDesc back{};
  CHECK_EQ(cudaGetTextureObjectResourceDesc(&back, normalized), cudaSuccess);
  CHECK(back.resType == cudaResourceTypeArray && back.res.array.array == a2);
  // Half texels.
  cudaChannelFormatDesc ch = cudaCreateChannelDescHalf();
  cudaArray_t ah;
  CHECK_EQ(cudaMallocArray(&ah, &ch, 4), cudaSuccess);
  const __half hv[4] = {__float2half(0.5f), __float2half(-2.25f), __float2half(1000.f), __float2half(3.f)};
  CHECK_EQ(cudaMemcpy2DToArray(ah, 0, 0, hv, sizeof hv, sizeof hv, 1, cudaMemcpyHostToDevice), cudaSuccess);
  r.res.array.array = ah;
  d = cudaTextureDesc{};
  cudaTextureObject_t halves;
  CHECK_EQ(cudaCreateTextureObject(&halves, &r, &d, nullptr), cudaSuccess);
  // Linear memory of ints.
  int* lin;
  cudaMalloc(&lin, 4 * sizeof(int));
  const int li[4] = {10, 20, 30, 40};
  cudaMemcpy(lin, li, sizeof li, cudaMemcpyHostToDevice);
  cudaResourceDesc rl{};
  rl.resType = cudaResourceTypeLinear;
  rl.res.linear.devPtr = lin;
  rl.res.linear.desc = cudaCreateChannelDesc<int>();
  rl.res.linear.sizeInBytes = sizeof li;
  cudaTextureObject_t linear;
  CHECK_EQ(cudaCreateTextureObject(&linear, &rl, &d, nullptr), cudaSuccess);
  // A cubemap of 2x2 faces, face k holding k + 10.
  cudaChannelFormatDesc cf = cudaCreateChannelDesc<float>();
  cudaArray_t ac;
  CHECK_EQ(cudaMalloc3DArray(&ac, &cf, make_cudaExtent(2, 2, 6), cudaArrayCubemap), cudaSuccess);
  float faces[6][2][2];
  for (int f = 0; f < 6; ++f)
    for (int i = 0; i < 4; ++i) faces[f][i / 2][i % 2] = 10.f + f;
  cudaMemcpy3DParms p{};
  p.srcPtr = make_cudaPitchedPtr(faces, 2 * sizeof(float), 2, 2);
  p.dstArray = ac;
  p.extent = make_cudaExtent(2, 2, 6);
  p.kind = cudaMemcpyHostToDevice;
  CHECK_EQ(cudaMemcpy3D(&p), cudaSuccess);
  r.res.array.array = ac;
  d.normalizedCoords = 1;
  cudaTextureObject_t cube;
  CHECK_EQ(cudaCreateTextureObject(&cube, &r, &d, nullptr), cudaSuccess);
  // A 3-D volume 2x2x2, texel (x, y, z) = x + 10 y + 100 z.
  cudaArray_t av;
  CHECK_EQ(cudaMalloc3DArray(&av, &cf, make_cudaExtent(2, 2, 2)), cudaSuccess);
  float vol[2][2][2];
  for (int z = 0; z < 2; ++z)
    for (int y = 0; y < 2; ++y)
      for (int x = 0; x < 2; ++x) vol[z][y][x] = x + 10.f * y + 100.f * z;
  p = cudaMemcpy3DParms{};
  p.srcPtr = make_cudaPitchedPtr(vol, 2 * sizeof(float), 2, 2);
  p.dstArray = av;
  p.extent = make_cudaExtent(2, 2, 2);
  p.kind = cudaMemcpyHostToDevice;
  CHECK_EQ(cudaMemcpy3D(&p), cudaSuccess);
  r.res.array.array = av;
  d.normalizedCoords = 0;
  cudaTextureObject_t volume;
  CHECK_EQ(cudaCreateTextureObject(&volume, &r, &d, nullptr), cudaSuccess);

  int4* ints;
  float* floats;
  cudaMalloc(&ints, 2 * sizeof(int4));
  cudaMalloc(&floats, 12 * sizeof(float));
  formats<<<1, 1>>>(by_element, normalized, halves, linear, cube, volume, ints, floats);
  CHECK_EQ(cudaDeviceSynchronize(), cudaSuccess);
  int4 hi[2];
  float hf[12];
  cudaMemcpy(hi, ints, sizeof hi, cudaMemcpyDeviceToHost);
  cudaMemcpy(hf, floats, sizeof hf, cudaMemcpyDeviceToHost);
  CHECK_EQ(hi[0].x, -3);
  CHECK_EQ(hi[0].y, 4);
  CHECK_EQ(hi[1].x, 30);
  CHECK_EQ(hi[1].y, 0);
  CHECK_EQ(hi[1].z, 0);
  // Normalized (0.5, 0.5) of a 2x2 texture, point: texel (1, 1) = (7, -128) -> 7/127, -1.
  CHECK_EQ(hf[0], 7.f / 127.f);
  CHECK_EQ(hf[1], -1.f);
  CHECK_EQ(hf[2], -2.25f);
  CHECK_EQ(hf[3], -2.25f);
  for (int f = 0; f < 6; ++f) CHECK_EQ(hf[4 + f], 10.f + f);
  CHECK_EQ(hf[10], 101.f);
  CHECK_EQ(hf[11], 7.f / 127.f);

  // Surfaces: the boundary modes, a layered surface, the pointer and value forms.
  cudaChannelFormatDesc ci = cudaCreateChannelDesc<int>();
  cudaArray_t as, al;
  CHECK_EQ(cudaMallocArray(&as, &ci, 4, 2, cudaArraySurfaceLoadStore), cudaSuccess);
  CHECK_EQ(cudaMalloc3DArray(&al, &ci, make_cudaExtent(2, 2, 3), cudaArrayLayered | cudaArraySurfaceLoadStore), cudaSuccess);
  cudaExtent e{};
  unsigned flags = 0;
  cudaChannelFormatDesc got{};
  CHECK_EQ(cudaArrayGetInfo(&got, &e, &flags, al), cudaSuccess);
  CHECK(e.width == 2 && e.height == 2 && e.depth == 3 && flags == (cudaArrayLayered | cudaArraySurfaceLoadStore) && got.x == 32);
  const int sv[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  // Offsets in bytes, spanning rows: 12 bytes from (4, 0) are elements 1, 2, 3.
  CHECK_EQ(cudaMemcpyToArray(as, 0, 0, sv, sizeof sv, cudaMemcpyHostToDevice), cudaSuccess);
  int mid[3] = {};
  CHECK_EQ(cudaMemcpyFromArray(mid, as, 12, 0, sizeof mid, cudaMemcpyDeviceToHost), cudaSuccess);
  CHECK(mid[0] == 4 && mid[1] == 5 && mid[2] == 6);
  cudaResourceDesc rs{};
  rs.resType = cudaResourceTypeArray;
  rs.res.array.array = as;
  cudaSurfaceObject_t s, sl;
  CHECK_EQ(cudaCreateSurfaceObject(&s, &rs), cudaSuccess);
  rs.res.array.array = al;
  CHECK_EQ(cudaCreateSurfaceObject(&sl, &rs), cudaSuccess);
  int* out;
  cudaMalloc(&out, 4 * sizeof(int));
  surfaces<<<1, 1>>>(s, sl, out);
  CHECK_EQ(cudaDeviceSynchronize(), cudaSuccess);
  int ho[4];
  cudaMemcpy(ho, out, sizeof ho, cudaMemcpyDeviceToHost);
  CHECK_EQ(ho[0], 0);
  CHECK_EQ(ho[1], 8);
  CHECK_EQ(ho[2], 5);
  CHECK_EQ(ho[3], 2);
  int after[8];
  CHECK_EQ(cudaMemcpy2DFromArray(after, 4 * sizeof(int), as, 0, 0, 4 * sizeof(int), 2, cudaMemcpyDeviceToHost), cudaSuccess);
  CHECK(after[0] == 1 && after[3] == 77 && after[4] == 5);

  cudaDestroyTextureObject(by_element);
  cudaDestroyTextureObject(normalized);
  cudaDestroyTextureObject(halves);
  cudaDestroyTextureObject(linear);
  cudaDestroyTextureObject(cube);
  cudaDestroyTextureObject(volume);
  cudaDestroySurfaceObject(s);
  cudaDestroySurfaceObject(sl);
  for (cudaArray_t a : {a2, ah, ac, av, as, al}) CHECK_EQ(cudaFreeArray(a), cudaSuccess);
  cudaFree(lin);
  cudaFree(ints);
  cudaFree(floats);
  cudaFree(out);
}

// ---- bad arguments: CUDA's error codes -----------------------------------------------------------

static void bad_arguments() {
  cudaChannelFormatDesc cf = cudaCreateChannelDesc<float>();
  cudaArray_t a = nullptr;
  CHECK_EQ(cudaMallocArray(&a, nullptr, 4), cudaErrorInvalidValue);
  cudaChannelFormatDesc odd = cudaCreateChannelDesc(24, 0, 0, 0, cudaChannelFormatKindUnsigned);
  CHECK_EQ(cudaMallocArray(&a, &odd, 4), cudaErrorInvalidValue);
  CHECK_EQ(cudaMallocArray(&a, &cf, 4, 2), cudaSuccess);
  float h[16] = {};
  // Past the array's 16-byte rows or 2 rows: cudaErrorInvalidValue, nothing copied.
  CHECK_EQ(cudaMemcpy2DToArray(a, 0, 0, h, 20, 20, 1, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
  CHECK_EQ(cudaMemcpy2DToArray(a, 4, 0, h, 16, 16, 1, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
  CHECK_EQ(cudaMemcpy2DToArray(a, 0, 1, h, 16, 16, 2, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
  CHECK_EQ(cudaMemcpy2DFromArray(h, 16, a, 0, 2, 16, 1, cudaMemcpyDeviceToHost), cudaErrorInvalidValue);
  CHECK_EQ(cudaMemcpyToArray(a, 0, 0, h, 33, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
  cudaMemcpy3DParms p{};
  p.srcPtr = make_cudaPitchedPtr(h, 16, 4, 2);
  p.dstArray = a;
  p.extent = make_cudaExtent(4, 2, 2);  // one slice only
  p.kind = cudaMemcpyHostToDevice;
  CHECK_EQ(cudaMemcpy3D(&p), cudaErrorInvalidValue);
  p.extent = make_cudaExtent(4, 2, 1);
  p.dstPos = make_cudaPos(1, 0, 0);  // elements: 1 + 4 > 4
  CHECK_EQ(cudaMemcpy3D(&p), cudaErrorInvalidValue);
  CHECK_EQ(cudaGetLastError(), cudaErrorInvalidValue);
  // A surface needs cudaArraySurfaceLoadStore; a texture needs its descriptions.
  cudaResourceDesc r{};
  r.resType = cudaResourceTypeArray;
  r.res.array.array = a;
  cudaSurfaceObject_t s;
  CHECK_EQ(cudaCreateSurfaceObject(&s, &r), cudaErrorInvalidValue);
  cudaTextureObject_t t;
  CHECK_EQ(cudaCreateTextureObject(&t, &r, nullptr, nullptr), cudaErrorInvalidValue);
  cudaTextureDesc d{};
  d.readMode = cudaReadModeNormalizedFloat;  // not for 32-bit integers
  cudaArray_t ai;
  cudaChannelFormatDesc ci = cudaCreateChannelDesc<int>();
  CHECK_EQ(cudaMallocArray(&ai, &ci, 4), cudaSuccess);
  r.res.array.array = ai;
  CHECK_EQ(cudaCreateTextureObject(&t, &r, &d, nullptr), cudaErrorInvalidValue);
  CHECK_EQ(cudaFreeArray(ai), cudaSuccess);
  CHECK_EQ(cudaFreeArray(ai), cudaErrorInvalidValue);  // twice
  CHECK_EQ(cudaDestroyTextureObject(987654), cudaErrorInvalidValue);
  CHECK_EQ(cudaFreeArray(a), cudaSuccess);
  cudaGetLastError();
}

// ---- faults: a destroyed texture object, an unknown one, a trapped surface write ------------------

__global__ void fetch_one(cudaTextureObject_t t, float* out) { *out = tex1D<float>(t, 0.5f); } static const int fetch_one_line = __LINE__;
__global__ void write_past(cudaSurfaceObject_t s) { surf2Dwrite(1.f, s, 4 * 4, 1); } static const int write_past_line = __LINE__;

static std::string fault_of(void (*launch)()) {
  stderr_capture capture;
  launch();
  CHECK_EQ(cudaGetLastError(), cudaSuccess);
  CHECK_EQ(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
  std::string text = capture.text();
  CHECK_EQ(cudaDeviceReset(), cudaSuccess);
  return text;
}

static cudaTextureObject_t object_under_test;
static float* result;

static void faults() {
  cudaChannelFormatDesc cf = cudaCreateChannelDesc<float>();
  cudaArray_t a;
  CHECK_EQ(cudaMallocArray(&a, &cf, 4, 2, cudaArraySurfaceLoadStore), cudaSuccess);
  cudaResourceDesc r{};
  r.resType = cudaResourceTypeArray;
  r.res.array.array = a;
  cudaTextureDesc d{};
  CHECK_EQ(cudaCreateTextureObject(&object_under_test, &r, &d, nullptr), cudaSuccess);
  CHECK_EQ(cudaDestroyTextureObject(object_under_test), cudaSuccess);
  cudaMalloc(&result, sizeof(float));
  char expected[512];
  std::snprintf(expected, sizeof expected,
                "tid=[0, 0, 0] ctaid=[0, 0, 0]: tex1D through texture object %llu, which cudaDestroyTextureObject "
                "destroyed (textures.cu:%d)\n",
                object_under_test, fetch_one_line);
  CHECK_EQ(fault_of([] { fetch_one<<<1, 1>>>(object_under_test, result); }), std::string(expected));

  cudaMalloc(&result, sizeof(float));
  std::snprintf(expected, sizeof expected,
                "tid=[0, 0, 0] ctaid=[0, 0, 0]: tex1D through texture object 123456789, which no "
                "cudaCreateTextureObject created (textures.cu:%d)\n",
                fetch_one_line);
  CHECK_EQ(fault_of([] { fetch_one<<<1, 1>>>(123456789ull, result); }), std::string(expected));

  CHECK_EQ(cudaMallocArray(&a, &cf, 4, 2, cudaArraySurfaceLoadStore), cudaSuccess);
  r.res.array.array = a;
  CHECK_EQ(cudaCreateSurfaceObject(&object_under_test, &r), cudaSuccess);
  std::snprintf(expected, sizeof expected,
                "tid=[0, 0, 0] ctaid=[0, 0, 0]: surf2Dwrite of 4 bytes at x = 16 bytes, y = 1, z = 0 is outside "
                "surface object %llu (4 x 2 x 1 elements of 4 bytes; cudaBoundaryModeTrap) (textures.cu:%d)\n",
                object_under_test, write_past_line);
  CHECK_EQ(fault_of([] { write_past<<<1, 1>>>(object_under_test); }), std::string(expected));
}

int main() {
  h100_lines();
  const std::size_t n = sizeof h100 / sizeof h100[0];
  CHECK_EQ(lines.size(), n);
  for (std::size_t i = 0; i < n && i < lines.size(); ++i) CHECK_EQ(lines[i], std::string(h100[i]));
  other_formats();
  bad_arguments();
  faults();
  return finish();
}
