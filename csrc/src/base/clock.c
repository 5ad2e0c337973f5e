/* clock.c -- the core's one clock: the search bot's time budget (search/search.c) and
 * the vector pool's bounded waits (rl/vecpool.c) read it. */

#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#endif

#include <time.h>

#include "base/clock.h"

uint64_t cc_now_micros(void)
{
#if defined(_WIN32)
    return (uint64_t)((double)clock() * 1e6 / CLOCKS_PER_SEC);
#else
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
#endif
}
