/* codegen/cuda_text.h: the CUDA files under codegen/ (*.cuh), compiled
 * into the library as strings by codegen/embed_cuda.sh, so that every .cu
 * that `twill emit --format cuda --complete` writes is self-contained.
 * Private to codegen/. */
#ifndef TWILL_CODEGEN_CUDA_TEXT_H
#define TWILL_CODEGEN_CUDA_TEXT_H

/* codegen/tileops_sm90.cuh: mbarriers, TMA, wgmma, setmaxnreg, epilogue */
extern const char twill_cuda_tileops_sm90[];
/* codegen/gemm_host.cuh: the GEMM's host harness (references, timing) */
extern const char twill_cuda_gemm_host[];

#endif
