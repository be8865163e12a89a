/* core/gaus/gaus_legal.c: from the relaxation to legal schedules (the GauS
 * paper's Appendix A), the independent legality check, MII, and discrete
 * measures.
 *
 * Plain: list scheduling in topological order over distance-0 edges, ready
 * ops taken by (round(mu), index), each placed at the first step >= both
 * round(mu) and its predecessors' finish where every unit it uses has room
 * (a growable per-step reservation table).  The II is then the smallest
 * value >= the last busy cycle + 1 that every back edge allows, so no use
 * wraps and modulo capacity equals per-step capacity.
 *
 * Improving a plain schedule of an acyclic problem (Formulation L, whose
 * objective is the length): serial schedule generation without the
 * round(mu) floor, forward (earliest fit) and backward (latest fit below
 * the length), alternated as forward-backward improvement ("double
 * justification", Valls, Ballestin and Quintanilla 2005) from the
 * legalized schedule and from fresh list schedules by mu, by height and
 * by the best schedule's starts plus seeded noise.
 *
 * Modulo at II: t = max(0, round(mu)); Bellman-Ford-style sweeps of
 * t_dst >= t_src + lat - II*dist over all edges, at most n + 1 sweeps (still
 * changing: a positive cycle, "recurrence violation"); then rounds of
 * placement into a modulo reservation table in (t, topological rank)
 * order, bumping an op by up to II - 1 steps to a free slot and never
 * before its placed distance-0 predecessors allow; a round that leaves a
 * back edge violated re-relaxes and places again (at most n + 1 rounds).
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gaus_priv.h"
#include "twill/gaus.h"
#include "twill/modulo.h"

static long latp(long l) { return l < 1 ? 1 : l; }

static long rnd_mu(double x) {
  if (!(x > 0)) return 0;
  if (x > 1e15) return (long)1e15;
  return (long)floor(x + 0.5);
}

/* ---- a binary heap of (key, index) -------------------------------------- */
typedef struct heap {
  long *key;
  int *idx;
  int n;
} heap;

static int hless(const heap *h, int a, int b) {
  return h->key[a] < h->key[b] || (h->key[a] == h->key[b] && h->idx[a] < h->idx[b]);
}
static void hswap(heap *h, int a, int b) {
  long k = h->key[a];
  h->key[a] = h->key[b];
  h->key[b] = k;
  int i = h->idx[a];
  h->idx[a] = h->idx[b];
  h->idx[b] = i;
}
static void hpush(heap *h, long key, int idx) {
  int c = h->n++;
  h->key[c] = key;
  h->idx[c] = idx;
  while (c > 0 && hless(h, c, (c - 1) / 2)) {
    hswap(h, c, (c - 1) / 2);
    c = (c - 1) / 2;
  }
}
static int hpop(heap *h) {
  int top = h->idx[0];
  h->n--;
  if (h->n > 0) {
    h->key[0] = h->key[h->n];
    h->idx[0] = h->idx[h->n];
    int c = 0;
    for (;;) {
      int l = 2 * c + 1, r = l + 1, b = c;
      if (l < h->n && hless(h, l, b)) b = l;
      if (r < h->n && hless(h, r, b)) b = r;
      if (b == c) break;
      hswap(h, b, c);
      c = b;
    }
  }
  return top;
}

/* ---- plain ------------------------------------------------------------- */

typedef struct table {
  int R;
  long len;    /* steps allocated */
  double *use; /* R * len */
} table;

static int table_grow(table *tb, long need) {
  if (need <= tb->len) return 0;
  long nl = tb->len ? tb->len : 64;
  while (nl < need) nl *= 2;
  double *u = calloc((size_t)tb->R * (size_t)nl + 1, sizeof(double));
  if (!u) return -1;
  for (int r = 0; r < tb->R && tb->len > 0; r++)
    memcpy(u + (size_t)r * (size_t)nl, tb->use + (size_t)r * (size_t)tb->len,
           (size_t)tb->len * sizeof(double));
  free(tb->use);
  tb->use = u;
  tb->len = nl;
  return 0;
}

static long use_end(const twill_gaus_problem *p, int i) {
  long e = latp(p->lat[i]);
  for (int u = p->uoff[i]; u < p->uoff[i + 1]; u++)
    if ((long)p->uoffset[u] + p->ucycles[u] > e)
      e = (long)p->uoffset[u] + p->ucycles[u];
  return e;
}

/* Add sign * op i's uses at start t to the table. */
static void put_plain(const twill_gaus_problem *p, table *tb, int i, long t,
                      double sign) {
  for (int u = p->uoff[i]; u < p->uoff[i + 1]; u++)
    for (int c = 0; c < p->ucycles[u]; c++)
      tb->use[(size_t)p->uunit[u] * (size_t)tb->len +
              (size_t)(t + p->uoffset[u] + c)] += sign * p->ucount[u];
}

