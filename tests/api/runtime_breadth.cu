// SPDX-License-Identifier: MIT
// The runtime breadth real programs use: device attributes and settings, function attributes and
// occupancy, pitched and 3-D memory, registered host memory, pointer attributes, stream-ordered
// allocation and pools, stream priorities, callbacks and attributes, symbols, error names.
#include "test_support.hpp"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {
/// The default profile (A100), whose figures the simulator-only checks use.
bool default_profile() { return on_simulator && std::getenv("CUSIM_DEVICE") == nullptr; }
}  // namespace

TEST_CASE("cudaDeviceGetAttribute answers as cudaGetDeviceProperties does") {
  cudaDeviceProp prop;
  REQUIRE(cudaGetDeviceProperties(&prop, 0) == cudaSuccess);
  auto attribute = [](cudaDeviceAttr attr) {
    int value = -12345;
    REQUIRE(cudaDeviceGetAttribute(&value, attr, 0) == cudaSuccess);
    return value;
  };
  CHECK(attribute(cudaDevAttrMaxThreadsPerBlock) == prop.maxThreadsPerBlock);
  CHECK(attribute(cudaDevAttrMaxBlockDimX) == prop.maxThreadsDim[0]);
  CHECK(attribute(cudaDevAttrMaxBlockDimY) == prop.maxThreadsDim[1]);
  CHECK(attribute(cudaDevAttrMaxBlockDimZ) == prop.maxThreadsDim[2]);
  CHECK(attribute(cudaDevAttrMaxGridDimX) == prop.maxGridSize[0]);
  CHECK(attribute(cudaDevAttrMaxGridDimY) == prop.maxGridSize[1]);
  CHECK(attribute(cudaDevAttrMaxGridDimZ) == prop.maxGridSize[2]);
  CHECK(attribute(cudaDevAttrMaxSharedMemoryPerBlock) == static_cast<int>(prop.sharedMemPerBlock));
  CHECK(attribute(cudaDevAttrTotalConstantMemory) == static_cast<int>(prop.totalConstMem));
  CHECK(attribute(cudaDevAttrWarpSize) == prop.warpSize);
  CHECK(attribute(cudaDevAttrMultiProcessorCount) == prop.multiProcessorCount);
  CHECK(attribute(cudaDevAttrComputeCapabilityMajor) == prop.major);
  CHECK(attribute(cudaDevAttrComputeCapabilityMinor) == prop.minor);
  CHECK(attribute(cudaDevAttrMaxThreadsPerMultiProcessor) == prop.maxThreadsPerMultiProcessor);
  CHECK(attribute(cudaDevAttrL2CacheSize) == prop.l2CacheSize);
  CHECK(attribute(cudaDevAttrGlobalMemoryBusWidth) == prop.memoryBusWidth);
  CHECK(attribute(cudaDevAttrMaxSharedMemoryPerMultiprocessor) == static_cast<int>(prop.sharedMemPerMultiprocessor));
  CHECK(attribute(cudaDevAttrMaxSharedMemoryPerBlockOptin) == static_cast<int>(prop.sharedMemPerBlockOptin));
  CHECK(attribute(cudaDevAttrMaxBlocksPerMultiprocessor) == prop.maxBlocksPerMultiProcessor);
  CHECK(attribute(cudaDevAttrMaxRegistersPerBlock) == prop.regsPerBlock);
  CHECK(attribute(cudaDevAttrConcurrentKernels) == prop.concurrentKernels);
  CHECK(attribute(cudaDevAttrUnifiedAddressing) == prop.unifiedAddressing);
  CHECK(attribute(cudaDevAttrManagedMemory) == prop.managedMemory);
  CHECK(attribute(cudaDevAttrCooperativeLaunch) == prop.cooperativeLaunch);
  CHECK(attribute(cudaDevAttrCanMapHostMemory) == prop.canMapHostMemory);
  CHECK(attribute(cudaDevAttrMemoryPoolsSupported) == prop.memoryPoolsSupported);
  CHECK(attribute(cudaDevAttrMaxPersistingL2CacheSize) == prop.persistingL2CacheMaxSize);
  CHECK(attribute(cudaDevAttrMaxAccessPolicyWindowSize) == prop.accessPolicyMaxWindowSize);
  CHECK(attribute(cudaDevAttrMemoryPoolsSupported) == 1);
  CHECK(attribute(cudaDevAttrClockRate) > 0);
  CHECK(attribute(cudaDevAttrMemoryClockRate) > 0);
  if (default_profile()) {
    CHECK(attribute(cudaDevAttrClockRate) == 1410000);
    CHECK(attribute(cudaDevAttrMultiProcessorCount) == 108);
    CHECK(attribute(cudaDevAttrComputeMode) == cudaComputeModeDefault);
  }

  int value = 0;
  CHECK(cudaDeviceGetAttribute(&value, static_cast<cudaDeviceAttr>(9999), 0) == cudaErrorInvalidValue);
  CHECK(cudaDeviceGetAttribute(&value, cudaDevAttrWarpSize, 7) == cudaErrorInvalidDevice);
  CHECK(cudaDeviceGetAttribute(nullptr, cudaDevAttrWarpSize, 0) == cudaErrorInvalidValue);
  CHECK(cudaGetLastError() == cudaErrorInvalidValue);
}

