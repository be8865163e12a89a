// codegen/tileops_sm90.cuh: the Hopper (sm_90a) tile ops that the complete
// kernels of `twill emit --format cuda --complete` are made of.  twill
// inlines this file verbatim into every complete .cu it writes (so the
// output is one self-contained file); it can also be #included on its own.
// Our own code: inline PTX where CUDA C++ has no intrinsic, no library.
//
// What each group is for, and the PTX ISA facts it relies on (PTX ISA 8.x,
// sections "mbarrier", "cp.async.bulk.tensor", "wgmma", "setmaxnreg"):
//   - mbarriers: the rings between warp roles.  A barrier completes a phase
//     when its pending arrivals reach zero AND its pending transaction
//     bytes (expect_tx, decremented by the copy engine's complete_tx) reach
//     zero.  try_wait.parity(P) succeeds once the phase of parity P has
//     completed; on a fresh barrier (phase 0 running) parity 1 counts as
//     completed, so a producer may wait on "parity of the previous lap"
//     without a special first lap.
//   - TMA: cp.async.bulk.tensor.2d moves a box of a global tensor into
//     shared memory and signals complete_tx on an mbarrier.  The tensor map
//     (CUtensorMap, 128 bytes) must live in param, const or global space:
//     pass it as a __grid_constant__ kernel parameter and take its address.
//   - wgmma: a warpgroup (4 consecutive warps, first warp index a multiple
//     of 4) issues D[64xN] += A[64x16] * B[16xN]; A and B are read from
//     shared memory through 64-bit matrix descriptors, D stays in
//     registers (N/2 f32 per thread).  The MMAs run asynchronously:
//     wgmma.fence before the first one that touches registers written by
//     ordinary instructions, commit_group to close a batch, wait_group(N)
//     until at most N batches are still running.
//   - setmaxnreg: per-warpgroup register budgets; .inc/.dec must be
//     executed by all threads of the warpgroup.
// sm_90a-only instructions (wgmma, setmaxnreg) are compiled only where
// __CUDA_ARCH_FEAT_SM90_ALL is defined: `nvcc -arch=sm_90a` also runs a
// plain compute_90 pass (for the embedded PTX) that would reject them.
#ifndef TWILL_TILEOPS_SM90_CUH
#define TWILL_TILEOPS_SM90_CUH

#include <cstdint>

#include <cuda_bf16.h>

#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define TWILL_SM90A 1
#else
#define TWILL_SM90A 0
#endif

namespace twill_sm90 {

__device__ __forceinline__ uint32_t smem_u32(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

// ---- mbarriers --------------------------------------------------------------

__device__ __forceinline__ void mbar_init(uint64_t *bar, uint32_t count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_u32(bar)),
               "r"(count)
               : "memory");
}

// Make the initialized barriers visible to the copy engine (async proxy)
// before any thread hands one to a TMA.
__device__ __forceinline__ void mbar_init_fence() {
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}

__device__ __forceinline__ void mbar_arrive(uint64_t *bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(smem_u32(bar))
               : "memory");
}

// One arrival, and `bytes` more transaction bytes the phase waits for.
__device__ __forceinline__ void mbar_arrive_expect_tx(uint64_t *bar,
                                                      uint32_t bytes) {
  asm volatile(
      "mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(
          smem_u32(bar)),
      "r"(bytes)
      : "memory");
}

// Spin until the phase of parity `parity` has completed.
__device__ __forceinline__ void mbar_wait(uint64_t *bar, uint32_t parity) {
  asm volatile(
      "{\n\t.reg .pred p;\n"
      "TWILL_MBAR_WAIT:\n\t"
      "mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n\t"
      "@!p bra TWILL_MBAR_WAIT;\n\t}" ::"r"(smem_u32(bar)),
      "r"(parity)
      : "memory");
}

// ---- TMA ----------------------------------------------------------------------

__device__ __forceinline__ void tma_prefetch_desc(const void *tmap) {
  asm volatile("prefetch.tensormap [%0];" ::"l"(reinterpret_cast<uint64_t>(tmap))
               : "memory");
}

// Box at (c0, c1) (c0 the contiguous dimension, in elements) of the tensor
// described by tmap into dst (aligned as the map's swizzle needs: 1024
// bytes for 128B); completion is signalled on bar as transaction bytes.
// A CTA's own shared::cta address is a valid shared::cluster address.
__device__ __forceinline__ void tma_load_2d(void *dst, const void *tmap,
                                            uint64_t *bar, int c0, int c1) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::"
      "bytes [%0], [%1, {%3, %4}], [%2];" ::"r"(smem_u32(dst)),
      "l"(reinterpret_cast<uint64_t>(tmap)), "r"(smem_u32(bar)), "r"(c0),
      "r"(c1)
      : "memory");
}