/* Does op i fit at t?  (Its own uses may overlap on one unit, so they are
 * added first and checked together.) */
static int fits_plain(const twill_gaus_problem *p, table *tb, int i, long t) {
  put_plain(p, tb, i, t, 1.0);
  int ok = 1;
  for (int u = p->uoff[i]; u < p->uoff[i + 1] && ok; u++) {
    int r = p->uunit[u];
    if (p->cap[r] <= 0) continue;
    for (int c = 0; c < p->ucycles[u]; c++)
      if (tb->use[(size_t)r * (size_t)tb->len +
                  (size_t)(t + p->uoffset[u] + c)] > p->cap[r] + 1e-9)
        ok = 0;
  }
  put_plain(p, tb, i, t, -1.0);
  return ok;
}

/* Does op i fit on an empty table (its own uses within capacity)? */
static int self_fits(const twill_gaus_problem *p, int i) {
  for (int u = p->uoff[i]; u < p->uoff[i + 1]; u++) {
    int r = p->uunit[u];
    if (p->cap[r] <= 0) continue;
    for (int c = 0; c < p->ucycles[u]; c++) {
      long d = p->uoffset[u] + c;
      double load = 0;
      for (int v = p->uoff[i]; v < p->uoff[i + 1]; v++)
        if (p->uunit[v] == r && p->uoffset[v] <= d &&
            d < (long)p->uoffset[v] + p->ucycles[v])
          load += p->ucount[v];
      if (load > p->cap[r] + 1e-9) return 0;
    }
  }
  return 1;
}

long twill_gaus_legalize_plain(const twill_gaus_problem *p, const double *mu,
                               long *t) {
  int n = p->n;
  for (int i = 0; i < n; i++)
    if (!self_fits(p, i)) return -1;
  int *indeg = calloc((size_t)n + 1, sizeof(int));
  long *ready = calloc((size_t)n + 1, sizeof(long));
  heap h = {malloc(((size_t)n + 1) * sizeof(long)),
            malloc(((size_t)n + 1) * sizeof(int)), 0};
  table tb = {p->nunits, 0, NULL};
  long res = -1;
  if (!indeg || !ready || !h.key || !h.idx || table_grow(&tb, 64)) goto out;
  for (int e = 0; e < p->ne; e++)
    if (p->edist[e] == 0) indeg[p->edst[e]]++;
  for (int i = 0; i < n; i++)
    if (!indeg[i]) hpush(&h, rnd_mu(mu[i]), i);
  int done = 0;
  long iiend = 1;
  while (h.n > 0) {
    int v = hpop(&h);
    long tv = rnd_mu(mu[v]);
    if (ready[v] > tv) tv = ready[v];
    for (;;) {
      if (table_grow(&tb, tv + use_end(p, v) + 1)) goto out;
      if (fits_plain(p, &tb, v, tv)) break;
      tv++;
    }
    put_plain(p, &tb, v, tv, 1.0);
    t[v] = tv;
    if (tv + use_end(p, v) > iiend) iiend = tv + use_end(p, v);
    done++;
    for (int k = p->out_off[v]; k < p->out_off[v + 1]; k++) {
      int e = p->out_e[k];
      if (p->edist[e]) continue;
      int w = p->edst[e];
      if (tv + p->elat[e] > ready[w]) ready[w] = tv + p->elat[e];
      if (--indeg[w] == 0) hpush(&h, rnd_mu(mu[w]), w);
    }
  }
  if (done != n) goto out;
  /* back edges: t_d - t_s >= lat - II dist */
  for (int e = 0; e < p->ne; e++) {
    if (!p->edist[e]) continue;
    long need = p->elat[e] - (t[p->edst[e]] - t[p->esrc[e]]);
    if (need > 0) {
      long ii = (need + p->edist[e] - 1) / p->edist[e];
      if (ii > iiend) iiend = ii;
    }
  }
  res = iiend;
out:
  free(indeg);
  free(ready);
  free(h.key);
  free(h.idx);
  free(tb.use);
  return res;
}

/* ---- improving an acyclic plain schedule -------------------------------- */

/* Serial schedule generation (our list-scheduling legalizer without the
 * round(mu) floor): ops in precedence order, each time the eligible op of
 * smallest rank, placed at its earliest start (forward) or latest start
 * (backward, ending by H, eligible once all successors are placed) where
 * all its uses fit.  Forward returns the length, backward the smallest
 * start (-1: no room above 0, or allocation failure). */
typedef struct sgs {
  const twill_gaus_problem *p;
  int n;
  long *rank, *bound, *t2;
  int *cnt;
  heap h;
  table tb;
} sgs;

typedef struct keyed {
  double k;
  int i;
} keyed;