TEST_CASE("versions, device flags, limits, peers and stream priorities are reported") {
  int driver = 0, runtime = 0;
  CHECK(cudaDriverGetVersion(&driver) == cudaSuccess);
  CHECK(cudaRuntimeGetVersion(&runtime) == cudaSuccess);
  CHECK(driver >= 13000);
  CHECK(runtime >= 13000);
  if (on_simulator) CHECK(runtime == 13000);

  CHECK(cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync) == cudaSuccess);
  unsigned flags = 0;
  CHECK(cudaGetDeviceFlags(&flags) == cudaSuccess);
  CHECK((flags & cudaDeviceScheduleMask) == cudaDeviceScheduleBlockingSync);
  CHECK(cudaSetDeviceFlags(cudaDeviceScheduleSpin | cudaDeviceScheduleYield) == cudaErrorInvalidValue);
  CHECK(cudaSetDeviceFlags(0x100) == cudaErrorInvalidValue);
  CHECK(cudaSetDeviceFlags(cudaDeviceScheduleAuto) == cudaSuccess);

  std::size_t limit = 0;
  CHECK(cudaDeviceSetLimit(cudaLimitPrintfFifoSize, 4 << 20) == cudaSuccess);
  CHECK(cudaDeviceGetLimit(&limit, cudaLimitPrintfFifoSize) == cudaSuccess);
  CHECK(limit == 4 << 20);
  CHECK(cudaDeviceGetLimit(&limit, cudaLimitMallocHeapSize) == cudaSuccess);
  CHECK(limit > 0);
  // A limit CUDA does not know is an invalid value (CUDA 13 on an H100: gpu-truth/semantics.h100.txt).
  CHECK(cudaDeviceSetLimit(static_cast<cudaLimit>(99), 1) == cudaErrorInvalidValue);
  CHECK(cudaDeviceGetLimit(&limit, static_cast<cudaLimit>(99)) == cudaErrorInvalidValue);

  int can = -1;
  CHECK(cudaDeviceCanAccessPeer(&can, 0, 0) == cudaSuccess);
  CHECK(can == 0);
  // A link needs two devices: a device with itself, or with one that does not exist, is none.
  int devices = 0, link = -1;
  CHECK(cudaGetDeviceCount(&devices) == cudaSuccess);
  CHECK(cudaDeviceGetP2PAttribute(&link, cudaDevP2PAttrAccessSupported, 0, 0) == cudaErrorInvalidDevice);
  CHECK(cudaDeviceGetP2PAttribute(&link, cudaDevP2PAttrPerformanceRank, 0, devices) == cudaErrorInvalidDevice);
  CHECK(cudaDeviceGetP2PAttribute(&link, cudaDevP2PAttrNativeAtomicSupported, devices, 0) == cudaErrorInvalidDevice);
  CHECK(link == -1);
  CHECK(cudaGetLastError() == cudaErrorInvalidDevice);
  int least = 1, greatest = 1;
  CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest) == cudaSuccess);
  CHECK(least == 0);
  CHECK(greatest < least);
  if (on_simulator) CHECK(greatest == -5);

  int device = -1;
  cudaDeviceProp want{};
  want.major = 7;
  CHECK(cudaChooseDevice(&device, &want) == cudaSuccess);
  CHECK(device == 0);
  CHECK(cudaChooseDevice(&device, nullptr) == cudaErrorInvalidValue);
  CHECK(cudaDeviceSetCacheConfig(cudaFuncCachePreferShared) == cudaSuccess);
  cudaFuncCache cache = cudaFuncCachePreferNone;
  CHECK(cudaDeviceGetCacheConfig(&cache) == cudaSuccess);
  CHECK(cudaDeviceSetCacheConfig(static_cast<cudaFuncCache>(9)) == cudaErrorInvalidValue);
  CHECK(cudaDeviceSetCacheConfig(cudaFuncCachePreferNone) == cudaSuccess);
  CHECK(cudaCtxResetPersistingL2Cache() == cudaSuccess);
  (void)cudaGetLastError();
}

