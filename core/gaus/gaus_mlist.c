/* core/gaus/gaus_mlist.c: cycle-driven modulo list scheduling of a relaxation,
 * the first strategy of twill_gaus_legalize_modulo (core/gaus/gaus_legal.c).
 *
 * Why another legalizer: on large loops whose MII is set by a saturated
 * unit (every slot of the modulo reservation table used), the operation-
 * driven legalizers (Rau's IMS, the fixed-point placer) pick an op and
 * then look for a slot; once the table is nearly full the slot found is
 * far from the op's time, back edges (t_v - t_u <= d II - lat) break and
 * the evictions cycle until the budget is gone.  A cycle-driven list
 * scheduler fills the table in time order instead: at each cycle t, every
 * unit with room at t mod II takes the most urgent ready op that fits, so
 * the first revolution leaves no hole while ready ops exist.
 *
 * The rules, at each cycle t = 0, 1, 2, ...:
 *   ready      all distance-0 predecessors placed, and t >= rel(v), the
 *              largest t_a + lat - II dist over edges a -> v from placed
 *              ops a (forward edges and back edges alike);
 *   deadline   dl(v) = the least t_b - lat + II dist over edges v -> b to
 *              placed ops b (back edges whose head was placed first);
 *              a ready op past its deadline ends the attempt (-2);
 *   priority   key(v) = min(t0(v), dl(v)): the relaxation's time, or the
 *              deadline when that comes first (earliest deadline first
 *              among the urgent), ties by op index;
 *   placement  ops with the same reservation signature (capped uses) form
 *              a class; within a cycle the class whose best ready op has
 *              the least key goes first; an op that does not fit blocks
 *              its class for this cycle (every op of the class needs the
 *              same slots).
 * Every edge is checked when its second end is placed, so a completed
 * attempt is legal (the caller still runs twill_gaus_check).  The attempt
 * fails when nothing was placed or released for II + (longest use) cycles
 * (the table is periodic: nothing will change) or a deadline is missed.
 *
 * Work: O((n + e) log n + T K) for T cycles and K classes.  Deterministic:
 * no clocks, no threads, ties by index.
 */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

#include "gaus_priv.h"

/* ---- a binary heap of (k1, k2, v, stamp) -------------------------------- */

typedef struct hent {
  long k1, k2;
  int v, stamp;
} hent;

typedef struct mheap {
  hent *a;
  int n, cap;
} mheap;

static int hlt(const hent *x, const hent *y) {
  if (x->k1 != y->k1) return x->k1 < y->k1;
  if (x->k2 != y->k2) return x->k2 < y->k2;
  return x->v < y->v;
}

static int mh_push(mheap *h, hent e) {
  if (h->n == h->cap) {
    int c = h->cap ? 2 * h->cap : 16;
    hent *a = realloc(h->a, (size_t)c * sizeof *a);
    if (!a) return -1;
    h->a = a;
    h->cap = c;
  }
  int i = h->n++;
  while (i > 0 && hlt(&e, &h->a[(i - 1) / 2])) {
    h->a[i] = h->a[(i - 1) / 2];
    i = (i - 1) / 2;
  }
  h->a[i] = e;
  return 0;
}

static void mh_pop(mheap *h) {
  if (--h->n == 0) return;
  hent last = h->a[h->n];
  int i = 0;
  for (;;) {
    int l = 2 * i + 1, r = l + 1, b = -1;
    const hent *best = &last;
    if (l < h->n && hlt(&h->a[l], best)) b = l, best = &h->a[l];
    if (r < h->n && hlt(&h->a[r], best)) b = r;
    if (b < 0) break;
    h->a[i] = h->a[b];
    i = b;
  }
  h->a[i] = last;
}

/* ---- reservation ------------------------------------------------------- */

static long lmod(long a, long m) {
  long r = a % m;
  return r < 0 ? r + m : r;
}

/* Does op i fit at t on top of mrt?  Its own uses are summed first (they
 * may share a slot); tmp (units x ii) is zero on entry and exit. */
static int fits(const twill_gaus_problem *p, const double *mrt, double *tmp,
                long ii, int i, long t) {
  int ok = 1;
  for (int pass = 0; pass < 3; pass++)
    for (int u = p->uoff[i]; u < p->uoff[i + 1]; u++) {
      int r = p->uunit[u];
      if (p->cap[r] <= 0) continue;
      for (int c = 0; c < p->ucycles[u]; c++) {
        size_t k = (size_t)r * (size_t)ii + (size_t)lmod(t + p->uoffset[u] + c, ii);
        if (pass == 0)
          tmp[k] += p->ucount[u];
        else if (pass == 1 && tmp[k] > 0 && mrt[k] + tmp[k] > p->cap[r] + 1e-9)
          ok = 0;
        else if (pass == 2)
          tmp[k] = 0;
      }
    }
  return ok;
}

