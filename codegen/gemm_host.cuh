// codegen/gemm_host.cuh: the host harness of a complete GEMM written by
// `twill emit --format cuda --complete`.  twill inlines it after the kernel,
// which it reaches through the namespace alias twill_gemm (kBM, kBN, kBK,
// kStages, kThreads, kSmemBytes, kII, kLength, kCopies, kName, Params,
// kernel).
//
// The problem: C[M][N] = sum_k A[m][k] * B[n][k] with A (M x K) and B
// (N x K) bf16, both K-contiguous (row-major A, "B transposed"), f32
// accumulation, C bf16 row-major: cuBLAS's fastest "TN" layout, so that the
// peer runs the same problem at its best.
//
// For each size: fill A and B from a seeded generator (uniform in [-1, 1),
// rounded to bf16), poison C (every byte 0xFF: bf16 NaN), run once, check
// that every element was written and compare with a CPU reference in
// double (every entry when M*N*K <= --cpu-full, else --samples entries
// drawn at random plus the four corners), then with cuBLAS (every entry)
// when libcublas loads; time both (CUDA events, --warmup then --reps
// launches each, the median) and print TFLOP/s = 2 M N K / time.
//
// Pass/fail (exit 1 on a failure): no NaN or unwritten entry, and against
// the CPU reference ||out - ref||_F / ||ref||_F <= 5e-3 and max |out - ref|
// <= 2^-7 max |ref|.  Why these bounds: the inputs are exactly
// representable in both computations, so the difference is the f32
// accumulation order (relative ~1e-7 per add) plus rounding C to bf16 (7
// fraction bits: at most half an ulp, 2^-8 of |c| at the bottom of a
// binade; for c in [2^e, 2^(e+1)) an RMS error of 2^(e-7)/sqrt(12), about
// 1.6e-3 relative): a correct kernel sits near 1.6e-3 and at most 2^-8 max
// |ref|, while a wrong index or a missed stage moves entries by O(|ref|).
//
// No -lcuda and no -lcublas: the driver's cuTensorMapEncodeTiled comes
// through cudaGetDriverEntryPointByVersion, cuBLAS through dlopen.
#include <dlfcn.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <cuda.h>
#include <cuda_runtime.h>

namespace twill_host {

static void cuda_check(cudaError_t e, const char *what, int line) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "line %d: %s: %s\n", line, what, cudaGetErrorString(e));
    std::exit(1);
  }
}
#define TWILL_CK(x) twill_host::cuda_check((x), #x, __LINE__)

// splitmix64: a seeded, portable stream (same seed, same matrices).
static uint64_t next_u64(uint64_t &s) {
  uint64_t z = (s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// float -> bf16 bits, round to nearest even (inputs are finite).
static uint16_t bf16_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  u += 0x7FFFu + ((u >> 16) & 1u);
  return (uint16_t)(u >> 16);
}
static float bf16_float(uint16_t b) {
  uint32_t u = (uint32_t)b << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

// Uniform in [-1, 1) rounded to bf16: `bits` for the device, `vals` the
// same numbers as floats for the CPU reference.
static void fill(std::vector<uint16_t> &bits, std::vector<float> &vals,
                 size_t n, uint64_t &seed) {
  bits.resize(n);
  vals.resize(n);
  for (size_t i = 0; i < n; i++) {
    float u = (float)((next_u64(seed) >> 40) * (1.0 / 16777216.0)) * 2.0f - 1.0f;
    bits[i] = bf16_bits(u);
    vals[i] = bf16_float(bits[i]);
  }
}

// ---- the driver's tensor-map encoder, without linking libcuda --------------
typedef CUresult (*encode_fn)(CUtensorMap *, CUtensorMapDataType, cuuint32_t,
                              void *, const cuuint64_t *, const cuuint64_t *,
                              const cuuint32_t *, const cuuint32_t *,
                              CUtensorMapInterleave, CUtensorMapSwizzle,
                              CUtensorMapL2promotion, CUtensorMapFloatOOBfill);

static encode_fn get_encoder() {
  void *fn = nullptr;
  cudaDriverEntryPointQueryResult q;
  TWILL_CK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000,
                                            cudaEnableDefault, &q));
  if (q != cudaDriverEntryPointSuccess || !fn) {
    std::fprintf(stderr, "cuTensorMapEncodeTiled not found in the driver\n");
    std::exit(1);
  }
  return (encode_fn)fn;
}