__global__ void staged_copy(int* out, const int* in) {
  __shared__ cusim::shared_array<int, 256> stage;
  stage[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = stage[255 - threadIdx.x];
}

__global__ void fill_value(int* out, int value, int n) {
  const int i = cusim::grid<1>();
  if (i < n) out[i] = value;
}

TEST_CASE("cudaFuncGetAttributes reports the static shared memory and cudaFuncSetAttribute keeps its settings") {
  int *in = nullptr, *out = nullptr;
  REQUIRE(cudaMalloc(&in, 256 * sizeof(int)) == cudaSuccess);
  REQUIRE(cudaMalloc(&out, 256 * sizeof(int)) == cudaSuccess);
  CHECK(cudaMemset(in, 0, 256 * sizeof(int)) == cudaSuccess);
  cusim::launch(staged_copy, 1, 256, out, static_cast<const int*>(in));  // the simulator learns its shared memory
  cudaFuncAttributes attributes{};
  REQUIRE(cudaFuncGetAttributes(&attributes, staged_copy) == cudaSuccess);
  CHECK(attributes.sharedSizeBytes >= 256 * sizeof(int));
  CHECK(attributes.maxThreadsPerBlock == 1024);
  CHECK(attributes.localSizeBytes == 0);
  if (on_simulator) {
    CHECK(attributes.sharedSizeBytes == 256 * sizeof(int));
    CHECK(attributes.numRegs == 0);
    CHECK(attributes.maxDynamicSharedSizeBytes == 48 * 1024 - 1024);
    CHECK(attributes.ptxVersion == attributes.binaryVersion);
  }

  CHECK(cudaFuncSetAttribute(staged_copy, cudaFuncAttributeMaxDynamicSharedMemorySize, 16384) == cudaSuccess);
  CHECK(cudaFuncSetAttribute(staged_copy, cudaFuncAttributePreferredSharedMemoryCarveout, 50) == cudaSuccess);
  REQUIRE(cudaFuncGetAttributes(&attributes, staged_copy) == cudaSuccess);
  CHECK(attributes.maxDynamicSharedSizeBytes == 16384);
  CHECK(attributes.preferredShmemCarveout == 50);
  CHECK(cudaFuncSetAttribute(staged_copy, cudaFuncAttributePreferredSharedMemoryCarveout, 101) == cudaErrorInvalidValue);
  CHECK(cudaFuncSetAttribute(staged_copy, cudaFuncAttributeMaxDynamicSharedMemorySize, -1) == cudaErrorInvalidValue);
  CHECK(cudaFuncSetCacheConfig(staged_copy, cudaFuncCachePreferL1) == cudaSuccess);
  CHECK(cudaFuncGetAttributes(nullptr, staged_copy) == cudaErrorInvalidValue);
  // Up to the device's opt-in maximum less the static shared memory, on both backends (an H100
  // accepts 64 KiB); one byte more is refused.
  cudaDeviceProp prop{};
  REQUIRE(cudaGetDeviceProperties(&prop, 0) == cudaSuccess);
  CHECK(prop.sharedMemPerBlockOptin > prop.sharedMemPerBlock);
  const int most = static_cast<int>(prop.sharedMemPerBlockOptin - attributes.sharedSizeBytes);
  CHECK(cudaFuncSetAttribute(staged_copy, cudaFuncAttributeMaxDynamicSharedMemorySize, 64 * 1024) == cudaSuccess);
  CHECK(cudaFuncSetAttribute(staged_copy, cudaFuncAttributeMaxDynamicSharedMemorySize, most) == cudaSuccess);
  CHECK(cudaFuncSetAttribute(staged_copy, cudaFuncAttributeMaxDynamicSharedMemorySize, most + 1) ==
        cudaErrorInvalidValue);
  CHECK(cudaFree(in) == cudaSuccess);
  CHECK(cudaFree(out) == cudaSuccess);
  (void)cudaGetLastError();
}

TEST_CASE("the occupancy calculator gives the simulated device's figures") {
  int blocks = 0, min_grid = 0, block = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, fill_value, 128, 0) == cudaSuccess);
  CHECK(blocks > 0);
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&blocks, fill_value, 128, 0, cudaOccupancyDefault) ==
        cudaSuccess);
  CHECK(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, fill_value) == cudaSuccess);
  CHECK(block > 0);
  CHECK(block % 32 == 0);
  CHECK(min_grid > 0);
  std::size_t dynamic = 0;
  CHECK(cudaOccupancyAvailableDynamicSMemPerBlock(&dynamic, fill_value, 4, 256) == cudaSuccess);
  CHECK(dynamic > 0);
  if (default_profile()) {  // A100: 2048 threads, 32 blocks and 164 KiB of shared memory per SM, 108 SMs
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, fill_value, 128, 0) == cudaSuccess);
    CHECK(blocks == 16);
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, fill_value, 32, 0) == cudaSuccess);
    CHECK(blocks == 32);
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, fill_value, 256, 40 * 1024) == cudaSuccess);
    CHECK(blocks == 4);
    CHECK(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, fill_value) == cudaSuccess);
    CHECK(block == 1024);
    CHECK(min_grid == 216);
    // 48 KiB per block: three blocks per SM whatever their size, so the largest allowed size wins.
    CHECK(cudaOccupancyMaxPotentialBlockSizeVariableSMem(&min_grid, &block, fill_value,
                                                         [](int) { return 48 * 1024; }, 128) == cudaSuccess);
    CHECK(block == 128);
    CHECK(min_grid == 3 * 108);
    CHECK(cudaOccupancyAvailableDynamicSMemPerBlock(&dynamic, fill_value, 4, 256) == cudaSuccess);
    CHECK(dynamic == 164 * 1024 / 4);
  }
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, fill_value, 0, 0) == cudaErrorInvalidValue);
  blocks = -1;  // a block larger than the device allows fits 0 times, as an H100 answers (gpu-truth/semantics.h100.txt)
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, fill_value, 2048, 0) == cudaSuccess);
  CHECK(blocks == 0);
  CHECK(cudaOccupancyMaxPotentialBlockSize(static_cast<int*>(nullptr), &block, fill_value) == cudaErrorInvalidValue);
  (void)cudaGetLastError();
}

