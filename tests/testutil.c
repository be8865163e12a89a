/* tests/testutil.c: file and process helpers for the Check suites. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>

static char *join(const char *env, const char *dflt, const char *rel) {
  const char *base = getenv(env);
  if (!base || !*base) base = dflt;
  size_t n = strlen(base) + strlen(rel) + 2;
  char *p = malloc(n);
  if (p) snprintf(p, n, "%s/%s", base, rel);
  return p;
}

char *tu_src_path(const char *rel) { return join("TWILL_SRC", ".", rel); }
/* The test data tree: tests/data as `make` unpacks it (instances are stored
 * gzip-compressed under tests/data/suites). */
char *tu_data_path(const char *rel) {
  return join("TWILL_DATA", "build/data", rel);
}

const char *tu_data_where(const char *rel) {
  static char buf[1024];
  char *p = tu_data_path(rel);
  snprintf(buf, sizeof buf, "%s", p ? p : rel);
  free(p);
  return buf;
}

int tu_load_kernel(const char *kernel, const char *arch, twill_graph **g,
                   twill_arch **m) {
  twill_diag d;
  memset(&d, 0, sizeof d);
  if (twill_kernel_load(kernel, arch, g, m, &d) == 0) return 0;
  twill_diag_print(&d, stderr);
  return -1;
}

int tu_under_valgrind(void) {
  const char *v = getenv("TWILL_VALGRIND");
  return v && *v == '1';
}

/* gcc defines __SANITIZE_ADDRESS__ under -fsanitize=address; clang answers
 * __has_feature(address_sanitizer) */
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TU_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) && !defined(TU_ASAN)
#define TU_ASAN 1
#endif
#ifndef TU_ASAN
#define TU_ASAN 0
#endif

int tu_under_sanitizer(void) { return TU_ASAN; }

char *tu_read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 4096, n = 0;
  char *buf = malloc(cap + 1);
  while (buf) {
    size_t got = fread(buf + n, 1, cap - n, f);
    n += got;
    if (n < cap) break;
    char *nb = realloc(buf, 2 * cap + 1);
    if (!nb) { free(buf); buf = NULL; break; }
    buf = nb;
    cap *= 2;
  }
  fclose(f);
  if (!buf) return NULL;
  buf[n] = 0;
  if (len) *len = n;
  return buf;
}

static char *slurp_fd(int fd) {
  size_t cap = 4096, n = 0;
  char *buf = malloc(cap + 1);
  if (!buf) return NULL;
  for (;;) {
    if (n == cap) {
      char *nb = realloc(buf, 2 * cap + 1);
      if (!nb) { free(buf); return NULL; }
      buf = nb;
      cap *= 2;
    }
    ssize_t got = read(fd, buf + n, cap - n);
    if (got <= 0) break;
    n += (size_t)got;
  }
  buf[n] = 0;
  return buf;
}

static int run_twill(char **out, char **err, const char *const *args,
                     const char *in) {
  const char *bin = getenv("TWILL_BIN");
  if (!bin || !*bin) bin = "bin/twill";
  char outp[] = "/tmp/twill-test-out-XXXXXX";
  char errp[] = "/tmp/twill-test-err-XXXXXX";
  int fo = mkstemp(outp), fe = mkstemp(errp);
  if (fo < 0 || fe < 0) return -1;
  pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    int nul = open(in ? in : "/dev/null", O_RDONLY);
    if (in && nul < 0) _exit(127);
    if (nul >= 0) dup2(nul, 0);
    dup2(fo, 1);
    dup2(fe, 2);
    int argc = 0;
    while (args[argc]) argc++;
    char **argv = calloc((size_t)argc + 2, sizeof *argv);
    if (!argv) _exit(127);
    argv[0] = (char *)bin;
    for (int i = 0; i < argc; i++) argv[i + 1] = (char *)args[i];
    execv(bin, argv);
    _exit(127);
  }
  int st = 0;
  waitpid(pid, &st, 0);
  lseek(fo, 0, SEEK_SET);
  lseek(fe, 0, SEEK_SET);
  char *o = slurp_fd(fo), *e = slurp_fd(fe);
  close(fo);
  close(fe);
  unlink(outp);
  unlink(errp);
  if (out) *out = o; else free(o);
  if (err) *err = e; else free(e);
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

int tu_run_twill(char **out, char **err, const char *const *args) {
  return run_twill(out, err, args, NULL);
}

int tu_run_twill_stdin(char **out, char **err, const char *const *args,
                       const char *in) {
  return run_twill(out, err, args, in);
}

int tu_write_file(const char *path, const char *text) {
  FILE *f = fopen(path, "wb");
  if (!f) return -1;
  size_t n = strlen(text);
  int bad = fwrite(text, 1, n, f) != n;
  if (fclose(f)) bad = 1;
  return bad ? -1 : 0;
}

/* ---- nvcc ------------------------------------------------------------------ */

const char *tu_find_nvcc(void) {
  static char path[512];
  const char *env = getenv("NVCC");
  if (env && *env && !access(env, X_OK)) return env;
  const char *pth = getenv("PATH");
  while (pth && *pth) {
    const char *c = strchr(pth, ':');
    size_t n = c ? (size_t)(c - pth) : strlen(pth);
    snprintf(path, sizeof path, "%.*s/nvcc", (int)n, pth);
    if (n && !access(path, X_OK)) return path;
    pth = c ? c + 1 : NULL;
  }
  if (!access("/usr/local/cuda/bin/nvcc", X_OK)) return "/usr/local/cuda/bin/nvcc";
  return NULL;
}

int tu_nvcc_compile(const char *text, const char *tag, const char *flags,
                    char **log_out) {
  if (log_out) *log_out = NULL;
  const char *nvcc = tu_find_nvcc();
  if (!nvcc) {
    fprintf(stderr, "%s: nvcc not found, CUDA compile check skipped\n", tag);
    return 1;
  }
  if (tu_under_valgrind()) return 1;
  char dir[] = "/tmp/twill_cuda_XXXXXX";
  if (!mkdtemp(dir)) return -1;
  char src[64], obj[64], log[64], cmd[2048];
  snprintf(src, sizeof src, "%s/k.cu", dir);
  snprintf(obj, sizeof obj, "%s/k.o", dir);
  snprintf(log, sizeof log, "%s/log", dir);
  FILE *f = fopen(src, "w");
  if (!f) return -1;
  fputs(text, f);
  fclose(f);
  snprintf(cmd, sizeof cmd, "'%s' -std=c++17 %s -c '%s' -o '%s' > '%s' 2>&1", nvcc,
           flags, src, obj, log);
  int rc = system(cmd);
  size_t n;
  char *l = tu_read_file(log, &n);
  if (rc) fprintf(stderr, "%s: nvcc %s failed:\n%s\n", tag, flags, l ? l : "");
  if (log_out) *log_out = l;
  else free(l);
  unlink(src);
  unlink(obj);
  unlink(log);
  rmdir(dir);
  return rc ? -1 : 0;
}
