/* core/gaus/gaus_pool.c: persistent worker threads with a generation counter. */
#include "gaus_pool.h"

#include <pthread.h>
#include <stdlib.h>

struct gaus_pool {
  int threads;
  pthread_t *tid;
  pthread_mutex_t mu;
  pthread_cond_t go, done;
  unsigned long gen;
  int pending; /* workers still running the current job */
  int quit;
  gaus_chunk_fn fn;
  void *ctx;
  int nchunks;
};

typedef struct worker_arg {
  gaus_pool *p;
  int k;
} worker_arg;

static void run_share(gaus_pool *p, int k) {
  for (int c = k; c < p->nchunks; c += p->threads) p->fn(p->ctx, c);
}

static void *worker(void *arg) {
  worker_arg *a = arg;
  gaus_pool *p = a->p;
  int k = a->k;
  free(a);
  unsigned long seen = 0;
  for (;;) {
    pthread_mutex_lock(&p->mu);
    while (p->gen == seen && !p->quit) pthread_cond_wait(&p->go, &p->mu);
    if (p->quit) {
      pthread_mutex_unlock(&p->mu);
      return NULL;
    }
    seen = p->gen;
    pthread_mutex_unlock(&p->mu);
    run_share(p, k);
    pthread_mutex_lock(&p->mu);
    if (--p->pending == 0) pthread_cond_signal(&p->done);
    pthread_mutex_unlock(&p->mu);
  }
}

gaus_pool *twill_gaus_pool_new(int threads) {
  if (threads < 1) threads = 1;
  gaus_pool *p = calloc(1, sizeof *p);
  if (!p) return NULL;
  p->threads = threads;
  pthread_mutex_init(&p->mu, NULL);
  pthread_cond_init(&p->go, NULL);
  pthread_cond_init(&p->done, NULL);
  if (threads > 1) {
    p->tid = calloc((size_t)threads, sizeof *p->tid);
    if (!p->tid) {
      twill_gaus_pool_free(p);
      return NULL;
    }
    for (int k = 1; k < threads; k++) {
      worker_arg *a = malloc(sizeof *a);
      if (!a || (a->p = p, a->k = k,
                 pthread_create(&p->tid[k], NULL, worker, a) != 0)) {
        free(a);
        p->threads = k; /* workers 1..k-1 exist */
        twill_gaus_pool_free(p);
        return NULL;
      }
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
  p->fn = fn;
  p->ctx = ctx;
  p->nchunks = nchunks;
  if (p->threads == 1 || nchunks <= 1) {
    for (int c = 0; c < nchunks; c++) fn(ctx, c);
    return;
  }
  pthread_mutex_lock(&p->mu);
  p->pending = p->threads - 1;
  p->gen++;
  pthread_cond_broadcast(&p->go);
  pthread_mutex_unlock(&p->mu);
  run_share(p, 0);
  pthread_mutex_lock(&p->mu);
  while (p->pending > 0) pthread_cond_wait(&p->done, &p->mu);
  pthread_mutex_unlock(&p->mu);
}