static int cmp_keyed(const void *a, const void *b) {
  const keyed *x = a, *y = b;
  if (x->k != y->k) return x->k < y->k ? -1 : 1;
  return (x->i > y->i) - (x->i < y->i);
}

/* rank[i] = position of op i sorted by (key, i); kb: n scratch */
static void set_rank(sgs *s, const double *key, keyed *kb) {
  for (int i = 0; i < s->n; i++) kb[i] = (keyed){key[i], i};
  qsort(kb, (size_t)s->n, sizeof *kb, cmp_keyed);
  for (int k = 0; k < s->n; k++) s->rank[kb[k].i] = k;
}

static long sched_len(const twill_gaus_problem *p, const long *t) {
  long L = 0;
  for (int i = 0; i < p->n; i++)
    if (t[i] + latp(p->lat[i]) > L) L = t[i] + latp(p->lat[i]);
  return L;
}

static int tb_clear(table *tb, long need) {
  if (table_grow(tb, need)) return -1;
  memset(tb->use, 0, (size_t)tb->R * (size_t)tb->len * sizeof(double));
  return 0;
}

static long sgs_forward(sgs *s, long *t) {
  const twill_gaus_problem *p = s->p;
  int n = s->n;
  long horizon = 1;
  for (int i = 0; i < n; i++) horizon += use_end(p, i);
  if (tb_clear(&s->tb, 64)) return -1;
  for (int i = 0; i < n; i++) s->cnt[i] = 0, s->bound[i] = 0;
  for (int e = 0; e < p->ne; e++) s->cnt[p->edst[e]]++;
  s->h.n = 0;
  for (int i = 0; i < n; i++)
    if (!s->cnt[i]) hpush(&s->h, s->rank[i], i);
  int done = 0;
  while (s->h.n > 0) {
    int v = hpop(&s->h);
    long tv = s->bound[v];
    for (;;) {
      if (tv > horizon || table_grow(&s->tb, tv + use_end(p, v) + 1)) return -1;
      if (fits_plain(p, &s->tb, v, tv)) break;
      tv++;
    }
    put_plain(p, &s->tb, v, tv, 1.0);
    t[v] = tv;
    done++;
    for (int k = p->out_off[v]; k < p->out_off[v + 1]; k++) {
      int e = p->out_e[k], w = p->edst[e];
      if (tv + p->elat[e] > s->bound[w]) s->bound[w] = tv + p->elat[e];
      if (--s->cnt[w] == 0) hpush(&s->h, s->rank[w], w);
    }
  }
  return done == n ? sched_len(p, t) : -1;
}

static long sgs_backward(sgs *s, long H, long *t) {
  const twill_gaus_problem *p = s->p;
  int n = s->n;
  if (tb_clear(&s->tb, H + 1)) return -1;
  for (int i = 0; i < n; i++) {
    s->cnt[i] = p->out_off[i + 1] - p->out_off[i];
    s->bound[i] = H - use_end(p, i);
  }
  s->h.n = 0;
  for (int i = 0; i < n; i++)
    if (!s->cnt[i]) hpush(&s->h, s->rank[i], i);
  int done = 0;
  long first = H;
  while (s->h.n > 0) {
    int v = hpop(&s->h);
    long tv = s->bound[v];
    while (tv >= 0 && !fits_plain(p, &s->tb, v, tv)) tv--;
    if (tv < 0) return -1;
    put_plain(p, &s->tb, v, tv, 1.0);
    t[v] = tv;
    if (tv < first) first = tv;
    done++;
    for (int k = p->in_off[v]; k < p->in_off[v + 1]; k++) {
      int e = p->in_e[k], w = p->esrc[e];
      if (tv - p->elat[e] < s->bound[w]) s->bound[w] = tv - p->elat[e];
      if (--s->cnt[w] == 0) hpush(&s->h, s->rank[w], w);
    }
  }
  return done == n ? first : -1;
}

/* Forward-backward improvement (double justification) of the legal t:
 * right-justify by latest finish first, shift to 0, left-justify by those
 * starts; kept while the length does not grow, at most `rounds` rounds
 * and 3 without a gain.  Returns the length of t. */
static long fbi(sgs *s, long *t, int rounds, double *key, keyed *kb) {
  const twill_gaus_problem *p = s->p;
  int n = s->n;
  long L = sched_len(p, t);
  int still = 0;
  for (int r = 0; r < rounds && still < 3; r++) {
    for (int i = 0; i < n; i++) key[i] = -(double)(t[i] + latp(p->lat[i]));
    set_rank(s, key, kb);
    long first = sgs_backward(s, L, s->t2);
    if (first < 0) break;
    for (int i = 0; i < n; i++) key[i] = (double)(s->t2[i] - first);
    set_rank(s, key, kb);
    long Lf = sgs_forward(s, s->t2);
    if (Lf < 0 || Lf > L) break;
    still = Lf < L ? 0 : still + 1;
    L = Lf;
    memcpy(t, s->t2, (size_t)n * sizeof(long));
  }
  return L;
}