// A rows x K bf16 matrix, K contiguous, read in boxes of box_rows x kBK with
// the 128-byte swizzle the wgmma descriptors expect (kBK bf16 = 128 bytes).
// Out-of-range boxes are filled with zeros, so partial tiles add nothing.
static CUtensorMap tensor_map(encode_fn enc, const void *ptr, int rows, int K,
                              int box_rows) {
  CUtensorMap m;
  cuuint64_t dims[2] = {(cuuint64_t)K, (cuuint64_t)rows};
  cuuint64_t strides[1] = {(cuuint64_t)K * 2};
  cuuint32_t box[2] = {(cuuint32_t)twill_gemm::kBK, (cuuint32_t)box_rows};
  cuuint32_t es[2] = {1, 1};
  CUresult r = enc(&m, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, const_cast<void *>(ptr),
                   dims, strides, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE,
                   CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                   CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS) {
    std::fprintf(stderr, "cuTensorMapEncodeTiled failed (%d)\n", (int)r);
    std::exit(1);
  }
  return m;
}

// ---- cuBLAS through dlopen ------------------------------------------------------
// Enum values from cublas_api.h and library_types.h (CUDA 12 and 13):
// CUBLAS_OP_N 0, CUBLAS_OP_T 1, CUDA_R_16BF 14, CUBLAS_COMPUTE_32F 68,
// CUBLAS_GEMM_DEFAULT -1; every status but 0 is an error.
typedef int (*cublas_create_fn)(void **);
typedef int (*cublas_destroy_fn)(void *);
typedef int (*cublas_gemm_ex_fn)(void *, int, int, int, int, int, const void *,
                                 const void *, int, int, const void *, int, int,
                                 const void *, void *, int, int, int, int);
struct Cublas {
  void *lib = nullptr, *handle = nullptr;
  cublas_gemm_ex_fn gemm = nullptr;
  cublas_destroy_fn destroy = nullptr;
  char name[64] = "";
  bool load() {
    const char *names[] = {"libcublas.so", "libcublas.so.13", "libcublas.so.12"};
    for (const char *n : names)
      if ((lib = dlopen(n, RTLD_NOW | RTLD_LOCAL))) {
        std::snprintf(name, sizeof name, "%s", n);
        break;
      }
    if (!lib) return false;
    cublas_create_fn create = (cublas_create_fn)dlsym(lib, "cublasCreate_v2");
    destroy = (cublas_destroy_fn)dlsym(lib, "cublasDestroy_v2");
    gemm = (cublas_gemm_ex_fn)dlsym(lib, "cublasGemmEx");
    if (!create || !destroy || !gemm || create(&handle) != 0) {
      handle = nullptr;
      return false;
    }
    return true;
  }
  // Row-major C[M][N] = A[M][K] * B[N][K]^T is, column-major, C^T (N x M)
  // = op(B) * op(A) with B read as K x N transposed and A as K x M.
  int run(const void *A, const void *B, void *C, int M, int N, int K) {
    const float one = 1.0f, zero = 0.0f;
    return gemm(handle, 1, 0, N, M, K, &one, B, 14, K, A, 14, K, &zero, C, 14, N,
                68, -1);
  }
  ~Cublas() {
    if (handle) destroy(handle);
  }
};

// ---- timing -----------------------------------------------------------------------
template <class F> static double median_ms(F launch, int warmup, int reps) {
  for (int i = 0; i < warmup; i++) launch();
  TWILL_CK(cudaDeviceSynchronize());
  cudaEvent_t a, b;
  TWILL_CK(cudaEventCreate(&a));
  TWILL_CK(cudaEventCreate(&b));
  std::vector<float> t((size_t)reps);
  for (int i = 0; i < reps; i++) {
    TWILL_CK(cudaEventRecord(a));
    launch();
    TWILL_CK(cudaEventRecord(b));
    TWILL_CK(cudaEventSynchronize(b));
    TWILL_CK(cudaEventElapsedTime(&t[(size_t)i], a, b));
  }
  TWILL_CK(cudaGetLastError());
  TWILL_CK(cudaEventDestroy(a));
  TWILL_CK(cudaEventDestroy(b));
  std::sort(t.begin(), t.end());
  return t[(size_t)reps / 2];
}

