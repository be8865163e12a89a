/* tests/check_main.h: the main() every Check suite shares.
 *
 * A suite file defines `static Suite *make_suite(void)` and ends with
 * TWILL_CHECK_MAIN.  Environment (set by `make check`):
 *   TWILL_BIN     path of the twill program (end-to-end tests)
 *   TWILL_SRC     the source tree (kernels/, tests/data/)
 *   TWILL_DATA    build/data: tests/data unpacked (suites/ holds the
 *                 vendored subsets of the external suites)
 *   TWILL_VALGRIND=1 under valgrind: suites may shrink their loops.
 */
#ifndef TWILL_CHECK_MAIN_H
#define TWILL_CHECK_MAIN_H

#include <check.h>
#include <stdlib.h>

#define TWILL_CHECK_MAIN                                                  \
  int main(void) {                                                        \
    SRunner *sr = srunner_create(make_suite());                           \
    srunner_run_all(sr, CK_NORMAL);                                       \
    int failed = srunner_ntests_failed(sr);                               \
    srunner_free(sr);                                                     \
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;                          \
  }

#endif