long twill_gaus_improve_plain(const twill_gaus_problem *p, const double *mu,
                              long *t, int restarts) {
  int n = p->n;
  for (int e = 0; e < p->ne; e++)
    if (p->edist[e]) return -1;
  sgs s = {p, n, NULL, NULL, NULL, NULL, {NULL, NULL, 0}, {p->nunits, 0, NULL}};
  s.rank = malloc(((size_t)n + 1) * sizeof(long));
  s.bound = malloc(((size_t)n + 1) * sizeof(long));
  s.t2 = malloc(((size_t)n + 1) * sizeof(long));
  s.cnt = malloc(((size_t)n + 1) * sizeof(int));
  s.h.key = malloc(((size_t)n + 1) * sizeof(long));
  s.h.idx = malloc(((size_t)n + 1) * sizeof(int));
  double *key = malloc(((size_t)n + 1) * sizeof(double));
  double *height = malloc(((size_t)n + 1) * sizeof(double));
  keyed *kb = malloc(((size_t)n + 1) * sizeof(keyed));
  long *cand = malloc(((size_t)n + 1) * sizeof(long));
  int *order = malloc(((size_t)n + 1) * sizeof(int));
  long *asap = malloc(((size_t)n + 1) * sizeof(long));
  long best = -1;
  if (!s.rank || !s.bound || !s.t2 || !s.cnt || !s.h.key || !s.h.idx || !key ||
      !height || !kb || !cand || !order || !asap || twill_gaus_asap(p, asap, order) < 0)
    goto out;
  /* height: longest latency path from the op's start to the end */
  for (int k = n - 1; k >= 0; k--) {
    int v = order[k];
    double h = (double)latp(p->lat[v]);
    for (int j = p->out_off[v]; j < p->out_off[v + 1]; j++) {
      int e = p->out_e[j];
      if ((double)p->elat[e] + height[p->edst[e]] > h)
        h = (double)p->elat[e] + height[p->edst[e]];
    }
    height[v] = h;
  }
  best = fbi(&s, t, 20, key, kb);
  /* fresh list schedules: by mu, by height, then from the best with
     noise (a splitmix64 stream per restart: the same bytes every run) */
  for (int c = 0; c < 2 + restarts; c++) {
    unsigned long long x = 0x9E3779B97F4A7C15ULL * (unsigned long long)(c + 1);
    for (int i = 0; i < n; i++) {
      if (c == 0) {
        key[i] = mu ? mu[i] - 1e-6 * height[i] : (double)asap[i];
      } else if (c == 1) {
        key[i] = -height[i];
      } else {
        x += 0x9E3779B97F4A7C15ULL;
        unsigned long long z = x;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        z ^= z >> 31;
        double u = (double)(z >> 11) / 9007199254740992.0;
        key[i] = (double)t[i] + 3.0 * u - 1e-6 * height[i];
      }
    }
    set_rank(&s, key, kb);
    if (sgs_forward(&s, cand) < 0) continue;
    long L = fbi(&s, cand, 20, key, kb);
    if (L < best) {
      best = L;
      memcpy(t, cand, (size_t)n * sizeof(long));
    }
  }
  if (best >= 0) { /* the II twill_gaus_legalize_plain would give */
    best = 1;
    for (int i = 0; i < n; i++)
      if (t[i] + use_end(p, i) > best) best = t[i] + use_end(p, i);
  }
out:
  free(s.rank);
  free(s.bound);
  free(s.t2);
  free(s.cnt);
  free(s.h.key);
  free(s.h.idx);
  free(s.tb.use);
  free(key);
  free(height);
  free(kb);
  free(cand);
  free(order);
  free(asap);
  return best;
}

/* ---- modulo ------------------------------------------------------------ */

/* Does the graph of last improving edges (pred[v]: the source that last
 * raised t_v, -1: none) have a cycle?  Such a cycle has positive weight
 * (the Bellman-Ford parent-graph lemma, CLRS 24.16 for longest paths), so
 * relax can stop long before n + 1 sweeps.  mark: n scratch. */
static int pred_cycle(const int *pred, int n, int *mark) {
  for (int i = 0; i < n; i++) mark[i] = -1;
  for (int v = 0; v < n; v++) {
    int u = v;
    while (u >= 0 && mark[u] < 0) {
      mark[u] = v;
      u = pred[u];
    }
    if (u >= 0 && mark[u] == v) return 1;
  }
  return 0;
}

/* Relax t over all edges at II; 0 when converged, -1 on a positive cycle
 * (after n+1 sweeps, or earlier when the parent graph has a cycle).  The
 * sweeps visit the edges by the topological rank of their source
 * (distance-0 edges), so one sweep settles every forward chain and only
 * back edges need more; the fixed point (the least t above the start)
 * and the verdict are those of any edge order. */