static void reserve(const twill_gaus_problem *p, double *mrt, long ii, int i,
                    long t) {
  for (int u = p->uoff[i]; u < p->uoff[i + 1]; u++)
    for (int c = 0; c < p->ucycles[u]; c++)
      mrt[(size_t)p->uunit[u] * (size_t)ii +
          (size_t)lmod(t + p->uoffset[u] + c, ii)] += p->ucount[u];
}

/* ---- classes: ops with the same capped uses ----------------------------- */

static uint64_t sig_hash(const twill_gaus_problem *p, int i) {
  uint64_t h = 0x9E3779B97F4A7C15ULL;
  for (int u = p->uoff[i]; u < p->uoff[i + 1]; u++) {
    if (p->cap[p->uunit[u]] <= 0) continue;
    uint64_t x = (uint64_t)p->uunit[u] * 1000003ULL ^ (uint64_t)p->uoffset[u] << 20 ^
                 (uint64_t)p->ucycles[u] << 40;
    double c = p->ucount[u];
    uint64_t cb;
    memcpy(&cb, &c, sizeof cb);
    h = (h ^ x ^ cb) * 0xBF58476D1CE4E5B9ULL;
    h ^= h >> 29;
  }
  return h;
}

static int same_sig(const twill_gaus_problem *p, int i, int j) {
  int a = p->uoff[i], b = p->uoff[j];
  for (;;) {
    while (a < p->uoff[i + 1] && p->cap[p->uunit[a]] <= 0) a++;
    while (b < p->uoff[j + 1] && p->cap[p->uunit[b]] <= 0) b++;
    int ea = a == p->uoff[i + 1], eb = b == p->uoff[j + 1];
    if (ea || eb) return ea && eb;
    if (p->uunit[a] != p->uunit[b] || p->uoffset[a] != p->uoffset[b] ||
        p->ucycles[a] != p->ucycles[b] || p->ucount[a] != p->ucount[b])
      return 0;
    a++, b++;
  }
}

/* cls[i] = class of op i (0..K-1, numbered by first op); returns K, or -1
 * on allocation failure.  Open addressing on the signature hash. */
static int classes(const twill_gaus_problem *p, int *cls) {
  int n = p->n;
  size_t cap = 16;
  while (cap < 2 * (size_t)n + 2) cap *= 2;
  int *slot = malloc(cap * sizeof *slot); /* representative op, -1 empty */
  if (!slot) return -1;
  for (size_t k = 0; k < cap; k++) slot[k] = -1;
  int K = 0;
  for (int i = 0; i < n; i++) {
    size_t k = (size_t)(sig_hash(p, i) & (cap - 1));
    while (slot[k] >= 0 && !same_sig(p, slot[k], i)) k = (k + 1) & (cap - 1);
    if (slot[k] < 0) {
      slot[k] = i;
      cls[i] = K++;
    } else {
      cls[i] = cls[slot[k]];
    }
  }
  free(slot);
  return K;
}

/* ---- the scheduler ------------------------------------------------------ */

enum { WAITING, PENDING, READY, PLACED };

typedef struct ml {
  const twill_gaus_problem *p;
  int n, K;
  long ii, ext;
  int *cls, *npred, *stamp, *queue, *blocked;
  int *fin_off, *fin_e; /* distance-0 in-edges of each op (CSR) */
  char *state, *inq;
  long *rel, *dl, *key;
  double *mrt, *tmp;
  mheap pend, *ch;
  int culprit; /* the op whose deadline passed (-1: none) */
  long miss;   /* by how many cycles */
} ml;

