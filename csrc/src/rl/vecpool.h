/* vecpool.h -- internal: the threads that step the learning tables (vecpool.c) behind
 * the public cc_vec_pool_* entries of api.c. */
#ifndef CC_SRC_RL_VECPOOL_H
#define CC_SRC_RL_VECPOOL_H

#include "chinchon.h"

#include "base/bits.h"

CC_INTERNAL cc_vec_pool *pool_new(int threads);
CC_INTERNAL void pool_free(cc_vec_pool *pool);
CC_INTERNAL cc_status pool_step(cc_vec_pool *pool, const cc_vec_config *cfg,
                                cc_vec_table *tables, size_t n, const int64_t *actions,
                                float *obs, int8_t *masks, double *rewards,
                                uint8_t *terminated, uint8_t *truncated, uint8_t *refused);

#endif /* CC_SRC_RL_VECPOOL_H */