static int relax(const twill_gaus_problem *p, long ii, long *t) {
  int n = p->n;
  int *order = malloc(((size_t)n + 1) * sizeof(int));
  long *asap = malloc(((size_t)n + 1) * sizeof(long));
  int *eo = malloc(((size_t)p->ne + 1) * sizeof(int));
  int *pred = malloc(((size_t)n + 1) * sizeof(int));
  int *mark = malloc(((size_t)n + 1) * sizeof(int));
  int ne = 0;
  if (order && asap && eo && twill_gaus_asap(p, asap, order) >= 0) {
    for (int k = 0; k < n; k++)
      for (int j = p->out_off[order[k]]; j < p->out_off[order[k] + 1]; j++)
        eo[ne++] = p->out_e[j];
  } else if (eo) { /* no order (allocation): index order */
    for (int e = 0; e < p->ne; e++) eo[ne++] = e;
  }
  int rc = -1;
  if (pred)
    for (int i = 0; i < n; i++) pred[i] = -1;
  for (int sweep = 0; eo && sweep <= n + 1; sweep++) {
    int changed = 0;
    for (int k = 0; k < ne; k++) {
      int e = eo[k];
      long need = t[p->esrc[e]] + p->elat[e] - ii * p->edist[e];
      if (t[p->edst[e]] < need) {
        t[p->edst[e]] = need;
        if (pred) pred[p->edst[e]] = p->esrc[e];
        changed = 1;
      }
    }
    if (!changed) {
      rc = 0;
      break;
    }
    if (pred && mark && sweep > 0 && pred_cycle(pred, n, mark)) break;
  }
  free(order);
  free(asap);
  free(eo);
  free(pred);
  free(mark);
  return rc;
}

static long lmod(long a, long m) {
  long r = a % m;
  return r < 0 ? r + m : r;
}

static int fits_mrt(const twill_gaus_problem *p, const double *mrt, long ii,
                    int i, long t, double *tmp) {
  /* tmp: R * ii scratch, zero on entry and exit */
  int ok = 1;
  for (int u = p->uoff[i]; u < p->uoff[i + 1]; u++) {
    int r = p->uunit[u];
    if (p->cap[r] <= 0) continue;
    for (int c = 0; c < p->ucycles[u]; c++)
      tmp[(size_t)r * (size_t)ii + (size_t)lmod(t + p->uoffset[u] + c, ii)] +=
          p->ucount[u];
  }
  for (int u = p->uoff[i]; u < p->uoff[i + 1]; u++) {
    int r = p->uunit[u];
    if (p->cap[r] <= 0) continue;
    for (int c = 0; c < p->ucycles[u]; c++) {
      size_t k = (size_t)r * (size_t)ii + (size_t)lmod(t + p->uoffset[u] + c, ii);
      if (tmp[k] > 0 && mrt[k] + tmp[k] > p->cap[r] + 1e-9) ok = 0;
    }
  }
  for (int u = p->uoff[i]; u < p->uoff[i + 1]; u++) {
    int r = p->uunit[u];
    if (p->cap[r] <= 0) continue;
    for (int c = 0; c < p->ucycles[u]; c++)
      tmp[(size_t)r * (size_t)ii + (size_t)lmod(t + p->uoffset[u] + c, ii)] = 0;
  }
  return ok;
}

static void sort_ops(int *ord, int n, const long *t, const int *rank) {
  /* insertion-free merge sort by (t, rank) */
  int *tmp = malloc((size_t)n * sizeof(int) + 1);
  if (!tmp) {
    /* fall back: simple insertion sort */
    for (int a = 1; a < n; a++) {
      int x = ord[a], b = a - 1;
      while (b >= 0 && (t[ord[b]] > t[x] || (t[ord[b]] == t[x] && rank[ord[b]] > rank[x]))) {
        ord[b + 1] = ord[b];
        b--;
      }
      ord[b + 1] = x;
    }
    return;
  }
  for (int w = 1; w < n; w *= 2) {
    for (int lo = 0; lo < n; lo += 2 * w) {
      int mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
      int a = lo, b = mid, k = lo;
      while (a < mid && b < hi) {
        int x = ord[a], y = ord[b];
        if (t[y] < t[x] || (t[y] == t[x] && rank[y] < rank[x]))
          tmp[k++] = ord[b++];
        else
          tmp[k++] = ord[a++];
      }
      while (a < mid) tmp[k++] = ord[a++];
      while (b < hi) tmp[k++] = ord[b++];
    }
    memcpy(ord, tmp, (size_t)n * sizeof(int));
  }
  free(tmp);
}