/* One attempt with priorities prio: 0 (t filled), -2, -3. */
static int attempt(ml *s, const long *prio, long *t) {
  const twill_gaus_problem *p = s->p;
  int n = s->n, K = s->K;
  long ii = s->ii;
  s->culprit = -1;
  s->miss = 0;
  s->pend.n = 0;
  for (int c = 0; c < K; c++) s->ch[c].n = 0;
  memset(s->mrt, 0, ((size_t)p->nunits * (size_t)ii + 1) * sizeof(double));
  memset(s->npred, 0, (size_t)n * sizeof(int));
  for (int e = 0; e < p->ne; e++)
    if (!p->edist[e] && p->esrc[e] != p->edst[e]) s->npred[p->edst[e]]++;
  for (int i = 0; i < n; i++) {
    s->rel[i] = 0;
    s->dl[i] = LONG_MAX;
    s->key[i] = prio[i];
    s->stamp[i] = 0;
    s->inq[i] = 0;
    s->state[i] = WAITING;
    if (!s->npred[i]) {
      s->state[i] = PENDING;
      if (mh_push(&s->pend, (hent){0, s->key[i], i, 0})) return -3;
    }
  }
  int placed = 0, gen = 0;
  long now = 0, last = 0;
  long work = 0, work_cap = 64 * ((long)n + p->ne) + 1000000;
  int *stamp = s->stamp, *queue = s->queue;
  char *state = s->state, *inq = s->inq;
  long *rel = s->rel, *dl = s->dl, *key = s->key;
  mheap *ch = s->ch, *pend = &s->pend;
  while (placed < n) {
    /* released ops join their class */
    while (pend->n > 0 && pend->a[0].k1 <= now) {
      hent h = pend->a[0];
      mh_pop(pend);
      int v = h.v;
      if (state[v] != PENDING || h.stamp != stamp[v]) continue;
      if (rel[v] > now) { /* raised by a back edge since */
        if (mh_push(pend, (hent){rel[v], key[v], v, stamp[v]})) return -3;
        continue;
      }
      state[v] = READY;
      stamp[v]++;
      if (mh_push(&ch[s->cls[v]], (hent){key[v], 0, v, stamp[v]})) return -3;
      last = now;
    }
    /* placements at this cycle: the best head over the open classes */
    gen++;
    for (;;) {
      int best = -1;
      for (int c = 0; c < K; c++) {
        if (s->blocked[c] == gen) continue;
        mheap *h = &ch[c];
        while (h->n > 0 && (state[h->a[0].v] != READY || h->a[0].stamp != stamp[h->a[0].v]))
          mh_pop(h);
        if (h->n > 0 && (best < 0 || hlt(&h->a[0], &ch[best].a[0]))) best = c;
      }
      if (best < 0) break;
      int v = ch[best].a[0].v;
      if (rel[v] > now) { /* back to the release queue */
        mh_pop(&ch[best]);
        state[v] = PENDING;
        stamp[v]++;
        if (mh_push(pend, (hent){rel[v], key[v], v, stamp[v]})) return -3;
        continue;
      }
      if (dl[v] < now) { /* a back edge can no longer hold */
        s->culprit = v;
        s->miss = now - dl[v];
        return -2;
      }
      if (!fits(p, s->mrt, s->tmp, ii, v, now)) {
        s->blocked[best] = gen;
        continue;
      }
      mh_pop(&ch[best]);
      reserve(p, s->mrt, ii, v, now);
      t[v] = now;
      state[v] = PLACED;
      placed++;
      last = now;
      for (int k = p->out_off[v]; k < p->out_off[v + 1]; k++) {
        int e = p->out_e[k], w = p->edst[e];
        long need = now + p->elat[e] - ii * (long)p->edist[e];
        if (w == v) continue;
        if (state[w] == PLACED) {
          if (t[w] < need) return -2;
          continue;
        }
        if (need > rel[w]) rel[w] = need;
        if (!p->edist[e] && --s->npred[w] == 0) {
          state[w] = PENDING;
          stamp[w]++;
          if (mh_push(pend, (hent){rel[w], key[w], w, stamp[w]})) return -3;
        }
      }
      /* deadlines: v's placement bounds the unplaced tails of its
         in-edges (t_a <= t_v - lat + II dist), and each bound moves on to
         the tail's own distance-0 predecessors (a chain that must finish
         first), a worklist relaxation over the forward DAG; bounds that
         would pass through a further back edge gain II and rarely bind,
         so they are left to the placement of that edge's head.  The work
         is capped all the same (a partial propagation only leaves some
         bounds looser than they could be). */
      int qh = 0, qt = 0;
      queue[qt++] = v;
      while (qh != qt && work < work_cap) {
        int b = queue[qh];
        qh = qh + 1 == n + 1 ? 0 : qh + 1;
        inq[b] = 0;
        long tb = b == v ? now : dl[b];
        const int *ie = b == v ? p->in_e + p->in_off[b] : s->fin_e + s->fin_off[b];
        int nie = b == v ? p->in_off[b + 1] - p->in_off[b]
                         : s->fin_off[b + 1] - s->fin_off[b];
        for (int k = 0; k < nie; k++) {
          int e = ie[k], a = p->esrc[e];
          work++;
          if (a == b || state[a] == PLACED) continue;
          long lim = tb - p->elat[e] + ii * (long)p->edist[e];
          if (lim >= dl[a]) continue;
          dl[a] = lim;
          if (!inq[a]) {
            inq[a] = 1;
            queue[qt] = a;
            qt = qt + 1 == n + 1 ? 0 : qt + 1;
          }
          if (lim < key[a]) {
            key[a] = lim;
            if (state[a] == READY) {
              stamp[a]++;
              if (mh_push(&ch[s->cls[a]], (hent){key[a], 0, a, stamp[a]})) return -3;
            }
          }
        }
      }
      while (qh != qt) { /* the cap struck: drop the rest */
        inq[queue[qh]] = 0;
        qh = qh + 1 == n + 1 ? 0 : qh + 1;
      }
    }
    if (placed == n) break;
    /* the next cycle; idle stretches are skipped */
    int any = 0;
    for (int c = 0; c < K && !any; c++) any = ch[c].n > 0;
    long next = now + 1;
    if (!any) {
      if (pend->n == 0) return -2; /* nothing can become ready */
      if (pend->a[0].k1 > next) next = pend->a[0].k1;
      last = next;
    }
    if (next - last > ii + s->ext) return -2; /* the table no longer changes */
    now = next;
  }
  return 0;
}

