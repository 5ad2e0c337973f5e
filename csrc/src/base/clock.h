/* clock.h -- internal: the core's one clock (clock.c), for time budgets and waits. */
#ifndef CC_SRC_BASE_CLOCK_H
#define CC_SRC_BASE_CLOCK_H

#include "chinchon.h"

#include "base/bits.h"

/* Microseconds of a monotonic clock (processor time where there is none). */
CC_INTERNAL uint64_t cc_now_micros(void);

#endif /* CC_SRC_BASE_CLOCK_H */
