/* tests/testutil.c: file and process helpers for the Check suites. */
/* posix_openpt, grantpt, unlockpt, ptsname: XSI, beside the POSIX base the
 * Makefile asks for */
#define _XOPEN_SOURCE 700
#include "testutil.h"

#include <errno.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <fcntl.h>
#include <poll.h>
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

const char *tu_scratch(const char *name) {
  static struct {
    const char *name;
    char path[256];
  } seen[32];
  static int n;
  for (int i = 0; i < n; i++)
    if (!strcmp(seen[i].name, name)) return seen[i].path;
  if (n == (int)(sizeof seen / sizeof *seen)) {
    fprintf(stderr, "tu_scratch: more than %d names\n", n);
    abort();
  }
  seen[n].name = name;
  snprintf(seen[n].path, sizeof seen[n].path, "/tmp/%s.%d", name, (int)getpid());
  return seen[n++].path;
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

/* in == NULL: standard input is /dev/null. */
static int run_twill(const char *in, size_t len, char **out, char **err,
                     const char *const *args) {
  const char *bin = getenv("TWILL_BIN");
  if (!bin || !*bin) bin = "bin/twill";
  char outp[] = "/tmp/twill-test-out-XXXXXX";
  char errp[] = "/tmp/twill-test-err-XXXXXX";
  char inp[] = "/tmp/twill-test-in-XXXXXX";
  int fo = mkstemp(outp), fe = mkstemp(errp), fi = -1;
  if (fo < 0 || fe < 0) return -1;
  if (in) {
    fi = mkstemp(inp);
    if (fi < 0 || write(fi, in, len) != (ssize_t)len) return -1;
    lseek(fi, 0, SEEK_SET);
    unlink(inp);
  }
  /* a loaded machine (or a sanitized test process) may refuse a fork for
   * a moment: try again before calling it a failure, and say so */
  pid_t pid = -1;
  for (int tries = 0; tries < 5 && pid < 0; tries++) {
    pid = fork();
    if (pid < 0 && errno != EAGAIN && errno != ENOMEM) break;
    if (pid < 0) {
      struct timespec pause = {0, 200000000};
      nanosleep(&pause, NULL);
    }
  }
  if (pid < 0) {
    fprintf(stderr, "tu_run_twill: fork: %s\n", strerror(errno));
    if (out) *out = calloc(1, 1);
    if (err) *err = calloc(1, 1);
    return -1;
  }
  if (pid == 0) {
    int nul = in ? fi : open("/dev/null", O_RDONLY);
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
  while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
  }
  if (WIFSIGNALED(st))
    fprintf(stderr, "tu_run_twill: %s %s was killed by signal %d\n", bin,
            args[0] ? args[0] : "", WTERMSIG(st));
  if (fi >= 0) close(fi);
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
  return run_twill(NULL, 0, out, err, args);
}

int tu_run_twill_in(const char *in, size_t len, char **out, char **err,
                    const char *const *args) {
  return run_twill(in ? in : "", len, out, err, args);
}

int tu_run_twill_stdin(char **out, char **err, const char *const *args,
                       const char *in) {
  size_t n = 0;
  char *text = tu_read_file(in, &n);
  if (!text) return -1;
  int rc = tu_run_twill_in(text, n, out, err, args);
  free(text);
  return rc;
}

int tu_write_file(const char *path, const char *text) {
  FILE *f = fopen(path, "wb");
  if (!f) return -1;
  size_t n = strlen(text);
  int bad = fwrite(text, 1, n, f) != n;
  if (fclose(f)) bad = 1;
  return bad ? -1 : 0;
}

int tu_run_twill_tty(char **out, char **tty, const char *const *args) {
  const char *bin = getenv("TWILL_BIN");
  if (!bin || !*bin) bin = "bin/twill";
  int master = posix_openpt(O_RDWR | O_NOCTTY);
  if (master < 0 || grantpt(master) || unlockpt(master)) return -1;
  const char *sname = ptsname(master);
  int slave = sname ? open(sname, O_RDWR | O_NOCTTY) : -1;
  char outp[] = "/tmp/twill-test-out-XXXXXX";
  int fo = mkstemp(outp);
  if (slave < 0 || fo < 0) return -1;
  pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    int nul = open("/dev/null", O_RDONLY);
    if (nul >= 0) dup2(nul, 0);
    dup2(fo, 1);
    dup2(slave, 2);
    close(master);
    int argc = 0;
    while (args[argc]) argc++;
    char **argv = calloc((size_t)argc + 2, sizeof *argv);
    if (!argv) _exit(127);
    argv[0] = (char *)bin;
    for (int i = 0; i < argc; i++) argv[i + 1] = (char *)args[i];
    execv(bin, argv);
    _exit(127);
  }
  /* Read until the child has exited and the terminal holds nothing more.
   * The parent keeps its own end of the slave open: when the child's
   * close was the last, Linux may hang the terminal up (EIO) before the
   * child's last lines reach the master, and they were lost under load
   * (make check's two builds at once: "twill: I 2" missing once). */
  size_t cap = 4096, n = 0;
  char *t = malloc(cap + 1);
  int st = 0, exited = 0;
  for (;;) {
    if (t && n == cap) {
      char *nt = realloc(t, 2 * cap + 1);
      if (!nt) { free(t); t = NULL; }
      else { t = nt; cap *= 2; }
    }
    struct pollfd pf = {master, POLLIN, 0};
    int ready = poll(&pf, 1, exited ? 200 : 50);
    if (ready < 0 && errno == EINTR) continue;
    if (ready > 0) {
      char sink[256];
      ssize_t got = t ? read(master, t + n, cap - n) : read(master, sink, sizeof sink);
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) break;
      if (t) n += (size_t)got;
      continue;
    }
    if (exited) break; /* exited and 200 ms of quiet: all read */
    if (waitpid(pid, &st, WNOHANG) == pid) exited = 1;
  }
  if (t) t[n] = 0;
  close(slave);
  close(master);
  if (!exited) waitpid(pid, &st, 0);
  lseek(fo, 0, SEEK_SET);
  char *o = slurp_fd(fo);
  close(fo);
  unlink(outp);
  if (out) *out = o; else free(o);
  if (tty) *tty = t; else free(t);
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
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
