/* core/gaus/gaus_pool.h: a tiny persistent pthread pool for GauS.
 *
 * twill_gaus_pool_run(pool, fn, ctx, nchunks) calls fn(ctx, c) for every chunk
 * c in [0, nchunks), each chunk on whichever thread claims it first (the
 * caller included), and returns when all are done.  Chunks must write
 * disjoint memory; the result never depends on T or on who ran what.
 */
#ifndef TWILL_GAUS_POOL_H
#define TWILL_GAUS_POOL_H

typedef void (*gaus_chunk_fn)(void *ctx, int chunk);
typedef struct gaus_pool gaus_pool;

/* threads >= 1; NULL on failure. */
gaus_pool *twill_gaus_pool_new(int threads);
void twill_gaus_pool_free(gaus_pool *p);
void twill_gaus_pool_run(gaus_pool *p, gaus_chunk_fn fn, void *ctx, int nchunks);

#endif
