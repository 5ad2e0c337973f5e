/* The threads of the learning tables: a step's tables are cut into runs of a few dozen
 * tables that the calling thread and the pool's workers take in turn, each run stepped
 * by vec_step (vecenv.c), the caller from the front, the workers from the back. A worker
 * that wakes late finds nothing left and sleeps again: the caller never waits for a
 * thread that has not started, only for runs in progress.
 *
 * Waking a sleeping thread costs tens of microseconds here, a good part of a step of
 * 1,024 tables (~300 us on one thread), so neither side sleeps at once: between steps
 * a worker watches the step counter for POOL_WORKER_SPIN_US (a learner's steps come
 * back to back), and a caller whose runs are done watches the finished counter for
 * POOL_CALLER_SPIN_US (the last run in progress ends within a run's time) before each
 * sleeps on a condition variable. The watching loops pause the CPU between reads.
 *
 * POSIX threads; elsewhere (Windows) the pool has no workers and the caller steps every
 * table. */

#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200112L /* pthreads under -std=c99 */
#endif

#include <stdlib.h>

#include "base/clock.h"
#include "rl/vecenv.h"
#include "rl/vecpool.h"

#if defined(_WIN32) || (!defined(__unix__) && !defined(__APPLE__))
#define POOL_THREADS 0
#else
#define POOL_THREADS 1
#include <pthread.h>
#endif

#define POOL_MAX_WORKERS 63
#define POOL_RUN_MIN 16 /* tables per run at least */

struct cc_vec_pool {
    int workers;
#if POOL_THREADS
    pthread_t thread[POOL_MAX_WORKERS];
    pthread_mutex_t lock;
    pthread_cond_t work, done;
#endif
    /* the step in hand (set under the lock) */
    const cc_vec_config *cfg;
    cc_vec_table *tables;
    const int64_t *actions;
    float *obs;
    int8_t *masks;
    double *rewards;
    uint8_t *terminated, *truncated, *refused;
    size_t n, run;       /* tables, tables per run */
    size_t next, end;    /* the tables not taken: next..end-1 */
    int busy;            /* runs in progress */
    int stop;
    unsigned posted;     /* steps posted so far (read without the lock: atomics) */
    unsigned finished;   /* the last step whose runs all ended (likewise) */
    cc_status status;
};

/* Step the run of tables first..first+count-1 of the step in hand. */
static cc_status run_tables(const cc_vec_pool *p, size_t first, size_t count)
{
    return vec_step(p->cfg, p->tables, first, count, p->actions, p->obs, p->masks,
                    p->rewards, p->terminated, p->truncated, p->refused);
}

#if POOL_THREADS
#if defined(__GNUC__) || defined(__clang__)
#define POOL_SPIN_US_WORKER 200 /* a worker's watch for the next step */
#define POOL_SPIN_US_CALLER 500 /* a caller's watch for the last run in progress */
#define LOAD(x) __atomic_load_n(&(x), __ATOMIC_ACQUIRE)
#define STORE(x, v) __atomic_store_n(&(x), (v), __ATOMIC_RELEASE)
#else
#define POOL_SPIN_US_WORKER 0
#define POOL_SPIN_US_CALLER 0
#define LOAD(x) (x)
#define STORE(x, v) ((x) = (v))
#endif

/* A hint to the CPU that this thread is waiting (frees the core's pipeline for the
 * other thread of a hyperthreaded core, saves power). */