TEST_CASE("cudaMallocPitch, cudaMemset2D and cudaMemcpy2D keep rows a pitch apart") {
  constexpr std::size_t width = 100, height = 5;
  unsigned char* d = nullptr;
  std::size_t pitch = 0;
  REQUIRE(cudaMallocPitch(&d, &pitch, width, height) == cudaSuccess);
  CHECK(pitch >= width);
  if (on_simulator) CHECK(pitch == 512);
  CHECK(cudaMemset2D(d, pitch, 7, width, height) == cudaSuccess);
  std::vector<unsigned char> h(width * height, 0);
  CHECK(cudaMemcpy2D(h.data(), width, d, pitch, width, height, cudaMemcpyDeviceToHost) == cudaSuccess);
  for (unsigned char v : h) CHECK(v == 7);

  for (std::size_t i = 0; i < h.size(); ++i) h[i] = static_cast<unsigned char>(i % 251);
  CHECK(cudaMemcpy2D(d, pitch, h.data(), width, width, height, cudaMemcpyHostToDevice) == cudaSuccess);
  // A 10 x 3 window from column 20, row 1.
  std::vector<unsigned char> window(10 * 3, 0);
  CHECK(cudaMemcpy2D(window.data(), 10, d + pitch + 20, pitch, 10, 3, cudaMemcpyDeviceToHost) == cudaSuccess);
  for (std::size_t r = 0; r < 3; ++r)
    for (std::size_t c = 0; c < 10; ++c) CHECK(window[r * 10 + c] == h[(r + 1) * width + 20 + c]);
  // Rows 0..4, columns 0..3 set to 9 on a stream; the rest stays.
  cudaStream_t s;
  REQUIRE(cudaStreamCreate(&s) == cudaSuccess);
  CHECK(cudaMemset2DAsync(d, pitch, 9, 4, height, s) == cudaSuccess);
  CHECK(cudaMemcpy2DAsync(h.data(), width, d, pitch, width, height, cudaMemcpyDeviceToHost, s) == cudaSuccess);
  CHECK(cudaStreamSynchronize(s) == cudaSuccess);
  CHECK(h[0] == 9);
  CHECK(h[3 * width + 3] == 9);
  CHECK(h[3 * width + 4] == static_cast<unsigned char>((3 * width + 4) % 251));

  CHECK(cudaMemcpy2D(h.data(), width, d, 50, width, height, cudaMemcpyDeviceToHost) == cudaErrorInvalidPitchValue);
  CHECK(cudaMemcpy2D(h.data(), 50, d, pitch, width, height, cudaMemcpyDeviceToHost) == cudaErrorInvalidPitchValue);
  CHECK(cudaMallocPitch(static_cast<void**>(nullptr), &pitch, width, height) == cudaErrorInvalidValue);
  CHECK(cudaStreamDestroy(s) == cudaSuccess);
  CHECK(cudaFree(d) == cudaSuccess);
  (void)cudaGetLastError();
}

