/* vecenv.h -- internal: the learning tables (vecenv.c) behind the public cc_vec_*
 * entries of api.c (chinchon.h says what each does). */
#ifndef CC_SRC_RL_VECENV_H
#define CC_SRC_RL_VECENV_H

#include "chinchon.h"

#include "base/bits.h"

CC_INTERNAL cc_vec_table *vec_alloc(size_t n);
CC_INTERNAL void vec_free(cc_vec_table *tables);
CC_INTERNAL cc_status vec_reset(const cc_vec_config *cfg, cc_vec_table *tables, size_t i,
                                int negative, const uint64_t *magnitude, float *obs,
                                int8_t *mask);
CC_INTERNAL size_t vec_refused(const cc_vec_table *tables, size_t n, const int64_t *actions);
CC_INTERNAL void vec_sample(const cc_vec_table *tables, size_t n, cc_rng *rng,
                            int64_t *actions);
CC_INTERNAL cc_status vec_step(const cc_vec_config *cfg, cc_vec_table *tables, size_t first,
                               size_t count, const int64_t *actions, float *obs,
                               int8_t *masks, double *rewards, uint8_t *terminated,
                               uint8_t *truncated, uint8_t *refused);

#endif /* CC_SRC_RL_VECENV_H */
