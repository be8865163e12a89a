/* tests/test_arch.c: machine descriptions: the built-ins, print-then-parse,
 * and malformed .arch files with their exact messages. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "twill/arch.h"

/* The built-in figures, each checked against its source:
 * hopper: 12 warps (3 warpgroups, FA3), 240 regs/consumer thread
 * (FA3's consumers), smem 227 KB = 232448 B per block, wgmma by a warpgroup;
 * blackwell: 16 warps (FA4), 65536 / 512 threads = 128 regs, TMEM 512
 * columns, tcgen05.mma by one thread. */
START_TEST(builtins_load) {
  twill_diag d;
  twill_arch *h = twill_arch_load("hopper", &d);
  ck_assert_ptr_nonnull(h);
  ck_assert_str_eq(h->name, "hopper");
  ck_assert_int_eq(twill_arch_unit_cap(h, "TC"), 1);
  ck_assert_int_eq(twill_arch_unit_cap(h, "EXP"), 1);
  ck_assert_int_eq(h->warps, 12);
  ck_assert_int_eq(h->warpgroup, 4);
  ck_assert_int_eq(h->reg_budget, 240);
  ck_assert_int_eq(h->regs_per_sm, 65536);
  ck_assert_int_eq(h->max_regs_thread, 255);
  ck_assert_int_eq(twill_arch_mem_cap(h, "smem"), 232448);
  ck_assert_int_eq(twill_arch_mem_cap(h, "tmem"), -1);
  ck_assert_int_eq(h->mma_issue, TWILL_ISSUE_WARPGROUP);
  /* FA3's register split fills the file exactly: 2*128*240 + 128*32 */
  ck_assert_int_eq(2 * 128 * h->reg_budget + 128 * 32, h->regs_per_sm);
  twill_arch *b = twill_arch_load("blackwell", &d);
  ck_assert_ptr_nonnull(b);
  ck_assert_int_eq(b->warps, 16);
  ck_assert_int_eq(b->reg_budget * b->warps * 32, b->regs_per_sm);
  ck_assert_int_eq(twill_arch_mem_cap(b, "tmem"), 512);
  ck_assert_int_eq(b->mma_issue, TWILL_ISSUE_THREAD);
  ck_assert_int_eq(twill_arch_builtin_count(), 2);
  twill_arch_free(h);
  twill_arch_free(b);
}
END_TEST

START_TEST(print_then_parse_is_identity) {
  for (int i = 0; i < twill_arch_builtin_count(); i++) {
    twill_diag d;
    twill_arch *m = twill_arch_load(twill_arch_builtin_name(i), &d);
    ck_assert_ptr_nonnull(m);
    char *buf = NULL, *buf2 = NULL;
    size_t len = 0, len2 = 0;
    FILE *f = open_memstream(&buf, &len);
    ck_assert_int_eq(twill_arch_print(m, f), 0);
    fclose(f);
    twill_arch *m2 = twill_arch_parse(buf, len, "printed", &d);
    ck_assert_msg(m2 != NULL, "%s:%d:%d: %s", d.file, d.line, d.col, d.msg);
    f = open_memstream(&buf2, &len2);
    twill_arch_print(m2, f);
    fclose(f);
    ck_assert_str_eq(buf, buf2);
    ck_assert_int_eq(m2->nunits, m->nunits);
    ck_assert_int_eq(m2->reg_budget, m->reg_budget);
    free(buf);
    free(buf2);
    twill_arch_free(m);
    twill_arch_free(m2);
  }
}
END_TEST

static const struct {
  const char *text;
  const char *msg;
} bad[] = {
    {"", "m.arch:1:1: missing 'arch NAME' line (empty machine file)"},
    {"# only a comment\n", "m.arch:2:1: missing 'arch NAME' line (empty machine file)"},
    {"unit TC 1\n", "m.arch:1:1: expected 'arch NAME' first, got 'unit'"},
    {"arch\n", "m.arch:1:5: 'arch' needs 1 value"},
    {"arch h x\n", "m.arch:1:8: unexpected 'x' after 'arch'"},
    {"arch h\nunit TC\n", "m.arch:2:8: 'unit' needs 2 values"},
    {"arch h\nunit TC one\n", "m.arch:2:9: expected an integer for a unit capacity, got 'one'"},
    {"arch h\nunit TC 0\n", "m.arch:2:9: a unit capacity must be in [1, 1000000], got 0"},
    {"arch h\nunit TC 1\nunit TC 2\n", "m.arch:3:6: unit 'TC' declared twice"},
    {"arch h\nwarps 99999999999999999999\n",
     "m.arch:2:7: warps must be in [1, 64], got 99999999999999999999"},
    {"arch h\nwarps 65\n", "m.arch:2:7: warps must be in [1, 64], got 65"},
    {"arch h\nfrobs 3\n", "m.arch:2:1: unknown key 'frobs'"},
    {"arch h\narch g\n", "m.arch:2:1: second 'arch' line"},
    {"arch h\nmma_issue lane\n", "m.arch:2:11: mma_issue must be thread, warp or warpgroup"},
    {"arch h\nsetmaxnreg 200 100 8\n", "m.arch:2:12: setmaxnreg needs low <= high and a step"},
    {"arch h\nunit T$C 1\n", "m.arch:2:7: bad character '$' in name"},
    {"arch h\nmemory smem -5\n",
     "m.arch:2:13: a memory capacity must be in [1, 1000000000000], got -5"},
    {"arch h\nreg_budget 300\n", "m.arch:2:12: reg_budget 300 exceeds max_regs_thread 255"},
    {"arch h\nunit TC 1 \x01\n", "m.arch:2:11: unexpected byte 0x01"},
    {"arch h\na b c d e f g h i\n", "m.arch:2:17: too many fields"},
};

START_TEST(malformed_files_are_reported) {
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    twill_diag d;
    memset(&d, 0, sizeof d);
    twill_arch *m = twill_arch_parse(bad[i].text, strlen(bad[i].text),
                                     "m.arch", &d);
    ck_assert_msg(m == NULL, "case %zu parsed", i);
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    twill_diag_print(&d, f);
    fclose(f);
    out[strcspn(out, "\n")] = 0;
    ck_assert_msg(!strcmp(out, bad[i].msg), "case %zu: got '%s', want '%s'",
                  i, out, bad[i].msg);
    free(out);
  }
}
END_TEST

START_TEST(unknown_machine_is_an_error) {
  twill_diag d;
  ck_assert_ptr_null(twill_arch_load("/nonexistent/volta.arch", &d));
  ck_assert_ptr_nonnull(strstr(d.msg, "not a built-in machine"));
}
END_TEST

static Suite *make_suite(void) {
  Suite *s = suite_create("arch");
  TCase *tc = tcase_create("arch");
  tcase_add_test(tc, builtins_load);
  tcase_add_test(tc, print_then_parse_is_identity);
  tcase_add_test(tc, malformed_files_are_reported);
  tcase_add_test(tc, unknown_machine_is_an_error);
  suite_add_tcase(s, tc);
  return s;
}

TWILL_CHECK_MAIN