static void relax(void)
{
#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
    __builtin_ia32_pause();
#elif (defined(__GNUC__) || defined(__clang__)) && defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

/* Watch *counter without the lock until it is no longer `was` or `us` microseconds
 * have passed; 1 when it changed. */
static int watch(const unsigned *counter, unsigned was, unsigned us)
{
    uint64_t until = 0;
    unsigned k;
    if (us == 0)
        return 0;
    for (k = 1;; k++) {
        if (LOAD(*counter) != was)
            return 1;
        relax();
        if (k % 64 == 0) { /* the clock every 64 reads: ~2 us of pauses */
            const uint64_t t = cc_now_micros();
            if (until == 0)
                until = t + us;
            else if (t >= until)
                return 0;
        }
    }
}

/* Take runs while there are, from the front (the caller) or the back (the workers):
 * step after step each thread mostly gets the tables it had, still in its cache. The
 * lock held on entry and on return. */
static void take_runs(cc_vec_pool *p, int back)
{
    while (p->next < p->end) {
        const size_t count = p->end - p->next < p->run ? p->end - p->next : p->run;
        size_t first;
        cc_status st;
        if (back) {
            p->end -= count;
            first = p->end;
        } else {
            first = p->next;
            p->next += count;
        }
        p->busy++;
        pthread_mutex_unlock(&p->lock);
        st = run_tables(p, first, count);
        pthread_mutex_lock(&p->lock);
        if (st != CC_OK)
            p->status = st;
        if (--p->busy == 0 && p->next >= p->end) {
            STORE(p->finished, p->posted);
            pthread_cond_signal(&p->done);
        }
    }
}

static void *worker(void *arg)
{
    cc_vec_pool *p = (cc_vec_pool *)arg;
    unsigned seen;
    pthread_mutex_lock(&p->lock);
    seen = p->posted;
    for (;;) {
        if (p->next >= p->end && !p->stop) {
            /* watch for the next step a while without the lock, then sleep */
            pthread_mutex_unlock(&p->lock);
            (void)watch(&p->posted, seen, POOL_SPIN_US_WORKER);
            pthread_mutex_lock(&p->lock);
        }
        while (!p->stop && p->next >= p->end)
            pthread_cond_wait(&p->work, &p->lock);
        if (p->stop)
            break;
        seen = p->posted;
        take_runs(p, 1);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}
#endif

cc_vec_pool *pool_new(int threads)
{
    cc_vec_pool *p = (cc_vec_pool *)calloc(1, sizeof(cc_vec_pool));
    if (p == NULL)
        return NULL;
#if POOL_THREADS
    if (pthread_mutex_init(&p->lock, NULL) != 0) {
        free(p);
        return NULL;
    }
    if (pthread_cond_init(&p->work, NULL) != 0) {
        pthread_mutex_destroy(&p->lock);
        free(p);
        return NULL;
    }
    if (pthread_cond_init(&p->done, NULL) != 0) {
        pthread_cond_destroy(&p->work);
        pthread_mutex_destroy(&p->lock);
        free(p);
        return NULL;
    }
    threads = threads < 1 ? 1 : threads > POOL_MAX_WORKERS + 1 ? POOL_MAX_WORKERS + 1 : threads;
    while (p->workers < threads - 1
           && pthread_create(&p->thread[p->workers], NULL, worker, p) == 0)
        p->workers++;
#else
    (void)threads;
#endif
    return p;
}

void pool_free(cc_vec_pool *p)
{
    if (p == NULL)
        return;
#if POOL_THREADS
    {
        int k;
        pthread_mutex_lock(&p->lock);
        p->stop = 1;
        pthread_cond_broadcast(&p->work);
        pthread_mutex_unlock(&p->lock);
        for (k = 0; k < p->workers; k++)
            pthread_join(p->thread[k], NULL);
        pthread_cond_destroy(&p->work);
        pthread_cond_destroy(&p->done);
        pthread_mutex_destroy(&p->lock);
    }
#endif
    free(p);
}

cc_status pool_step(cc_vec_pool *p, const cc_vec_config *cfg, cc_vec_table *tables,
                    size_t n, const int64_t *actions, float *obs, int8_t *masks,
                    double *rewards, uint8_t *terminated, uint8_t *truncated,
                    uint8_t *refused)
{
    cc_status st;
    p->cfg = cfg;
    p->tables = tables;
    p->actions = actions;
    p->obs = obs;
    p->masks = masks;
    p->rewards = rewards;
    p->terminated = terminated;
    p->truncated = truncated;
    p->refused = refused;
    if (p->workers == 0)
        return run_tables(p, 0, n);
#if POOL_THREADS
    pthread_mutex_lock(&p->lock);
    p->status = CC_OK;
    p->run = n / (size_t)(8 * (p->workers + 1));
    if (p->run < POOL_RUN_MIN)
        p->run = POOL_RUN_MIN;
    p->n = p->end = n;
    p->next = 0;
    p->busy = 0;
    STORE(p->posted, p->posted + 1u);
    pthread_cond_broadcast(&p->work);
    take_runs(p, 0);
    if (p->busy > 0) {
        /* the runs left are in progress: watch for their end a while, then sleep */
        const unsigned step = p->posted, last = LOAD(p->finished);
        pthread_mutex_unlock(&p->lock);
        if (last != step)
            (void)watch(&p->finished, last, POOL_SPIN_US_CALLER);
        pthread_mutex_lock(&p->lock);
    }
    while (p->busy > 0)
        pthread_cond_wait(&p->done, &p->lock);
    st = p->status;
    p->n = p->next = p->end = 0;
    pthread_mutex_unlock(&p->lock);
#else
    st = CC_OK;
#endif
    return st;
}