struct Errors {
  double max_abs = 0, max_ref = 0, sum_d2 = 0, sum_r2 = 0;
  long bad = 0, count = 0;  // NaN / unwritten entries, entries compared
  void add(double out, double ref) {
    count++;
    if (!std::isfinite(out)) {
      bad++;
      return;
    }
    double d = std::fabs(out - ref);
    if (d > max_abs) max_abs = d;
    if (std::fabs(ref) > max_ref) max_ref = std::fabs(ref);
    sum_d2 += d * d;
    sum_r2 += ref * ref;
  }
  double rel_fro() const { return sum_r2 > 0 ? std::sqrt(sum_d2 / sum_r2) : 0; }
  bool ok() const {
    return bad == 0 && count > 0 && rel_fro() <= 5e-3 &&
           max_abs <= std::ldexp(max_ref, -7);
  }
};

struct Opts {
  std::vector<int> M, N, K;
  int reps = 20, warmup = 3, samples = 65536;
  double cpu_full = 268435456.0;  // M*N*K up to 2^28: every entry on the CPU
  uint64_t seed = 1;
  bool cublas = true;
};

static void usage(const char *p) {
  std::fprintf(stderr,
               "usage: %s [--size M N K]... [--cube S]... [--reps R] [--warmup W]\n"
               "          [--seed S] [--samples N] [--cpu-full F] [--no-cublas]\n"
               "default: --cube 256 --cube 1024 --cube 4096\n",
               p);
  std::exit(2);
}

static Opts parse(int argc, char **argv) {
  Opts o;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    auto num = [&](int k, long lo = 1) -> long {
      if (i + k >= argc) usage(argv[0]);
      char *e;
      long v = std::strtol(argv[i + k], &e, 10);
      if (*e || v < lo || v > 1000000000L) usage(argv[0]);
      return v;
    };
    if (!std::strcmp(a, "--size")) {
      o.M.push_back((int)num(1));
      o.N.push_back((int)num(2));
      o.K.push_back((int)num(3));
      i += 3;
    } else if (!std::strcmp(a, "--cube")) {
      int s = (int)num(1);
      o.M.push_back(s);
      o.N.push_back(s);
      o.K.push_back(s);
      i++;
    } else if (!std::strcmp(a, "--reps")) {
      o.reps = (int)num(1);
      i++;
    } else if (!std::strcmp(a, "--warmup")) {
      o.warmup = (int)num(1, 0);
      i++;
    } else if (!std::strcmp(a, "--seed")) {
      o.seed = (uint64_t)num(1);
      i++;
    } else if (!std::strcmp(a, "--samples")) {
      o.samples = (int)num(1);
      i++;
    } else if (!std::strcmp(a, "--cpu-full")) {
      o.cpu_full = (double)num(1);
      i++;
    } else if (!std::strcmp(a, "--no-cublas")) {
      o.cublas = false;
    } else {
      usage(argv[0]);
    }
  }
  if (o.M.empty())
    for (int s : {256, 1024, 4096}) {
      o.M.push_back(s);
      o.N.push_back(s);
      o.K.push_back(s);
    }
  return o;
}