/* The fixed-point legalizer: t holds relaxed times on entry. */
static int legalize_fixpoint(const twill_gaus_problem *p, long ii, long *t) {
  int n = p->n;
  long *asap = calloc((size_t)n + 1, sizeof(long));
  int *topo = calloc((size_t)n + 1, sizeof(int));
  int *rank = calloc((size_t)n + 1, sizeof(int));
  int *ord = calloc((size_t)n + 1, sizeof(int));
  char *placed = calloc((size_t)n + 1, 1);
  double *mrt = calloc((size_t)p->nunits * (size_t)ii + 1, sizeof(double));
  double *tmp = calloc((size_t)p->nunits * (size_t)ii + 1, sizeof(double));
  int res = -3;
  if (!asap || !topo || !rank || !ord || !placed || !mrt || !tmp) goto out;
  if (twill_gaus_asap(p, asap, topo) < 0) {
    res = -1;
    goto out;
  }
  for (int k = 0; k < n; k++) rank[topo[k]] = k;
  res = -2;
  for (int round = 0; round < 32; round++) {
    for (int i = 0; i < n; i++) ord[i] = i;
    sort_ops(ord, n, t, rank);
    memset(mrt, 0, ((size_t)p->nunits * (size_t)ii + 1) * sizeof(double));
    memset(placed, 0, (size_t)n + 1);
    for (int k = 0; k < n; k++) {
      int v = ord[k];
      long tv = t[v];
      for (int j = p->in_off[v]; j < p->in_off[v + 1]; j++) {
        int e = p->in_e[j];
        if (!placed[p->esrc[e]]) continue;
        long need = t[p->esrc[e]] + p->elat[e] - ii * p->edist[e];
        if (need > tv) tv = need;
      }
      /* latest start that keeps edges to placed ops satisfied */
      long ub = LONG_MAX;
      for (int j = p->out_off[v]; j < p->out_off[v + 1]; j++) {
        int e = p->out_e[j];
        if (!placed[p->edst[e]]) continue;
        long lim = t[p->edst[e]] - p->elat[e] + ii * p->edist[e];
        if (lim < ub) ub = lim;
      }
      long c, first = -1;
      for (c = 0; c < ii; c++)
        if (fits_mrt(p, mrt, ii, v, tv + c, tmp)) {
          if (first < 0) first = c;
          if (tv + c <= ub) break;
        }
      if (first < 0) goto out; /* the op fits in no slot */
      if (c == ii) c = first;  /* violates an edge: the next round fixes it */
      tv += c;
      t[v] = tv;
      placed[v] = 1;
      for (int u = p->uoff[v]; u < p->uoff[v + 1]; u++) {
        int r = p->uunit[u];
        for (int cc = 0; cc < p->ucycles[u]; cc++)
          mrt[(size_t)r * (size_t)ii + (size_t)lmod(tv + p->uoffset[u] + cc, ii)] +=
              p->ucount[u];
      }
    }
    int bad = 0;
    for (int e = 0; e < p->ne && !bad; e++)
      if (t[p->edst[e]] - t[p->esrc[e]] < p->elat[e] - ii * p->edist[e]) bad = 1;
    if (!bad) {
      res = 0;
      goto out;
    }
    if (relax(p, ii, t)) {
      res = -1;
      goto out;
    }
  }
out:
  free(asap);
  free(topo);
  free(rank);
  free(ord);
  free(placed);
  free(mrt);
  free(tmp);
  return res;
}

/* p as a twill graph for the IMS machinery (twill/modulo.h), or NULL when
 * a count or capacity is not an integer (or on allocation failure).
 * Uncapped units get capacity INT_MAX; zero counts are dropped.  Times are
 * in units of q, which divides every edge latency, use offset and use
 * length (and II): a schedule of the scaled graph at II/q, times q, is a
 * schedule of p at II (each constraint scales exactly). */
static long gcdl(long a, long b) {
  while (b) {
    long r = a % b;
    a = b;
    b = r;
  }
  return a;
}
static long grain(const twill_gaus_problem *p, long ii) {
  long q = ii;
  for (int e = 0; e < p->ne && q > 1; e++) q = gcdl(q, p->elat[e] < 0 ? -p->elat[e] : p->elat[e]);
  for (int u = 0; u < p->nuses && q > 1; u++)
    q = gcdl(gcdl(q, p->uoffset[u]), p->ucycles[u]);
  return q < 1 ? 1 : q;
}