TEST_CASE("cudaMalloc3D, cudaMemset3D and cudaMemcpy3D copy boxes between pitched volumes") {
  constexpr std::size_t w = 16, h = 4, depth = 3;
  cudaPitchedPtr volume{};
  REQUIRE(cudaMalloc3D(&volume, make_cudaExtent(w, h, depth)) == cudaSuccess);
  CHECK(volume.pitch >= w);
  CHECK(volume.xsize == w);
  CHECK(volume.ysize == h);
  CHECK(cudaMemset3D(volume, 0, make_cudaExtent(w, h, depth)) == cudaSuccess);

  std::vector<unsigned char> host(w * h * depth);
  for (std::size_t i = 0; i < host.size(); ++i) host[i] = static_cast<unsigned char>(i);
  cudaMemcpy3DParms up{};
  up.srcPtr = make_cudaPitchedPtr(host.data(), w, w, h);
  up.dstPtr = volume;
  up.extent = make_cudaExtent(w, h, depth);
  up.kind = cudaMemcpyHostToDevice;
  REQUIRE(cudaMemcpy3D(&up) == cudaSuccess);

  // The 8 x 2 x 2 box at (4, 1, 1).
  std::vector<unsigned char> box(8 * 2 * 2, 0);
  cudaMemcpy3DParms down{};
  down.srcPtr = volume;
  down.srcPos = make_cudaPos(4, 1, 1);
  down.dstPtr = make_cudaPitchedPtr(box.data(), 8, 8, 2);
  down.extent = make_cudaExtent(8, 2, 2);
  down.kind = cudaMemcpyDeviceToHost;
  REQUIRE(cudaMemcpy3D(&down) == cudaSuccess);
  for (std::size_t z = 0; z < 2; ++z)
    for (std::size_t y = 0; y < 2; ++y)
      for (std::size_t x = 0; x < 8; ++x)
        CHECK(box[(z * 2 + y) * 8 + x] == host[((z + 1) * h + y + 1) * w + x + 4]);

  // The same on a stream, into the middle of the volume's second slice.
  cudaStream_t s;
  REQUIRE(cudaStreamCreate(&s) == cudaSuccess);
  CHECK(cudaMemcpy3DAsync(&down, s) == cudaSuccess);
  CHECK(cudaStreamSynchronize(s) == cudaSuccess);
  CHECK(cudaStreamDestroy(s) == cudaSuccess);

  CHECK(cudaMemcpy3D(nullptr) == cudaErrorInvalidValue);
  cudaMemcpy3DParms wrong = down;
  wrong.kind = static_cast<cudaMemcpyKind>(17);
  CHECK(cudaMemcpy3D(&wrong) == cudaErrorInvalidMemcpyDirection);
  CHECK(cudaFree(volume.ptr) == cudaSuccess);
  (void)cudaGetLastError();
}

__global__ void write_squares(int* out, int n) {
  const int i = cusim::grid<1>();
  if (i < n) out[i] = i * i;
}

TEST_CASE("registered host memory is reached by kernels through its device pointer") {
  constexpr int n = 64;
  std::vector<int> host(n, -1);
  REQUIRE(cudaHostRegister(host.data(), n * sizeof(int), cudaHostRegisterMapped | cudaHostRegisterPortable) ==
          cudaSuccess);
  unsigned flags = 0;
  CHECK(cudaHostGetFlags(&flags, host.data()) == cudaSuccess);
  CHECK((flags & cudaHostRegisterMapped) != 0);
  int* device = nullptr;
  REQUIRE(cudaHostGetDevicePointer(reinterpret_cast<void**>(&device), host.data(), 0) == cudaSuccess);
  REQUIRE(device != nullptr);
  cusim::launch(write_squares, 2, 32, device, n);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  for (int i = 0; i < n; ++i) CHECK(host[i] == i * i);

  CHECK(cudaHostRegister(host.data(), n * sizeof(int), cudaHostRegisterMapped) == cudaErrorHostMemoryAlreadyRegistered);
  CHECK(cudaHostUnregister(host.data()) == cudaSuccess);
  CHECK(cudaHostUnregister(host.data()) == cudaErrorHostMemoryNotRegistered);
  void* p = nullptr;
  CHECK(cudaHostGetDevicePointer(&p, host.data(), 0) == cudaErrorInvalidValue);
  CHECK(cudaHostRegister(nullptr, 16, 0) == cudaErrorInvalidValue);

  int* pinned = nullptr;
  REQUIRE(cudaHostAlloc(&pinned, n * sizeof(int), cudaHostAllocMapped) == cudaSuccess);
  CHECK(cudaHostGetFlags(&flags, pinned) == cudaSuccess);
  CHECK((flags & cudaHostAllocMapped) != 0);
  REQUIRE(cudaHostGetDevicePointer(&device, pinned, 0) == cudaSuccess);
  cusim::launch(write_squares, 2, 32, device, n);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(pinned[7] == 49);
  CHECK(cudaFreeHost(pinned) == cudaSuccess);
  (void)cudaGetLastError();
}