// ---- wgmma ----------------------------------------------------------------------

// Shared-memory matrix descriptor of a K-major tile written by a TMA with
// 128-byte swizzle: rows of 64 bf16 (128 bytes), 8-row core groups 1024
// bytes apart (the stride byte offset, SBO), the swizzle pattern repeating
// every 1024 bytes, so the tile must start 1024-byte aligned (base offset
// 0).  Bit fields (PTX ISA "matrix descriptor"): [0,14) address >> 4,
// [16,30) leading byte offset >> 4 (not used by swizzled K-major layouts
// whose K extent, 16 elements = 32 bytes, lies within one 128-byte row:
// 1 by convention), [32,46) SBO >> 4, [49,52) base offset, [62,64) swizzle
// (1 = 128B).  Stepping K by 16 elements inside the 128-byte row is adding
// 32 bytes to the start address: the swizzle is a function of the address
// bits, which the hardware applies after adding the row offsets.
__device__ __forceinline__ uint64_t wgmma_desc_sw128(const void *tile) {
  uint64_t a = smem_u32(tile);
  uint64_t d = (a & 0x3FFFF) >> 4;
  d |= uint64_t(1) << 16;
  d |= uint64_t(1024 >> 4) << 32;
  d |= uint64_t(1) << 62;
  return d;
}

__device__ __forceinline__ void wgmma_fence() {
#if TWILL_SM90A
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#endif
}

__device__ __forceinline__ void wgmma_commit() {
#if TWILL_SM90A
  asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
#endif
}

template <int N> __device__ __forceinline__ void wgmma_wait() {
#if TWILL_SM90A
  asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(N) : "memory");
#endif
}

// Keep the compiler from moving ordinary uses of an accumulator register
// across the asynchronous MMAs (the asm statements above name no
// registers): a no-op that "reads and writes" r.
__device__ __forceinline__ void fence_operand(float &r) {
  asm volatile("" : "+f"(r)::"memory");
}

// ---- registers ------------------------------------------------------------------

template <int N> __device__ __forceinline__ void setmaxnreg_inc() {
#if TWILL_SM90A
  asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;" ::"n"(N));
#endif
}
template <int N> __device__ __forceinline__ void setmaxnreg_dec() {
#if TWILL_SM90A
  asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;" ::"n"(N));
#endif
}

// ---- epilogue ---------------------------------------------------------------------

// The accumulator fragment of wgmma m64nNk16 with f32 D (PTX ISA "wgmma
// register fragments", the m64nNk16 D layout): thread t of the warpgroup,
// warp w = t / 32, lane l, register i of N/2 holds
//   row = 16 w + l / 4 + 8 ((i / 2) % 2),  col = 8 (i / 4) + 2 (l % 4) + i % 2.
// Registers 4j, 4j+1 are two adjacent columns of one row, 4j+2, 4j+3 the
// same columns 8 rows down: each pair is stored as one bf16x2 (4 bytes).
// C is row-major with ldc elements per row; rows >= m_end and columns >=
// n_end are not stored (a partial tile at the matrix edge); n_end even.
template <int N>
__device__ __forceinline__ void store_acc_bf16(const float (&d)[N / 2],
                                               __nv_bfloat16 *C, long ldc,
                                               int row0, int col0, int m_end,
                                               int n_end, int warp, int lane) {
  const int r = row0 + 16 * warp + lane / 4;
  const int c = col0 + 2 * (lane % 4);
#pragma unroll
  for (int j = 0; j < N / 8; ++j) {
    const int cc = c + 8 * j;
    if (cc >= n_end) continue;
    if (r < m_end)
      *reinterpret_cast<__nv_bfloat162 *>(C + (long)r * ldc + cc) =
          __floats2bfloat162_rn(d[4 * j], d[4 * j + 1]);
    if (r + 8 < m_end)
      *reinterpret_cast<__nv_bfloat162 *>(C + (long)(r + 8) * ldc + cc) =
          __floats2bfloat162_rn(d[4 * j + 2], d[4 * j + 3]);
  }
}

}  // namespace twill_sm90

#endif  // TWILL_TILEOPS_SM90_CUH
