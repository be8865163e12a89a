/* tests/test_schedule.c: the validator accepts a hand-made legal schedule
 * and rejects one broken in each way, naming the constraint. */
#include <string.h>

#include "check_main.h"
#include "fixtures.h"
#include "twill/arch.h"
#include "twill/schedule.h"

/* fig1 (Twill paper, Fig. 1) with I = 2, M = {S:0, P:2, O:3}:
 *   S->P: 2 - 0 = 2 >= 1 - 2*0 = 1        ok
 *   P->O: 3 - 2 = 1 >= 1                  ok
 *   O->O: 0 >= 1 - 2*1 = -1               ok
 *   TC slots: S at 0 mod 2 = 0, O at 3 mod 2 = 1: one each, cap 1   ok
 *   EXP: P at slot 0, cap 1                                         ok */
static twill_graph *fig1(void) { return tf_fig1(); }

static twill_schedule *fig1_sched(void) {
  twill_schedule *s = twill_schedule_new(3, 2);
  s->start[0] = 0;
  s->start[1] = 2;
  s->start[2] = 3;
  return s;
}

START_TEST(legal_schedule_accepted) {
  twill_graph *g = fig1();
  twill_schedule *s = fig1_sched();
  char why[256] = "";
  ck_assert_msg(twill_schedule_validate(g, NULL, s, why, sizeof why) == 0,
                "%s", why);
  ck_assert_int_eq(twill_schedule_length(g, s), 4); /* O ends at 3 + 1 */
  twill_schedule_free(s);
  twill_graph_free(g);
}
END_TEST

static void expect_reject(twill_graph *g, const twill_arch *m,
                          twill_schedule *s, const char *needle) {
  char why[256] = "";
  ck_assert_int_eq(twill_schedule_validate(g, m, s, why, sizeof why), -1);
  ck_assert_msg(strstr(why, needle), "reason '%s' lacks '%s'", why, needle);
}

START_TEST(dependence_violation_named) {
  twill_graph *g = fig1();
  twill_schedule *s = fig1_sched();
  s->start[1] = 0; /* P before S finishes; P->O still ok? 3-0 >= 1 yes */
  expect_reject(g, NULL, s,
                "dependence S -> P (lat 1, dist 0) violated: t(P) - t(S) = "
                "0 < 1 - 2*0 = 1");
  twill_schedule_free(s);
  twill_graph_free(g);
}
END_TEST

START_TEST(recurrence_violation_named) {
  twill_graph *g = fig1();
  twill_schedule *s = fig1_sched();
  g->edges[2].lat = 4; /* O->O needs 0 >= 4 - 2 = 2 */
  expect_reject(g, NULL, s, "dependence O -> O (lat 4, dist 1) violated");
  twill_schedule_free(s);
  twill_graph_free(g);
}
END_TEST

START_TEST(capacity_violation_named) {
  twill_graph *g = fig1();
  twill_schedule *s = fig1_sched();
  s->start[2] = 4; /* O at slot 0 with S: TC holds 2 > 1 */
  expect_reject(g, NULL, s, "unit 'TC' holds 2 instances in slot 0");
  twill_schedule_free(s);
  twill_graph_free(g);
}
END_TEST

START_TEST(negative_start_and_bad_ii) {
  twill_graph *g = fig1();
  twill_schedule *s = fig1_sched();
  s->start[0] = -1;
  expect_reject(g, NULL, s, "op 'S' starts at -1 < 0");
  s->start[0] = 0;
  s->ii = 0;
  expect_reject(g, NULL, s, "initiation interval 0 < 1");
  twill_schedule_free(s);
  twill_graph_free(g);
}
END_TEST

/* A use longer than I wraps around every slot: a 5-cycle use at I = 2
 * holds 2 instances in its first slot and 2 in the other... exactly:
 * cycles 0..4 fall in slots 0,1,0,1,0 -> slot 0: 3, slot 1: 2. */
START_TEST(long_use_wraps_around) {
  twill_graph *g = twill_graph_new("wrap");
  int u = twill_graph_declare_unit(g, "U", 3);
  int a = twill_graph_add_op(g, "a", 5);
  twill_graph_add_use(g, a, u, 0, 5, 1);
  twill_schedule *s = twill_schedule_new(1, 2);
  char why[256] = "";
  ck_assert_msg(twill_schedule_validate(g, NULL, s, why, sizeof why) == 0,
                "%s", why);
  g->units[u].capacity = 2;
  expect_reject(g, NULL, s, "unit 'U' holds 3 instances in slot 0");
  s->start[0] = 1; /* now slot 1 gets 3 */
  expect_reject(g, NULL, s, "holds 3 instances in slot 1");
  twill_schedule_free(s);
  twill_graph_free(g);
}
END_TEST

START_TEST(warp_checks) {
  twill_graph *g = fig1();
  twill_arch *m = twill_arch_new("test");
  m->warps = 8;
  m->warpgroup = 4;
  twill_schedule *s = fig1_sched();
  twill_schedule_add_warps(s);
  s->warp[0] = 0;
  s->warp[1] = 0;
  s->warp[2] = 0;
  char why[256] = "";
  ck_assert_msg(twill_schedule_validate(g, m, s, why, sizeof why) == 0, "%s",
                why);
  s->warp[1] = 8;
  expect_reject(g, m, s, "op 'P' is on warp 8, outside [0, 8)");
  s->warp[1] = 1;
  g->ops[0].issue = TWILL_ISSUE_WARPGROUP;
  s->warp[0] = 2;
  expect_reject(g, m, s, "op 'S' needs a whole warpgroup but starts at warp 2");
  s->warp[0] = 0;
  g->ops[1].varlat = true; /* P on warp 1, inside S's warpgroup 0-3 */
  expect_reject(g, m, s,
                "variable-latency op 'P' shares warp 1 with fixed-latency op "
                "'S'");
  s->warp[1] = 4;
  ck_assert_msg(twill_schedule_validate(g, m, s, why, sizeof why) == 0, "%s",
                why);
  twill_schedule_free(s);
  twill_arch_free(m);
  twill_graph_free(g);
}
END_TEST

static Suite *make_suite(void) {
  Suite *s = suite_create("schedule");
  TCase *tc = tcase_create("validator");
  tcase_add_test(tc, legal_schedule_accepted);
  tcase_add_test(tc, dependence_violation_named);
  tcase_add_test(tc, recurrence_violation_named);
  tcase_add_test(tc, capacity_violation_named);
  tcase_add_test(tc, negative_start_and_bad_ii);
  tcase_add_test(tc, long_use_wraps_around);
  tcase_add_test(tc, warp_checks);
  suite_add_tcase(s, tc);
  return s;
}

TWILL_CHECK_MAIN