static twill_graph *graph_of(const twill_gaus_problem *p, long q) {
  for (int u = 0; u < p->nuses; u++)
    if (p->ucount[u] != floor(p->ucount[u]) || p->ucount[u] > INT_MAX / 2)
      return NULL;
  for (int r = 0; r < p->nunits; r++)
    if (p->cap[r] > 0 && (p->cap[r] != floor(p->cap[r]) || p->cap[r] > INT_MAX / 2))
      return NULL;
  twill_graph *g = twill_graph_new("gaus");
  if (!g) return NULL;
  char name[32];
  for (int r = 0; r < p->nunits; r++) {
    snprintf(name, sizeof name, "u%d", r);
    if (twill_graph_declare_unit(g, name, p->cap[r] > 0 ? (int)p->cap[r] : INT_MAX) != r)
      goto fail;
  }
  for (int i = 0; i < p->n; i++) {
    snprintf(name, sizeof name, "o%d", i);
    if (twill_graph_add_op(g, name, (p->lat[i] + q - 1) / q) != i) goto fail;
    for (int u = p->uoff[i]; u < p->uoff[i + 1]; u++)
      if (p->ucount[u] >= 1 &&
          twill_graph_add_use(g, i, p->uunit[u], (int)(p->uoffset[u] / q),
                              (int)(p->ucycles[u] / q), (int)p->ucount[u]))
        goto fail;
  }
  for (int e = 0; e < p->ne; e++)
    if (twill_graph_add_edge(g, p->esrc[e], p->edst[e], p->elat[e] / q, p->edist[e]) != e)
      goto fail;
  return g;
fail:
  twill_graph_free(g);
  return NULL;
}

int twill_gaus_legalize_modulo(const twill_gaus_problem *p, const double *mu,
                               long ii, long *t) {
  int n = p->n;
  if (ii < 1) return -1;
  for (int i = 0; i < n; i++) t[i] = rnd_mu(mu[i]);
  if (relax(p, ii, t)) return -1;
  long *relaxed = malloc(((size_t)n + 1) * sizeof(long));
  long *pref = malloc(((size_t)n + 1) * sizeof(long));
  long *prio = malloc(((size_t)n + 1) * sizeof(long));
  if (!relaxed || !pref || !prio) {
    free(relaxed);
    free(pref);
    free(prio);
    return -3;
  }
  memcpy(relaxed, t, (size_t)n * sizeof(long));
  long q = grain(p, ii);
  for (int i = 0; i < n; i++) {
    pref[i] = (t[i] + q - 1) / q; /* in units of q */
    prio[i] = -pref[i];
  }
  twill_graph *g = graph_of(p, q);
  int res = -2, scaled = 0;
  /* 1. IMS guided by the relaxation: earliest relaxed time first, never
   *    before it */
  if (g && twill_modulo_ims_at(g, ii / q, 6, prio, pref, t) == 0) res = 0, scaled = 1;
  /* 2. the fixed-point legalizer from the relaxed times */
  if (res) {
    memcpy(t, relaxed, (size_t)n * sizeof(long));
    res = legalize_fixpoint(p, ii, t);
  }
  /* 3. Rau's IMS by height, blind to the relaxation */
  if (res == -2 && g && twill_modulo_ims_at(g, ii / q, 6, NULL, NULL, t) == 0)
    res = 0, scaled = 1;
  if (scaled)
    for (int i = 0; i < n; i++) t[i] *= q;
  twill_graph_free(g);
  free(relaxed);
  free(pref);
  free(prio);
  return res;
}

/* ---- check ------------------------------------------------------------- */

int twill_gaus_check(const twill_gaus_problem *p, const long *t, long ii,
                     char *why, size_t whylen) {
  char dummy[8];
  if (!why) why = dummy, whylen = sizeof dummy;
  if (ii < 1) {
    snprintf(why, whylen, "II %ld < 1", ii);
    return -1;
  }
  for (int i = 0; i < p->n; i++)
    if (t[i] < 0) {
      snprintf(why, whylen, "op %d starts at %ld < 0", i, t[i]);
      return -1;
    }
  for (int e = 0; e < p->ne; e++) {
    long lhs = t[p->edst[e]] - t[p->esrc[e]];
    long rhs = p->elat[e] - ii * p->edist[e];
    if (lhs < rhs) {
      snprintf(why, whylen, "edge %d (%d -> %d): t(dst) - t(src) = %ld < %ld",
               e, p->esrc[e], p->edst[e], lhs, rhs);
      return -1;
    }
  }
  double *mrt = calloc((size_t)p->nunits * (size_t)ii + 1, sizeof(double));
  if (!mrt) {
    snprintf(why, whylen, "out of memory");
    return -1;
  }
  for (int i = 0; i < p->n; i++)
    for (int u = p->uoff[i]; u < p->uoff[i + 1]; u++)
      for (int c = 0; c < p->ucycles[u]; c++)
        mrt[(size_t)p->uunit[u] * (size_t)ii +
            (size_t)lmod(t[i] + p->uoffset[u] + c, ii)] += p->ucount[u];
  int rc = 0;
  for (int r = 0; r < p->nunits && !rc; r++) {
    if (p->cap[r] <= 0) continue;
    for (long k = 0; k < ii; k++)
      if (mrt[(size_t)r * (size_t)ii + (size_t)k] > p->cap[r] + 1e-9) {
        snprintf(why, whylen, "unit %d slot %ld: %g used > capacity %g", r, k,
                 mrt[(size_t)r * (size_t)ii + (size_t)k], p->cap[r]);
        rc = -1;
        break;
      }
  }
  free(mrt);
  return rc;
}

