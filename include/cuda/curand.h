// SPDX-License-Identifier: MIT
// cusim's <curand.h>: cuRAND's host API with CUDA's names, values and signatures, for C and C++.
// `-lcurand` (CUDA::curand) links the simulator, which implements it (simulator/curand_generators.cpp):
// the pseudorandom generators XORWOW (the default), Philox4_32_10 and MRG32k3a, on the device
// (curandCreateGenerator: the output is device memory, written in stream order) or on the host
// (curandCreateGeneratorHost), with cuRAND's default ordering, so the same seed and offset give
// NVIDIA's numbers in NVIDIA's order. The quasirandom (Sobol) and Mersenne Twister generators
// are not provided: creating one answers CURAND_STATUS_TYPE_ERROR.
#pragma GCC system_header
#ifndef CUSIM_CUDA_CURAND_H_
#define CUSIM_CUDA_CURAND_H_
#define CURAND_H_

#include "cuda_runtime.h"

#include <stddef.h>

#define CURAND_VER_MAJOR 10
#define CURAND_VER_MINOR 4
#define CURAND_VER_PATCH 0
#define CURAND_VER_BUILD 35
#define CURAND_VERSION (CURAND_VER_MAJOR * 1000 + CURAND_VER_MINOR * 100 + CURAND_VER_PATCH)
#ifndef CURANDAPI
#  define CURANDAPI
#endif

#ifdef __cplusplus
extern "C" {
#endif

enum curandStatus {
  CURAND_STATUS_SUCCESS = 0,
  CURAND_STATUS_VERSION_MISMATCH = 100,
  CURAND_STATUS_NOT_INITIALIZED = 101,
  CURAND_STATUS_ALLOCATION_FAILED = 102,
  CURAND_STATUS_TYPE_ERROR = 103,
  CURAND_STATUS_OUT_OF_RANGE = 104,
  CURAND_STATUS_LENGTH_NOT_MULTIPLE = 105,
  CURAND_STATUS_DOUBLE_PRECISION_REQUIRED = 106,
  CURAND_STATUS_LAUNCH_FAILURE = 201,
  CURAND_STATUS_PREEXISTING_FAILURE = 202,
  CURAND_STATUS_INITIALIZATION_FAILED = 203,
  CURAND_STATUS_ARCH_MISMATCH = 204,
  CURAND_STATUS_INTERNAL_ERROR = 999
};
typedef enum curandStatus curandStatus_t;

enum curandRngType {
  CURAND_RNG_TEST = 0,
  CURAND_RNG_PSEUDO_DEFAULT = 100,
  CURAND_RNG_PSEUDO_XORWOW = 101,
  CURAND_RNG_PSEUDO_MRG32K3A = 121,
  CURAND_RNG_PSEUDO_MTGP32 = 141,
  CURAND_RNG_PSEUDO_MT19937 = 142,
  CURAND_RNG_PSEUDO_PHILOX4_32_10 = 161,
  CURAND_RNG_QUASI_DEFAULT = 200,
  CURAND_RNG_QUASI_SOBOL32 = 201,
  CURAND_RNG_QUASI_SCRAMBLED_SOBOL32 = 202,
  CURAND_RNG_QUASI_SOBOL64 = 203,
  CURAND_RNG_QUASI_SCRAMBLED_SOBOL64 = 204
};
typedef enum curandRngType curandRngType_t;

enum curandOrdering {
  CURAND_ORDERING_PSEUDO_BEST = 100,
  CURAND_ORDERING_PSEUDO_DEFAULT = 101,
  CURAND_ORDERING_PSEUDO_SEEDED = 102,
  CURAND_ORDERING_PSEUDO_LEGACY = 103,
  CURAND_ORDERING_PSEUDO_DYNAMIC = 104,
  CURAND_ORDERING_QUASI_DEFAULT = 201
};
typedef enum curandOrdering curandOrdering_t;

enum curandDirectionVectorSet {
  CURAND_DIRECTION_VECTORS_32_JOEKUO6 = 101,
  CURAND_SCRAMBLED_DIRECTION_VECTORS_32_JOEKUO6 = 102,
  CURAND_DIRECTION_VECTORS_64_JOEKUO6 = 103,
  CURAND_SCRAMBLED_DIRECTION_VECTORS_64_JOEKUO6 = 104
};
typedef enum curandDirectionVectorSet curandDirectionVectorSet_t;
typedef unsigned int curandDirectionVectors32_t[32];
typedef unsigned long long curandDirectionVectors64_t[64];

struct curandGenerator_st;
typedef struct curandGenerator_st* curandGenerator_t;

curandStatus_t CURANDAPI curandCreateGenerator(curandGenerator_t* generator, curandRngType_t rng_type);
curandStatus_t CURANDAPI curandCreateGeneratorHost(curandGenerator_t* generator, curandRngType_t rng_type);
curandStatus_t CURANDAPI curandDestroyGenerator(curandGenerator_t generator);
curandStatus_t CURANDAPI curandGetVersion(int* version);
curandStatus_t CURANDAPI curandSetStream(curandGenerator_t generator, cudaStream_t stream);
curandStatus_t CURANDAPI curandSetPseudoRandomGeneratorSeed(curandGenerator_t generator, unsigned long long seed);
curandStatus_t CURANDAPI curandSetGeneratorOffset(curandGenerator_t generator, unsigned long long offset);
curandStatus_t CURANDAPI curandSetGeneratorOrdering(curandGenerator_t generator, curandOrdering_t order);
curandStatus_t CURANDAPI curandGenerateSeeds(curandGenerator_t generator);
curandStatus_t CURANDAPI curandGenerate(curandGenerator_t generator, unsigned int* outputPtr, size_t num);
curandStatus_t CURANDAPI curandGenerateUniform(curandGenerator_t generator, float* outputPtr, size_t num);
curandStatus_t CURANDAPI curandGenerateUniformDouble(curandGenerator_t generator, double* outputPtr, size_t num);
curandStatus_t CURANDAPI curandGenerateNormal(curandGenerator_t generator, float* outputPtr, size_t n, float mean,
                                              float stddev);
curandStatus_t CURANDAPI curandGenerateNormalDouble(curandGenerator_t generator, double* outputPtr, size_t n,
                                                    double mean, double stddev);
curandStatus_t CURANDAPI curandGenerateLogNormal(curandGenerator_t generator, float* outputPtr, size_t n, float mean,
                                                 float stddev);
curandStatus_t CURANDAPI curandGenerateLogNormalDouble(curandGenerator_t generator, double* outputPtr, size_t n,
                                                       double mean, double stddev);

#ifdef __cplusplus
}
#endif

#endif  // CUSIM_CUDA_CURAND_H_