TEST_CASE("cudaPointerGetAttributes tells device, pinned, managed and ordinary memory apart") {
  void *device = nullptr, *pinned = nullptr, *managed = nullptr;
  REQUIRE(cudaMalloc(&device, 64) == cudaSuccess);
  REQUIRE(cudaMallocHost(&pinned, 64) == cudaSuccess);
  REQUIRE(cudaMallocManaged(&managed, 64) == cudaSuccess);
  cudaPointerAttributes a{};
  REQUIRE(cudaPointerGetAttributes(&a, device) == cudaSuccess);
  CHECK(a.type == cudaMemoryTypeDevice);
  CHECK(a.device == 0);
  CHECK(a.devicePointer == device);
  CHECK(a.hostPointer == nullptr);
  REQUIRE(cudaPointerGetAttributes(&a, static_cast<char*>(pinned) + 8) == cudaSuccess);
  CHECK(a.type == cudaMemoryTypeHost);
  CHECK(a.hostPointer == static_cast<char*>(pinned) + 8);
  REQUIRE(cudaPointerGetAttributes(&a, managed) == cudaSuccess);
  CHECK(a.type == cudaMemoryTypeManaged);
  CHECK(a.devicePointer == managed);
  CHECK(a.hostPointer == managed);
  int local = 0;
  REQUIRE(cudaPointerGetAttributes(&a, &local) == cudaSuccess);
  CHECK(a.type == cudaMemoryTypeUnregistered);
  CHECK(cudaPointerGetAttributes(nullptr, device) == cudaErrorInvalidValue);

  cudaMemLocation here{cudaMemLocationTypeDevice, 0};
  CHECK(cudaMemPrefetchAsync(managed, 64, here, 0, nullptr) == cudaSuccess);
  CHECK(cudaMemAdvise(managed, 64, cudaMemAdviseSetReadMostly, here) == cudaSuccess);
  CHECK(cudaMemAdvise(managed, 64, cudaMemAdviseSetPreferredLocation, here) == cudaSuccess);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(cudaFree(device) == cudaSuccess);
  CHECK(cudaFreeHost(pinned) == cudaSuccess);
  CHECK(cudaFree(managed) == cudaSuccess);
  (void)cudaGetLastError();
}