/* ---- MII --------------------------------------------------------------- */

static int has_pos_cycle(const twill_gaus_problem *p, long ii, long *dist) {
  for (int i = 0; i < p->n; i++) dist[i] = 0;
  return relax(p, ii, dist) != 0;
}

long twill_gaus_mii(const twill_gaus_problem *p) {
  long res = 1;
  for (int r = 0; r < p->nunits; r++) {
    if (p->cap[r] <= 0) continue;
    double busy = 0;
    for (int u = 0; u < p->nuses; u++)
      if (p->uunit[u] == r) busy += p->ucount[u] * p->ucycles[u];
    long b = (long)ceil(busy / p->cap[r] - 1e-9);
    if (b > res) res = b;
  }
  int back = 0;
  long sumlat = 1;
  for (int e = 0; e < p->ne; e++) {
    if (p->edist[e]) back = 1;
    sumlat += p->elat[e];
  }
  if (!back) return res;
  long *dist = malloc(((size_t)p->n + 1) * sizeof(long));
  if (!dist) return res;
  if (!has_pos_cycle(p, res, dist)) {
    free(dist);
    return res;
  }
  long lo = res, hi = sumlat; /* lo infeasible, hi feasible */
  while (hi - lo > 1) {
    long mid = lo + (hi - lo) / 2;
    if (has_pos_cycle(p, mid, dist))
      lo = mid;
    else
      hi = mid;
  }
  free(dist);
  return hi;
}

/* ---- measures ---------------------------------------------------------- */

void twill_gaus_measure(const twill_gaus_problem *p, const twill_gaus_opts *o,
                        const long *t, long ii, twill_gaus_eval_t *ev) {
  memset(ev, 0, sizeof *ev);
  ev->ii = ii;
  long L = 0, end = 1;
  for (int i = 0; i < p->n; i++) {
    if (t[i] + latp(p->lat[i]) > L) L = t[i] + latp(p->lat[i]);
    if (t[i] + use_end(p, i) > end) end = t[i] + use_end(p, i);
  }
  ev->length = L;
  bool modulo = o->form == 'C';
  long T = modulo ? ii : end;
  double *use = calloc((size_t)p->nunits * (size_t)T + 1, sizeof(double));
  long Tm = L + 1;
  double *reg = calloc((size_t)Tm + 1, sizeof(double));
  double *fold = calloc((size_t)ii + 1, sizeof(double));
  if (!use || !reg || !fold) {
    free(use);
    free(reg);
    free(fold);
    ev->objective = INFINITY;
    return;
  }
  for (int i = 0; i < p->n; i++)
    for (int u = p->uoff[i]; u < p->uoff[i + 1]; u++)
      for (int c = 0; c < p->ucycles[u]; c++) {
        long d = t[i] + p->uoffset[u] + c;
        use[(size_t)p->uunit[u] * (size_t)T + (size_t)(modulo ? lmod(d, ii) : d)] +=
            p->ucount[u];
      }
  for (int r = 0; r < p->nunits; r++) {
    double pk = 0;
    for (long d = 0; d < T; d++)
      if (use[(size_t)r * (size_t)T + (size_t)d] > pk) pk = use[(size_t)r * (size_t)T + (size_t)d];
    ev->res_peak += pk;
  }
  for (int e = 0; e < p->ne; e++)
    if (!p->edist[e] && t[p->edst[e]] > t[p->esrc[e]])
      ev->com += p->ecost[e] * (double)(t[p->edst[e]] - t[p->esrc[e]]);
  /* Reg(d): b_i on [t_i, max_j t_j) over distance-0 successors */
  for (int i = 0; i < p->n; i++) {
    long last = -1;
    for (int k = p->out_off[i]; k < p->out_off[i + 1]; k++) {
      int e = p->out_e[k];
      if (!p->edist[e] && t[p->edst[e]] > last) last = t[p->edst[e]];
    }
    if (last > Tm) last = Tm;
    for (long d = t[i]; d < last; d++) reg[d] += p->w[i];
  }
  double pk = 0;
  if (modulo) {
    for (long d = 0; d < Tm; d++) fold[d % ii] += reg[d];
    for (long s = 0; s < ii; s++)
      if (fold[s] > pk) pk = fold[s];
  } else {
    for (long d = 0; d < Tm; d++)
      if (reg[d] > pk) pk = reg[d];
  }
  ev->mem_peak = pk;
  ev->objective = o->form == 'A'   ? ev->res_peak + o->alpha * ev->com
                  : o->form == 'L' ? (double)L
                                   : pk;
  free(use);
  free(reg);
  free(fold);
}