static int run(int argc, char **argv) {
  Opts o = parse(argc, argv);
  int dev = 0;
  cudaDeviceProp prop;
  TWILL_CK(cudaGetDevice(&dev));
  TWILL_CK(cudaGetDeviceProperties(&prop, dev));
  if (prop.major != 9 || prop.minor != 0) {
    std::fprintf(stderr, "%s needs an sm_90a GPU (Hopper); this is %s (sm_%d%d)\n",
                 twill_gemm::kName, prop.name, prop.major, prop.minor);
    return 2;
  }
  encode_fn enc = get_encoder();
  Cublas cb;
  bool have_cb = o.cublas && cb.load();
  TWILL_CK(cudaFuncSetAttribute(twill_gemm::kernel,
                                cudaFuncAttributeMaxDynamicSharedMemorySize,
                                twill_gemm::kSmemBytes));
  std::printf("# %s: tile %dx%dx%d, %d-stage ring, %d threads, %d bytes of shared memory\n",
              twill_gemm::kName, twill_gemm::kBM, twill_gemm::kBN, twill_gemm::kBK,
              twill_gemm::kStages, twill_gemm::kThreads, twill_gemm::kSmemBytes);
  std::printf("# schedule: I = %d, L = %d (cycles), C = %d copies in flight\n",
              twill_gemm::kII, twill_gemm::kLength, twill_gemm::kCopies);
  std::printf("# device: %s, %d SMs; peer: %s; seed %llu; median of %d launches after %d\n",
              prop.name, prop.multiProcessorCount, have_cb ? cb.name : "none (cuBLAS not loaded)",
              (unsigned long long)o.seed, o.reps, o.warmup);
  std::printf("%-18s %-8s %10s %10s %10s %17s %9s %9s %9s %7s %s\n", "M x N x K", "ref",
              "max|err|", "max|ref|", "rel_fro", "cublas:fro/max", "ms", "TFLOP/s", "cuBLAS",
              "ratio", "check");
  int failed = 0;
  uint64_t seed = o.seed;
  for (size_t t = 0; t < o.M.size(); t++) {
    const int M = o.M[t], N = o.N[t], K = o.K[t];
    const int n_iter = (K + twill_gemm::kBK - 1) / twill_gemm::kBK;
    if (K % 8 || N % 8 || n_iter < twill_gemm::kCopies - 1) {
      std::fprintf(stderr, "%dx%dx%d: K and N must be multiples of 8 (TMA strides, bf16x2 "
                           "stores) and K at least %d\n",
                   M, N, K, (twill_gemm::kCopies - 1) * twill_gemm::kBK);
      failed = 1;
      continue;
    }
    std::vector<uint16_t> ha, hb;
    std::vector<float> fa, fb;
    fill(ha, fa, (size_t)M * K, seed);
    fill(hb, fb, (size_t)N * K, seed);
    void *dA, *dB, *dC, *dR = nullptr;
    size_t cbytes = (size_t)M * N * 2;
    TWILL_CK(cudaMalloc(&dA, ha.size() * 2));
    TWILL_CK(cudaMalloc(&dB, hb.size() * 2));
    TWILL_CK(cudaMalloc(&dC, cbytes));
    if (have_cb) TWILL_CK(cudaMalloc(&dR, cbytes));
    TWILL_CK(cudaMemcpy(dA, ha.data(), ha.size() * 2, cudaMemcpyHostToDevice));
    TWILL_CK(cudaMemcpy(dB, hb.data(), hb.size() * 2, cudaMemcpyHostToDevice));
    CUtensorMap tA = tensor_map(enc, dA, M, K, twill_gemm::kBM);
    CUtensorMap tB = tensor_map(enc, dB, N, K, twill_gemm::kBN);
    twill_gemm::Params p;
    p.M = M;
    p.N = N;
    p.K = K;
    p.n_iter = n_iter;
    p.tiles_m = (M + twill_gemm::kBM - 1) / twill_gemm::kBM;
    p.tiles_n = (N + twill_gemm::kBN - 1) / twill_gemm::kBN;
    p.tiles = p.tiles_m * p.tiles_n;
    p.C = (__nv_bfloat16 *)dC;
    // persistent: one CTA per SM at most, each walks tiles blockIdx.x + k*gridDim.x
    const int grid = std::min(p.tiles, prop.multiProcessorCount);
    auto launch = [&]() {
      twill_gemm::kernel<<<grid, twill_gemm::kThreads, twill_gemm::kSmemBytes>>>(tA, tB, p);
    };
    TWILL_CK(cudaMemset(dC, 0xFF, cbytes));
    launch();
    TWILL_CK(cudaGetLastError());
    TWILL_CK(cudaDeviceSynchronize());
    std::vector<uint16_t> hc((size_t)M * N), hr;
    TWILL_CK(cudaMemcpy(hc.data(), dC, cbytes, cudaMemcpyDeviceToHost));
    // every entry written (the poison is NaN)
    Errors written;
    for (size_t i = 0; i < hc.size(); i++)
      if (!std::isfinite(bf16_float(hc[i]))) written.bad++;
    // CPU reference in double
    Errors cpu;
    auto ref = [&](int m, int n) {
      const float *a = &fa[(size_t)m * K], *b = &fb[(size_t)n * K];
      double s = 0;
      for (int k = 0; k < K; k++) s += (double)a[k] * (double)b[k];
      return s;
    };
    bool full = (double)M * N * K <= o.cpu_full;
    if (full) {
      for (int m = 0; m < M; m++)
        for (int n = 0; n < N; n++) cpu.add(bf16_float(hc[(size_t)m * N + n]), ref(m, n));
    } else {
      uint64_t ss = o.seed * 7919 + t;
      int corner_m[4] = {0, 0, M - 1, M - 1}, corner_n[4] = {0, N - 1, 0, N - 1};
      for (int c = 0; c < 4; c++)
        cpu.add(bf16_float(hc[(size_t)corner_m[c] * N + corner_n[c]]), ref(corner_m[c], corner_n[c]));
      for (int s = 0; s < o.samples; s++) {
        int m = (int)(next_u64(ss) % (uint64_t)M), n = (int)(next_u64(ss) % (uint64_t)N);
        cpu.add(bf16_float(hc[(size_t)m * N + n]), ref(m, n));
      }
    }
    // cuBLAS: every entry
    Errors vs;
    double ms_cb = 0;
    if (have_cb) {
      TWILL_CK(cudaMemset(dR, 0xFF, cbytes));
      if (cb.run(dA, dB, dR, M, N, K)) {
        std::fprintf(stderr, "cublasGemmEx failed\n");
        have_cb = false;
      } else {
        TWILL_CK(cudaDeviceSynchronize());
        hr.resize(hc.size());
        TWILL_CK(cudaMemcpy(hr.data(), dR, cbytes, cudaMemcpyDeviceToHost));
        for (size_t i = 0; i < hc.size(); i++) vs.add(bf16_float(hc[i]), bf16_float(hr[i]));
      }
    }
    double ms = median_ms(launch, o.warmup, o.reps);
    if (have_cb) ms_cb = median_ms([&]() { cb.run(dA, dB, dR, M, N, K); }, o.warmup, o.reps);
    const double flop = 2.0 * M * N * K;
    const double tf = flop / (ms * 1e-3) / 1e12, tf_cb = ms_cb > 0 ? flop / (ms_cb * 1e-3) / 1e12 : 0;
    bool ok = written.bad == 0 && cpu.ok();
    if (!ok) failed = 1;
    // cuBLAS's own output must be complete too (else the comparison is void)
    if (have_cb && vs.bad) {
      std::printf("  cuBLAS: %ld of %zu entries NaN or unwritten (in either output)\n", vs.bad,
                  hc.size());
      ok = false;
      failed = 1;
    }
    char size[32], vcb[24], cbs[16], ratio[16];
    std::snprintf(size, sizeof size, "%dx%dx%d", M, N, K);
    std::snprintf(vcb, sizeof vcb, "%.2e/%.1e", vs.rel_fro(), vs.max_abs);
    std::snprintf(cbs, sizeof cbs, "%.1f", tf_cb);
    std::snprintf(ratio, sizeof ratio, "%.3f", tf_cb > 0 ? tf / tf_cb : 0.0);
    std::printf("%-18s %-8s %10.3e %10.3e %10.3e %17s %9.4f %9.1f %9s %7s %s\n", size,
                full ? "cpu-all" : "cpu-smp", cpu.max_abs, cpu.max_ref, cpu.rel_fro(),
                have_cb ? vcb : "-", ms, tf, have_cb ? cbs : "-", have_cb ? ratio : "-",
                ok ? "ok" : "FAIL");
    if (written.bad)
      std::printf("  %ld of %zu entries unwritten or NaN\n", written.bad, hc.size());
    std::fflush(stdout);
    TWILL_CK(cudaFree(dA));
    TWILL_CK(cudaFree(dB));
    TWILL_CK(cudaFree(dC));
    if (dR) TWILL_CK(cudaFree(dR));
  }
  return failed;
}

}  // namespace twill_host

#ifndef TWILL_NO_MAIN
int main(int argc, char **argv) { return twill_host::run(argc, argv); }
#endif
