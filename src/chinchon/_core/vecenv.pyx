# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: freethreading_compatible = True
"""The learning tables of chinchon.rl.VectorEnv (``cc_vec_*``): every table stepped in
C without the GIL, over ``threads`` threads (the core's pool, csrc/src/rl/vecpool.c;
one thread where it has no POSIX threads). The checks of the arguments are
chinchon.rl.vector's; this module checks what the C side needs (the buffers' sizes).
"""

from libc.stdint cimport int8_t, int64_t, uint8_t, uint64_t

from .chinchon cimport (CC_MAX_PLAYERS, CC_OK,
                        CC_RNG_SEED_WORDS, CC_VEC_ACTIONS, CC_VEC_OBS, cc_status,
                        cc_rng, cc_rng_derive, cc_rng_seed, cc_vec_alloc, cc_vec_config, cc_vec_free,
                        cc_vec_pool,
                        cc_vec_pool_free, cc_vec_pool_new, cc_vec_refused, cc_vec_reset,
                        cc_vec_sample, cc_vec_step_all, cc_vec_table)
from ._common cimport crules_of, raise_status, seat_bot

from ..errors import ChinchonError

#: the observation's and the mask's sizes in the C core (chinchon.rl checks them
#: against chinchon.rl.encoding)
OBS_SIZE = CC_VEC_OBS
N_ACTIONS = CC_VEC_ACTIONS

cdef class Tables:
    """``n`` tables of one configuration (see chinchon.rl.VectorEnv)."""
    cdef cc_vec_config cfg
    cdef cc_vec_table *tables
    cdef cc_vec_pool *pool
    cdef cc_rng rng
    cdef readonly Py_ssize_t n
    cdef readonly int threads

    def __cinit__(self, Py_ssize_t n, int players, bots, rules, int learner,
                  bint hand_rewards, max_turns, penalty, const float[::1] constant,
                  int stale_turns, double stale_shake, double wait_for, int threads):
        cdef int s
        self.tables = NULL
        self.pool = NULL
        if n < 1 or not 2 <= players <= CC_MAX_PLAYERS or len(bots) != players:
            raise ChinchonError("bad table configuration")
        if constant.shape[0] != CC_VEC_OBS:
            raise ChinchonError(f"the constant observation has {CC_VEC_OBS} numbers")
        self.cfg.game.rules = crules_of(rules).r
        self.cfg.game.players = players
        for s in range(players):
            seat_bot(&self.cfg.game, s, bots[s])
        self.cfg.game.eliminate_above = rules.eliminate_above
        self.cfg.game.rejoin_chips = rules.rejoin_chips
        self.cfg.game.first_round_close = 1 if rules.first_round_close else 0
        self.cfg.game.all_out_lowest = 1 if rules.all_out == "lowest" else 0
        self.cfg.game.void_at_stock = -1 if rules.void_at_stock is None else rules.void_at_stock
        self.cfg.game.max_turns = 1
        self.cfg.game.stale_turns = stale_turns
        self.cfg.game.stale_shake = stale_shake
        self.cfg.game.wait_for = wait_for
        self.cfg.learner = learner
        self.cfg.hand_rewards = 1 if hand_rewards else 0
        self.cfg.max_turns = 0 if max_turns is None else max_turns
        self.cfg.penalise = 0 if penalty is None else 1
        self.cfg.penalty = 0.0 if penalty is None else penalty
        for s in range(CC_VEC_OBS):
            self.cfg.constant[s] = constant[s]
        self.n = n
        self.threads = max(1, threads)
        self.tables = cc_vec_alloc(<size_t>n)
        self.pool = cc_vec_pool_new(self.threads)
        if self.tables == NULL or self.pool == NULL:
            raise MemoryError()

    def __dealloc__(self):
        cc_vec_pool_free(self.pool)
        cc_vec_free(self.tables)

    def reset(self, Py_ssize_t i, seed, float[:, ::1] obs, int8_t[:, ::1] masks):
        """Start table ``i``'s game: game 0 of ``seed`` (an int of at most 256 bits), or
        with ``seed`` None its next game; its rows of ``obs`` and ``masks`` written."""
        cdef uint64_t mag[CC_RNG_SEED_WORDS]
        cdef int negative = 0, k
        cdef cc_status st
        self._check(obs, masks)
        if not 0 <= i < self.n:
            raise ChinchonError(f"no table {i}")
        if seed is not None:
            negative = 1 if seed < 0 else 0
            m = -seed if seed < 0 else seed
            for k in range(CC_RNG_SEED_WORDS):
                mag[k] = (m >> (64 * k)) & 0xFFFFFFFFFFFFFFFF
        with nogil:
            st = cc_vec_reset(&self.cfg, self.tables, <size_t>i, negative,
                              mag if seed is not None else NULL, &obs[i, 0], &masks[i, 0])
        if st != CC_OK:
            raise_status(st)

    def seed_sample(self, seed, stream=None):
        """Seed the generator of :meth:`sample` (an int of at most 256 bits; with
        ``stream``, a 64-bit word, another generator of the same seed)."""
        cdef uint64_t mag[CC_RNG_SEED_WORDS]
        cdef uint64_t word = 0
        cdef int k
        m = -seed if seed < 0 else seed
        for k in range(CC_RNG_SEED_WORDS):
            mag[k] = (m >> (64 * k)) & 0xFFFFFFFFFFFFFFFF
        if stream is not None:
            word = stream
        cc_rng_seed(&self.rng, cc_rng_derive(1 if seed < 0 else 0, mag,
                                             &word if stream is not None else NULL,
                                             1 if stream is not None else 0))

    def sample(self, int64_t[::1] actions):
        """A uniformly random allowed action of each table into ``actions``."""
        if actions.shape[0] != self.n:
            raise ChinchonError(f"{self.n} actions needed")
        with nogil:
            cc_vec_sample(self.tables, <size_t>self.n, &self.rng, &actions[0])

    def refused(self, const int64_t[::1] actions):
        """The first table whose action is outside its mask (``n`` when none)."""
        if actions.shape[0] != self.n:
            raise ChinchonError(f"{self.n} actions needed")
        return cc_vec_refused(self.tables, <size_t>self.n, &actions[0])

    def step(self, const int64_t[::1] actions, float[:, ::1] obs, int8_t[:, ::1] masks,
             double[::1] rewards, uint8_t[::1] terminated, uint8_t[::1] truncated,
             uint8_t[::1] refused):
        """Step every table (the actions checked by :meth:`refused` first unless the
        penalty is on), writing each one's row of every buffer; without the GIL."""
        cdef Py_ssize_t n = self.n
        cdef cc_status st
        self._check(obs, masks)
        if (actions.shape[0] != n or rewards.shape[0] != n or terminated.shape[0] != n
                or truncated.shape[0] != n or refused.shape[0] != n):
            raise ChinchonError(f"every buffer needs {n} rows")
        with nogil:
            st = cc_vec_step_all(self.pool, &self.cfg, self.tables, <size_t>n, &actions[0],
                                 &obs[0, 0], &masks[0, 0], &rewards[0], &terminated[0],
                                 &truncated[0], &refused[0])
        if st != CC_OK:
            raise_status(st)

    cdef int _check(self, float[:, ::1] obs, int8_t[:, ::1] masks) except -1:
        if (obs.shape[0] != self.n or obs.shape[1] != CC_VEC_OBS or masks.shape[0] != self.n
                or masks.shape[1] != CC_VEC_ACTIONS):
            raise ChinchonError(f"the buffers must be ({self.n}, {CC_VEC_OBS}) and "
                                f"({self.n}, {CC_VEC_ACTIONS})")
        return 0