/* Attempts: the first by t0; after a missed deadline the late op's
 * priority moves ahead by twice the miss plus a growing margin and the
 * schedule is built again ("squeaky wheel", Joslin and Clements 1999),
 * at most ML_TRIES times. */
#define ML_TRIES 3

int twill_gaus_modulo_list(const twill_gaus_problem *p, long ii,
                           const long *t0, long *t) {
  int n = p->n;
  if (ii < 1) return -2;
  size_t N = (size_t)n + 1, cells = (size_t)p->nunits * (size_t)ii + 1;
  ml s;
  memset(&s, 0, sizeof s);
  s.p = p;
  s.n = n;
  s.ii = ii;
  s.cls = malloc(N * sizeof *s.cls);
  s.npred = malloc(N * sizeof *s.npred);
  s.stamp = malloc(N * sizeof *s.stamp);
  s.queue = malloc(N * sizeof *s.queue);
  s.state = malloc(N);
  s.inq = malloc(N);
  s.rel = malloc(N * sizeof *s.rel);
  s.dl = malloc(N * sizeof *s.dl);
  s.key = malloc(N * sizeof *s.key);
  s.mrt = calloc(cells, sizeof *s.mrt);
  s.tmp = calloc(cells, sizeof *s.tmp);
  long *prio = malloc(N * sizeof *prio);
  s.fin_off = calloc(N + 1, sizeof *s.fin_off);
  s.fin_e = malloc(((size_t)p->ne + 1) * sizeof *s.fin_e);
  int rc = -3;
  if (!s.fin_off || !s.fin_e) goto out;
  for (int i = 0, q = 0; i < n; i++) {
    s.fin_off[i] = q;
    for (int k = p->in_off[i]; k < p->in_off[i + 1]; k++)
      if (!p->edist[p->in_e[k]]) s.fin_e[q++] = p->in_e[k];
    s.fin_off[i + 1] = q;
  }
  if (!s.cls || !s.npred || !s.stamp || !s.queue || !s.state || !s.inq ||
      !s.rel || !s.dl || !s.key || !s.mrt || !s.tmp || !prio)
    goto out;
  s.K = classes(p, s.cls);
  if (s.K < 0) goto out;
  s.ch = calloc((size_t)s.K + 1, sizeof *s.ch);
  s.blocked = calloc((size_t)s.K + 1, sizeof *s.blocked);
  if (!s.ch || !s.blocked) goto out;
  rc = -2;
  s.ext = 1; /* longest use end: the table repeats after ii + ext */
  long maxlat = 1;
  for (int i = 0; i < n; i++) {
    if (!fits(p, s.mrt, s.tmp, ii, i, 0)) goto out; /* does not fit alone */
    for (int u = p->uoff[i]; u < p->uoff[i + 1]; u++)
      if ((long)p->uoffset[u] + p->ucycles[u] > s.ext)
        s.ext = (long)p->uoffset[u] + p->ucycles[u];
    if (p->lat[i] > maxlat) maxlat = p->lat[i];
  }
  for (int e = 0; e < p->ne; e++)
    if (p->esrc[e] == p->edst[e] && p->elat[e] > ii * (long)p->edist[e])
      goto out; /* a self loop II cannot carry */
  memcpy(prio, t0, (size_t)n * sizeof(long));
  for (int k = 0; k < ML_TRIES; k++) {
    rc = attempt(&s, prio, t);
    if (rc != -2 || s.culprit < 0) break;
    prio[s.culprit] = s.dl[s.culprit] - 2 * s.miss - (maxlat << k);
  }
out:
  if (s.ch)
    for (int c = 0; c < s.K; c++) free(s.ch[c].a);
  free(s.ch);
  free(s.blocked);
  free(s.pend.a);
  free(s.cls);
  free(s.npred);
  free(s.stamp);
  free(s.queue);
  free(s.state);
  free(s.inq);
  free(s.rel);
  free(s.dl);
  free(s.key);
  free(s.mrt);
  free(s.tmp);
  free(prio);
  free(s.fin_off);
  free(s.fin_e);
  return rc;
}