TEST_CASE("stream-ordered allocations come from memory pools that count them") {
  cudaStream_t s;
  REQUIRE(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) == cudaSuccess);
  cudaMemPool_t pool = nullptr;
  REQUIRE(cudaDeviceGetDefaultMemPool(&pool, 0) == cudaSuccess);
  std::uint64_t threshold = UINT64_MAX, read = 0;
  CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold) == cudaSuccess);
  CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &read) == cudaSuccess);
  CHECK(read == UINT64_MAX);
  threshold = 0;
  CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold) == cudaSuccess);

  constexpr int n = 1 << 18;  // 1 MiB of ints
  int* d = nullptr;
  REQUIRE(cudaMallocAsync(&d, n * sizeof(int), s) == cudaSuccess);
  cusim::launch(fill_value, cusim::launch_config{n / 256, 256, 0, s}, d, 3, n);
  std::vector<int> h(n);
  CHECK(cudaMemcpyAsync(h.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost, s) == cudaSuccess);
  CHECK(cudaFreeAsync(d, s) == cudaSuccess);
  CHECK(cudaStreamSynchronize(s) == cudaSuccess);
  CHECK(h[0] == 3);
  CHECK(h[n - 1] == 3);

  cudaMemPoolProps props{};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = 0;
  cudaMemPool_t own = nullptr;
  REQUIRE(cudaMemPoolCreate(&own, &props) == cudaSuccess);
  REQUIRE(cudaMallocFromPoolAsync(reinterpret_cast<void**>(&d), n * sizeof(int), own, s) == cudaSuccess);
  CHECK(cudaStreamSynchronize(s) == cudaSuccess);
  std::uint64_t used = 0;
  CHECK(cudaMemPoolGetAttribute(own, cudaMemPoolAttrUsedMemCurrent, &used) == cudaSuccess);
  CHECK(used >= n * sizeof(int));
  if (on_simulator) CHECK(used == n * sizeof(int));
  CHECK(cudaFreeAsync(d, s) == cudaSuccess);
  CHECK(cudaStreamSynchronize(s) == cudaSuccess);
  CHECK(cudaMemPoolGetAttribute(own, cudaMemPoolAttrUsedMemCurrent, &used) == cudaSuccess);
  CHECK(used == 0);
  CHECK(cudaMemPoolGetAttribute(own, cudaMemPoolAttrUsedMemHigh, &used) == cudaSuccess);
  CHECK(used >= n * sizeof(int));
  used = 0;
  CHECK(cudaMemPoolSetAttribute(own, cudaMemPoolAttrUsedMemHigh, &used) == cudaSuccess);
  CHECK(cudaMemPoolSetAttribute(own, cudaMemPoolAttrUsedMemCurrent, &used) == cudaErrorInvalidValue);
  CHECK(cudaMemPoolDestroy(own) == cudaSuccess);

  CHECK(cudaMallocAsync(static_cast<void**>(nullptr), 16, s) == cudaErrorInvalidValue);
  CHECK(cudaDeviceGetDefaultMemPool(&pool, 3) == cudaErrorInvalidDevice);
  if (on_simulator) {
    CHECK(cudaMemPoolDestroy(pool) == cudaErrorInvalidValue);  // the device's default pool
    int local = 0;
    CHECK(cudaFreeAsync(&local, s) == cudaErrorInvalidValue);
  }
  CHECK(cudaStreamDestroy(s) == cudaSuccess);
  (void)cudaGetLastError();
}

namespace {
void CUDART_CB note_callback(cudaStream_t, cudaError_t status, void* data) {
  *static_cast<int*>(data) = status == cudaSuccess ? 1 : 2;
}
}  // namespace

TEST_CASE("streams keep their priority, flags and attributes, and run callbacks in order") {
  int least = 0, greatest = 0;
  REQUIRE(cudaDeviceGetStreamPriorityRange(&least, &greatest) == cudaSuccess);
  cudaStream_t s;
  REQUIRE(cudaStreamCreateWithPriority(&s, cudaStreamNonBlocking, greatest - 100) == cudaSuccess);
  int priority = 1;
  CHECK(cudaStreamGetPriority(s, &priority) == cudaSuccess);
  CHECK(priority == greatest);  // clamped into the device's range
  unsigned flags = 0;
  CHECK(cudaStreamGetFlags(s, &flags) == cudaSuccess);
  CHECK(flags == cudaStreamNonBlocking);

  int* d = nullptr;
  REQUIRE(cudaMalloc(&d, 4096) == cudaSuccess);
  cudaStreamAttrValue value{};
  value.accessPolicyWindow.base_ptr = d;
  value.accessPolicyWindow.num_bytes = 4096;
  value.accessPolicyWindow.hitRatio = 0.6f;
  value.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
  value.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
  CHECK(cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &value) == cudaSuccess);
  cudaStreamAttrValue back{};
  CHECK(cudaStreamGetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &back) == cudaSuccess);
  CHECK(back.accessPolicyWindow.base_ptr == d);
  CHECK(back.accessPolicyWindow.num_bytes == 4096);
  value.accessPolicyWindow.hitRatio = 1.5f;
  CHECK(cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &value) == cudaErrorInvalidValue);

  int called = 0;
  cusim::launch(fill_value, cusim::launch_config{4, 256, 0, s}, d, 1, 1024);
  CHECK(cudaStreamAddCallback(s, note_callback, &called, 0) == cudaSuccess);
  CHECK(cudaStreamAddCallback(s, note_callback, &called, 1) == cudaErrorInvalidValue);
  cudaEvent_t e;
  REQUIRE(cudaEventCreateWithFlags(&e, cudaEventDisableTiming) == cudaSuccess);
  CHECK(cudaEventRecordWithFlags(e, s, cudaEventRecordDefault) == cudaSuccess);
  CHECK(cudaEventRecordWithFlags(e, s, 5) == cudaErrorInvalidValue);
  CHECK(cudaEventSynchronize(e) == cudaSuccess);
  CHECK(called == 1);
  CHECK(cudaEventDestroy(e) == cudaSuccess);
  CHECK(cudaStreamDestroy(s) == cudaSuccess);
  CHECK(cudaFree(d) == cudaSuccess);
  CHECK(cudaStreamGetPriority(nullptr, &priority) == cudaSuccess);
  CHECK(priority == 0);
  (void)cudaGetLastError();
}

