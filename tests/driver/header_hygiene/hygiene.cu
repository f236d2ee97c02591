// A program's own helpers whose names CUDA's headers leave free (or declare only in ways that
// do not clash) beside <cuda_runtime.h>: they compile with nvcc (C++17 by default), and must
// here. lerp is cuda-samples' helper_math.h's; under C++20 libstdc++'s <math.h> declares ::lerp
// too, so with -std=c++20 this program does not compile, with nvcc as here.
#include <cuda_runtime.h>
#include <cstdio>
#include <cmath>
#include <math.h>
#include <numeric>

// CUDA's headers declare none of these in the global namespace.
inline __host__ __device__ float lerp(float a, float b, float t) { return a + t * (b - a); }
int midpoint(int a, int b) { return (a + b) / 2; }
__host__ __device__ float clamp(float x, float lo, float hi) { return x < lo ? lo : (x > hi ? hi : x); }
__host__ __device__ int clamp(int x, int lo, int hi) { return x < lo ? lo : (x > hi ? hi : x); }
__device__ float saturate(float x) { return clamp(x, 0.0f, 1.0f); }
struct vec { float x, y; };
__host__ __device__ vec min(vec a, vec b) { return {a.x < b.x ? a.x : b.x, a.y < b.y ? a.y : b.y}; }
__host__ __device__ vec max(vec a, vec b) { return {a.x > b.x ? a.x : b.x, a.y > b.y ? a.y : b.y}; }
__host__ __device__ bool signbit(vec v) { return std::signbit(v.x) || std::signbit(v.y); }
__host__ __device__ float dot(vec a, vec b) { return a.x * b.x + a.y * b.y; }
__host__ __device__ float length(vec a) { return sqrtf(dot(a, a)); }
__host__ __device__ vec normalize(vec a) { float l = length(a); return {a.x / l, a.y / l}; }
__host__ __device__ float smoothstep(float a, float b, float x) { float t = clamp((x - a) / (b - a), 0.0f, 1.0f); return t * t * (3 - 2 * t); }
__host__ __device__ float step(float edge, float x) { return x < edge ? 0.0f : 1.0f; }
__host__ __device__ float fract(float x) { return x - floorf(x); }
__host__ __device__ float mix(float a, float b, float t) { return a + t * (b - a); }
__host__ __device__ float rsqrt_approx(float x) { return 1.0f / sqrtf(x); }
int check(int x) { return x; }
int warp(int x) { return x; }
int block(int x) { return x; }
int grid(int x) { return x; }
int shared(int x) { return x; }
int sync(int x) { return x; }
int launch(int x) { return x; }
int stream(int x) { return x; }
int event(int x) { return x; }
int device(int x) { return x; }
int thread(int x) { return x; }
int kernel(int x) { return x; }
int memory_space(int x) { return x; }
int detail(int x) { return x; }
int sim(int x) { return x; }
int span(int x) { return x; }
using namespace std;  // std::lerp and std::midpoint would be ambiguous with the program's under C++20

__global__ void k(float* out) {
  vec a{1, -2}, b{3, 4};
  out[0] = saturate(1.5f);
  out[1] = min(a, b).y + max(a, b).x;
  out[2] = signbit(a) ? 1.0f : 0.0f;
  out[3] = clamp(7, 0, 5);
  out[4] = min(2.0f, 3.0f) + max(1, 2);
  out[5] = smoothstep(0, 1, 0.5f) + step(0.5f, 1) + fract(1.25f) + mix(0, 2, 0.5f) + normalize(b).x;
}

int main() {
  float* d;
  cudaMallocManaged(&d, 6 * sizeof(float));
  k<<<1, 1>>>(d);
  cudaDeviceSynchronize();
  std::printf("%g %g %g %g %g %g %g %d %d\n", d[0], d[1], d[2], d[3], d[4], d[5], lerp(0.0f, 10.0f, 0.5f),
              midpoint(2, 6),
              check(1) + warp(1) + block(1) + grid(1) + shared(1) + sync(1) + launch(1) + stream(1) + event(1) +
                  device(1) + thread(1) + kernel(1) + memory_space(1) + detail(1) + sim(1) + span(1));
  return 0;
}
