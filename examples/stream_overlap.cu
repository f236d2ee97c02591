// SPDX-License-Identifier: MIT
// Lesson 14: copy/compute overlap on two streams. The data is split in chunks; each stream
// uploads a chunk, scales it and downloads it, so one stream's copies overlap the other's kernel.
// Events time the whole pipeline and each stream's part.
#include <cusim/cusim.hpp>

#include "example_check.hpp"

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

__global__ void scale(cusim::span<float> v, float factor, int repeat) {
  const int i = cusim::grid<1>();
  if (i >= static_cast<int>(v.size())) return;
  float x = v[i];
  for (int r = 0; r < repeat; ++r) x = x * factor + 1.0f - factor;  // keeps 1 + (x - 1) * factor^r
  v[i] = x;
}

int main() {
  const int n = 1 << 20, chunks = 8, chunk = n / chunks, threads = 256;
  float* host = nullptr;  // pinned, as async copies want
  cusim::check(cudaMallocHost(&host, n * sizeof(float)), "cudaMallocHost");
  for (int i = 0; i < n; ++i) host[i] = 1.0f + static_cast<float>(i % 7);
  cusim::device_array<float> d(n);

  cudaStream_t streams[2];
  cudaEvent_t start, stop, done[2];
  for (auto& s : streams) cusim::check(cudaStreamCreate(&s), "cudaStreamCreate");
  cusim::check(cudaEventCreate(&start), "cudaEventCreate");
  cusim::check(cudaEventCreate(&stop), "cudaEventCreate");
  for (auto& e : done) cusim::check(cudaEventCreate(&e), "cudaEventCreate");

  cusim::check(cudaEventRecord(start), "cudaEventRecord");
  for (int c = 0; c < chunks; ++c) {
    cudaStream_t s = streams[c % 2];
    float* part = d.data() + c * chunk;
    cusim::check(cudaMemcpyAsync(part, host + c * chunk, chunk * sizeof(float), cudaMemcpyHostToDevice, s), "upload");
    cusim::launch(scale, cusim::launch_config{chunk / threads, threads, 0, s}, cusim::span<float>(part, chunk), 0.5f, 64);
    cusim::check(cudaMemcpyAsync(host + c * chunk, part, chunk * sizeof(float), cudaMemcpyDeviceToHost, s), "download");
  }
  for (int k = 0; k < 2; ++k) cusim::check(cudaEventRecord(done[k], streams[k]), "cudaEventRecord");
  cusim::check(cudaEventRecord(stop), "cudaEventRecord");  // the legacy default stream waits for both
  cusim::check(cudaEventSynchronize(stop), "cudaEventSynchronize");
  for (auto& s : streams) cusim::synchronize(s);

  float total_ms = 0, stream_ms[2] = {};
  cusim::check(cudaEventElapsedTime(&total_ms, start, stop), "cudaEventElapsedTime");
  for (int k = 0; k < 2; ++k) cusim::check(cudaEventElapsedTime(&stream_ms[k], start, done[k]), "cudaEventElapsedTime");
  std::printf("  stream 0 done after %.2f ms, stream 1 after %.2f ms, pipeline %.2f ms\n", stream_ms[0], stream_ms[1],
              total_ms);

  bool ok = true;
  for (int i = 0; i < n; ++i) ok = ok && std::abs(host[i] - 1.0f) < 1e-4f;  // (x - 1) * 0.5^64 is ~0
  for (auto& e : done) cudaEventDestroy(e);
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  for (auto& s : streams) cudaStreamDestroy(s);
  cudaFreeHost(host);
  return report("stream_overlap", ok, ("8 chunks on 2 streams, " + std::to_string(total_ms) + " ms").c_str());
}