__device__ int breadth_counter;

TEST_CASE("cudaMemcpyPeer copies on the one device and symbols have an address and a size") {
  int *a = nullptr, *b = nullptr;
  REQUIRE(cudaMalloc(&a, 16 * sizeof(int)) == cudaSuccess);
  REQUIRE(cudaMalloc(&b, 16 * sizeof(int)) == cudaSuccess);
  std::vector<int> h(16);
  for (int i = 0; i < 16; ++i) h[i] = 100 + i;
  CHECK(cudaMemcpy(a, h.data(), 16 * sizeof(int), cudaMemcpyHostToDevice) == cudaSuccess);
  CHECK(cudaMemcpyPeer(b, 0, a, 0, 16 * sizeof(int)) == cudaSuccess);
  std::vector<int> back(16);
  CHECK(cudaMemcpy(back.data(), b, 16 * sizeof(int), cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(back == h);
  CHECK(cudaMemcpyPeer(b, 1, a, 0, 16) == cudaErrorInvalidDevice);

  void* address = nullptr;
  REQUIRE(cudaGetSymbolAddress(&address, breadth_counter) == cudaSuccess);
  std::size_t size = 0;
  CHECK(cudaGetSymbolSize(&size, breadth_counter) == cudaSuccess);
  CHECK(size == sizeof(int));
  const int seven = 7;
  CHECK(cudaMemcpy(address, &seven, sizeof seven, cudaMemcpyHostToDevice) == cudaSuccess);
  int read = 0;
  CHECK(cudaMemcpyFromSymbol(&read, breadth_counter, sizeof read) == cudaSuccess);
  CHECK(read == 7);
  CHECK(cudaFree(a) == cudaSuccess);
  CHECK(cudaFree(b) == cudaSuccess);
  (void)cudaGetLastError();
}

TEST_CASE("the new error codes have CUDA's names and strings") {
  CHECK(std::string(cudaGetErrorName(cudaErrorInvalidPitchValue)) == "cudaErrorInvalidPitchValue");
  CHECK(std::string(cudaGetErrorName(cudaErrorInvalidDeviceFunction)) == "cudaErrorInvalidDeviceFunction");
  CHECK(std::string(cudaGetErrorName(cudaErrorUnsupportedLimit)) == "cudaErrorUnsupportedLimit");
  CHECK(std::string(cudaGetErrorName(cudaErrorIllegalState)) == "cudaErrorIllegalState");
  CHECK(std::string(cudaGetErrorName(cudaErrorHostMemoryAlreadyRegistered)) == "cudaErrorHostMemoryAlreadyRegistered");
  CHECK(std::string(cudaGetErrorName(cudaErrorHostMemoryNotRegistered)) == "cudaErrorHostMemoryNotRegistered");
  CHECK(std::string(cudaGetErrorName(cudaErrorStreamCaptureUnsupported)) == "cudaErrorStreamCaptureUnsupported");
  CHECK(std::string(cudaGetErrorName(cudaErrorStreamCaptureInvalidated)) == "cudaErrorStreamCaptureInvalidated");
  CHECK(std::string(cudaGetErrorName(cudaErrorStreamCaptureUnjoined)) == "cudaErrorStreamCaptureUnjoined");
  CHECK(std::string(cudaGetErrorName(cudaErrorStreamCaptureImplicit)) == "cudaErrorStreamCaptureImplicit");
  CHECK(std::string(cudaGetErrorName(cudaErrorGraphExecUpdateFailure)) == "cudaErrorGraphExecUpdateFailure");
  CHECK(std::string(cudaGetErrorString(cudaErrorInvalidPitchValue)) == "invalid pitch argument");
  CHECK(std::string(cudaGetErrorString(cudaErrorInvalidDeviceFunction)) == "invalid device function");
  CHECK(std::string(cudaGetErrorString(cudaErrorStreamCaptureUnjoined)) == "capturing stream has unjoined work");
  CHECK(static_cast<int>(cudaErrorStreamCaptureUnjoined) == 904);
  CHECK(static_cast<int>(cudaErrorGraphExecUpdateFailure) == 910);
  CHECK(static_cast<int>(cudaDevAttrMemoryPoolsSupported) == 115);
}
