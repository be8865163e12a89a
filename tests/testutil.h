/* tests/testutil.h: helpers shared by the Check suites. */
#ifndef TWILL_TESTUTIL_H
#define TWILL_TESTUTIL_H

#include <stddef.h>

#include "twill/kernel.h"

/* Path helpers: $TWILL_SRC/rel, $TWILL_DATA/rel (static buffer per call
 * site is not used: the result is malloc'd, caller frees). */
char *tu_src_path(const char *rel);
char *tu_data_path(const char *rel);
/* $TWILL_DATA/rel in a static buffer, for failure messages. */
const char *tu_data_where(const char *rel);
/* twill_kernel_load, printing the diagnostic to stderr on failure. */
int tu_load_kernel(const char *kernel, const char *arch, twill_graph **g,
                   twill_arch **m);
/* Read a whole file; NULL if it cannot be read.  *len gets its size. */
char *tu_read_file(const char *path, size_t *len);
/* Run the twill program with the given arguments (NULL-terminated), stdin
 * from /dev/null, capturing stdout and stderr (malloc'd, caller frees).
 * Returns the exit status, or -1 if it could not be run. */
int tu_run_twill(char **out, char **err, const char *const *args);
/* The same with standard input reading the len bytes at in. */
int tu_run_twill_in(const char *in, size_t len, char **out, char **err,
                    const char *const *args);
/* The same with standard error on a pseudo-terminal (as when a person
 * runs it), what it wrote there in *tty; standard input /dev/null. */
int tu_run_twill_tty(char **out, char **tty, const char *const *args);
/* The same with standard input read from the file at path in (-1 when it
 * cannot be read). */
int tu_run_twill_stdin(char **out, char **err, const char *const *args,
                       const char *in);
/* Write text to path (created or truncated); 0 or -1. */
int tu_write_file(const char *path, const char *text);
/* "/tmp/NAME.PID": a scratch path of this test process, so that suites
 * of several builds (release, debug, sanitizer) or checkouts can run side
 * by side.  The same NAME gives the same pointer; it stays valid until
 * the process ends. */
const char *tu_scratch(const char *name);
/* 1 when running under valgrind (TWILL_VALGRIND=1). */
int tu_under_valgrind(void);
/* 1 when this test program was built with AddressSanitizer (make SAN=1). */
int tu_under_sanitizer(void);

/* Path of nvcc ($NVCC, else $PATH, else /usr/local/cuda/bin); NULL if
 * none. */
const char *tu_find_nvcc(void);
/* Compile CUDA text with `nvcc -std=c++17 FLAGS -c`: 0 compiled, 1 skipped
 * (no nvcc, or under valgrind; says so on stderr, naming tag), -1 failed
 * (nvcc's output on stderr).  log_out (may be NULL) gets nvcc's output,
 * malloc'd (NULL when skipped). */
int tu_nvcc_compile(const char *text, const char *tag, const char *flags,
                    char **log_out);

#endif
