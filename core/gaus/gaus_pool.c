/* core/gaus/gaus_pool.c: persistent worker threads that claim chunks.
 *
 * Each job's chunks are claimed one at a time from a shared counter, by
 * the calling thread and by whichever workers are awake, and the job ends
 * when every chunk is done, not when every worker has checked in.  So a
 * worker the scheduler has not run yet (a loaded machine) costs nothing:
 * the caller takes its chunks.  (Dealing chunks out by thread number made
 * every phase wait for the slowest thread to be scheduled: on the shared
 * 2-core machine, at load 10, two threads ran the 5,000-op loop 3.6x
 * slower than one.)  Which thread runs a chunk never matters: chunks
 * write disjoint memory and results are reduced in chunk order.
 *
 * The counter holds the job's generation in its high 32 bits and the next
 * chunk in its low 32 bits, so a worker still holding an old job's
 * parameters cannot claim a chunk of the next one (its compare-and-swap
 * sees another generation).  A claimed chunk is always finished before
 * the caller returns, so no worker touches a job's chunks after it ends.
 */
#include "gaus_pool.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

struct gaus_pool {
  int threads;
  pthread_t *tid;
  pthread_mutex_t mu;
  pthread_cond_t go, done;
  unsigned long gen; /* the current job (under mu) */
  int quit;
  gaus_chunk_fn fn;  /* the current job's parameters (under mu) */
  void *ctx;
  int nchunks;
  _Atomic uint64_t claim; /* (generation << 32) | next chunk */
  atomic_int finished;    /* chunks of the current job done */
};

/* Claim and run chunks of job `gen` (fn, ctx, nchunks as read for it). */
static void work(gaus_pool *p, unsigned long gen, gaus_chunk_fn fn, void *ctx,
                 int nchunks) {
  uint64_t tag = (uint64_t)(gen & 0xffffffffu) << 32;
  for (;;) {
    uint64_t cur = atomic_load(&p->claim);
    int c;
    for (;;) {
      if ((cur & 0xffffffff00000000ull) != tag) return; /* another job */
      c = (int)(cur & 0xffffffffu);
      if (c >= nchunks) return;
      if (atomic_compare_exchange_weak(&p->claim, &cur, cur + 1)) break;
    }
    fn(ctx, c);
    if (atomic_fetch_add(&p->finished, 1) + 1 == nchunks) {
      pthread_mutex_lock(&p->mu);
      pthread_cond_signal(&p->done);
      pthread_mutex_unlock(&p->mu);
    }
  }
}

static void *worker(void *arg) {
  gaus_pool *p = arg;
  unsigned long seen = 0;
  for (;;) {
    pthread_mutex_lock(&p->mu);
    while (p->gen == seen && !p->quit) pthread_cond_wait(&p->go, &p->mu);
    if (p->quit) {
      pthread_mutex_unlock(&p->mu);
      return NULL;
    }
    seen = p->gen;
    gaus_chunk_fn fn = p->fn;
    void *ctx = p->ctx;
    int nchunks = p->nchunks;
    pthread_mutex_unlock(&p->mu);
    work(p, seen, fn, ctx, nchunks);
  }
}

gaus_pool *twill_gaus_pool_new(int threads) {
  if (threads < 1) threads = 1;
  gaus_pool *p = calloc(1, sizeof *p);
  if (!p) return NULL;
  p->threads = threads;
  atomic_init(&p->claim, 0);
  atomic_init(&p->finished, 0);
  pthread_mutex_init(&p->mu, NULL);
  pthread_cond_init(&p->go, NULL);
  pthread_cond_init(&p->done, NULL);
  if (threads > 1) {
    p->tid = calloc((size_t)threads, sizeof *p->tid);
    if (!p->tid) {
      twill_gaus_pool_free(p);
      return NULL;
    }
    for (int k = 1; k < threads; k++)
      if (pthread_create(&p->tid[k], NULL, worker, p) != 0) {
        p->threads = k; /* workers 1..k-1 exist */
        twill_gaus_pool_free(p);
        return NULL;
      }
  }
  return p;
}

void twill_gaus_pool_free(gaus_pool *p) {
  if (!p) return;
  if (p->tid) {
    pthread_mutex_lock(&p->mu);
    p->quit = 1;
    pthread_cond_broadcast(&p->go);
    pthread_mutex_unlock(&p->mu);
    for (int k = 1; k < p->threads; k++) pthread_join(p->tid[k], NULL);
    free(p->tid);
  }
  pthread_mutex_destroy(&p->mu);
  pthread_cond_destroy(&p->go);
  pthread_cond_destroy(&p->done);
  free(p);
}

void twill_gaus_pool_run(gaus_pool *p, gaus_chunk_fn fn, void *ctx, int nchunks) {
  if (p->threads == 1 || nchunks <= 1) {
    for (int c = 0; c < nchunks; c++) fn(ctx, c);
    return;
  }
  pthread_mutex_lock(&p->mu);
  p->gen++;
  p->fn = fn;
  p->ctx = ctx;
  p->nchunks = nchunks;
  atomic_store(&p->finished, 0);
  atomic_store(&p->claim, (uint64_t)(p->gen & 0xffffffffu) << 32);
  unsigned long gen = p->gen;
  pthread_cond_broadcast(&p->go);
  pthread_mutex_unlock(&p->mu);
  work(p, gen, fn, ctx, nchunks);
  pthread_mutex_lock(&p->mu);
  while (atomic_load(&p->finished) < nchunks) pthread_cond_wait(&p->done, &p->mu);
  pthread_mutex_unlock(&p->mu);
}
