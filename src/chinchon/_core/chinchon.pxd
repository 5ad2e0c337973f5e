# The C core's one public header, csrc/include/chinchon.h, mirrored for Cython in full,
# in the header's order: its constants, types and functions. The status enum is declared
# down to its sentinel, so the binding can check at import that every status has its
# exception (errors.STATUS_ERRORS, keyed by the name cc_status_name gives).

from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t


cdef extern from "chinchon.h" nogil:
    enum:
        CC_NRANKS
        CC_NSUITS
        CC_MAX_HAND
        CC_MAX_MELDS
        CC_MAX_CANDIDATES
    const uint64_t CC_LANE_MASK

    ctypedef enum cc_status:
        CC_OK
        CC_ERR_LANE_BITS
        CC_ERR_TWICE_NOT_SUBSET
        CC_ERR_TOO_MANY_CARDS
        CC_ERR_CARD_COUNT
        CC_ERR_DUPLICATE
        CC_ERR_THREE_COPIES
        CC_ERR_CANNOT_CLOSE
        CC_ERR_BAD_ARGUMENT
        CC_ERR_NOT_IN_DECK
        CC_ERR_INTERRUPTED
        CC_STATUS_END

    ctypedef struct cc_hand:
        uint64_t once
        uint64_t twice

    enum:
        CC_JOKER1_BIT
        CC_JOKER2_BIT
    const uint64_t CC_EIGHTS_NINES

    ctypedef struct cc_variant:
        int deck
        int wild_ace_of_coins
        int jokers
        int joker_points
        int seven_run_wins
        int joker_chinchon

    ctypedef struct cc_rules:
        uint8_t points[CC_NRANKS]
        uint8_t close_limit
        uint16_t max_deadwood
        int minus_ten
        uint64_t plane[5]
        uint8_t deck
        uint8_t wild_ace
        uint8_t jokers
        uint8_t joker_points
        uint8_t seven_run_wins
        uint8_t plain
        uint8_t decks
        int joker_chinchon
        uint64_t joker_mask
        uint64_t card_mask
        uint64_t wplane[5]
        uint8_t wpoints[16]

    ctypedef enum cc_meld_kind:
        CC_SET
        CC_RUN

    ctypedef struct cc_meld:
        cc_hand cards
        uint8_t kind
        uint8_t joker
        uint8_t joker_rank

    ctypedef struct cc_arrangement:
        cc_meld melds[CC_MAX_MELDS]
        int n_melds
        cc_hand unmatched
        int points

    ctypedef enum cc_outcome:
        CC_CANNOT_CLOSE
        CC_NORMAL
        CC_MINUS_TEN
        CC_CHINCHON
        CC_JOKER_CHINCHON

    void cc_rules_default(cc_rules *rules)
    cc_status cc_rules_init(cc_rules *rules, const uint8_t points[CC_NRANKS], int close_limit,
                            int minus_ten)
    cc_status cc_rules_init_variant(cc_rules *rules, const uint8_t points[CC_NRANKS],
                                    int close_limit, int minus_ten, const cc_variant *variant)
    cc_status cc_check_hand(cc_hand h, int max_cards, int *n_cards)
    cc_status cc_deadwood(const cc_rules *rules, cc_hand h, int *points)
    cc_status cc_best_melds(const cc_rules *rules, cc_hand h, cc_arrangement *out)
    cc_status cc_close_outcome(const cc_rules *rules, cc_hand h, cc_outcome *outcome)
    cc_status cc_discard_hints(const cc_rules *rules, cc_hand h, uint16_t points[8],
                               uint8_t *outcomes)
    cc_status cc_deadwood_batch(const cc_rules *rules, const uint64_t *masks, size_t n,
                                int decks, uint8_t *out, size_t *bad_row)
    cc_status cc_hints_batch(const cc_rules *rules, const uint64_t *masks, size_t n,
                             int decks, uint8_t *out, size_t *bad_row)
    cc_status cc_deadwood_batch_wide(const cc_rules *rules, const uint64_t *masks, size_t n,
                                     int decks, uint16_t *out, size_t *bad_row)
    cc_status cc_hints_batch_wide(const cc_rules *rules, const uint64_t *masks, size_t n,
                                  int decks, uint16_t *out, size_t *bad_row)
    ctypedef enum cc_simd:
        CC_SIMD_SCALAR
        CC_SIMD_AVX2
        CC_SIMD_AVX512
        CC_SIMD_NEON
        CC_SIMD_END
    int cc_simd_supported(cc_simd path)
    cc_simd cc_simd_best()
    cc_status cc_simd_use(cc_simd path)
    cc_simd cc_simd_active()
    const char *cc_simd_name(cc_simd path)
    const char *cc_status_message(cc_status status)
    const char *cc_status_name(cc_status status)

    # helpers shared with the settlement code
    int cc_hand_points(const cc_rules *rules, cc_hand h)
    int cc_enumerate_melds(cc_hand h, cc_meld *out, int cap)
    int cc_meld_key_compare(cc_hand x, cc_hand y)
    cc_status cc_best_melds_exhaustive(const cc_rules *rules, cc_hand h, cc_arrangement *out)

    # settlement
    enum:
        CC_HAND_CARDS
        CC_MAX_OPPONENTS
        CC_MAX_TABLE

    ctypedef struct cc_layoff:
        uint8_t card
        uint8_t meld

    ctypedef struct cc_table_meld:
        cc_hand cards
        uint8_t kind
        uint8_t owner
        uint8_t open
        uint8_t joker
        uint8_t joker_rank

    ctypedef struct cc_seat_result:
        cc_meld melds[CC_MAX_MELDS]
        int n_melds
        cc_layoff layoffs[CC_HAND_CARDS]
        int n_layoffs
        cc_hand unmatched
        int points

    ctypedef struct cc_settlement:
        uint8_t outcome
        int decks
        int deadwood
        cc_seat_result closer
        int n_opponents
        cc_seat_result opponents[CC_MAX_OPPONENTS]
        int n_table
        cc_table_meld table[CC_MAX_TABLE]
        int points[6]  # 1 + CC_MAX_OPPONENTS
        int bad_seat
        int bad_card

    cc_status cc_settle(const cc_rules *rules, cc_hand closer, const cc_hand *opponents,
                        int n_opponents, int decks, cc_settlement *out)

    # the outlook: hints one draw ahead
    enum:
        CC_OUTLOOK_COLUMNS

    ctypedef struct cc_prospect:
        uint32_t draws
        uint32_t points_sum
        uint32_t outcomes[5]

    cc_status cc_prospect_of(const cc_rules *rules, cc_hand h7, cc_hand unseen,
                             cc_prospect *out)
    cc_status cc_outlook(const cc_rules *rules, cc_hand h8, cc_hand unseen, uint16_t points[8],
                         uint8_t *outcomes, cc_prospect out[8])
    cc_status cc_outlook_batch(const cc_rules *rules, const uint64_t *masks,
                               const uint64_t *unseen, size_t n, int decks, double *out,
                               size_t *bad_row)

    # the game's random generator
    ctypedef struct cc_rng:
        uint64_t s[4]

    enum:
        CC_RNG_SEED_WORDS

    uint64_t cc_splitmix64_next(uint64_t *state)
    uint64_t cc_rng_derive(int negative, const uint64_t magnitude[CC_RNG_SEED_WORDS],
                           const uint64_t *words, size_t n_words)
    void cc_rng_seed(cc_rng *r, uint64_t derived)
    uint64_t cc_rng_next(cc_rng *r)
    uint32_t cc_rng_below(cc_rng *r, uint32_t n)
    double cc_rng_double(cc_rng *r)
    void cc_rng_shuffle(cc_rng *r, uint8_t *items, size_t n)

    # whole games between the built-in bots
    enum:
        CC_MAX_PLAYERS
        CC_MAX_DECK
        CC_SEARCH_MAX_THREADS

    ctypedef enum cc_bot:
        CC_BOT_RANDOM
        CC_BOT_GREEDY
        CC_BOT_EXPERT
        CC_BOT_SEARCH
        CC_BOT_END

    ctypedef struct cc_game_config:
        cc_rules rules
        int players
        uint8_t bots[CC_MAX_PLAYERS]
        int64_t eliminate_above
        int64_t rejoin_chips
        int first_round_close
        int all_out_lowest
        int void_at_stock
        uint32_t max_turns
        int seed_negative
        uint64_t seed_magnitude[CC_RNG_SEED_WORDS]
        int stale_turns
        double stale_shake
        double wait_for
        uint32_t search_playouts[CC_MAX_PLAYERS]
        uint32_t search_micros[CC_MAX_PLAYERS]
        int (*interrupted)(void *context) noexcept nogil
        void *interrupt_context

    ctypedef enum cc_game_status:
        CC_GAME_WON
        CC_GAME_DRAW
        CC_GAME_STALLED

    enum:
        CC_HAND_VOID

    enum:
        CC_EV_DEAL
        CC_EV_DRAW
        CC_EV_RESHUFFLE
        CC_EV_DISCARD
        CC_EV_HAND
        CC_EV_POINTS
        CC_EV_REJOIN
        CC_EV_END

    ctypedef struct cc_game_record:
        uint8_t status
        int8_t winner
        uint32_t hands
        int64_t totals[CC_MAX_PLAYERS]
        uint32_t rejoins[CC_MAX_PLAYERS]
        size_t n_ended
        size_t cap_ended
        uint32_t *turns
        uint8_t *outcomes
        size_t n_points
        size_t cap_points
        int32_t *points
        uint8_t *point_seats
        size_t n_events
        size_t cap_events
        uint64_t *events

    cc_status cc_play_game(const cc_game_config *config, uint64_t index,
                           cc_game_record *record)

    enum:
        CC_VEC_OBS
        CC_VEC_ACTIONS

    ctypedef struct cc_vec_config:
        cc_game_config game
        int learner
        int hand_rewards
        uint64_t max_turns
        int penalise
        double penalty
        float constant[CC_VEC_OBS]

    ctypedef struct cc_vec_table:
        pass

    cc_vec_table *cc_vec_alloc(size_t n)
    void cc_vec_free(cc_vec_table *tables)
    cc_status cc_vec_reset(const cc_vec_config *cfg, cc_vec_table *tables, size_t i,
                           int negative, const uint64_t *magnitude, float *obs,
                           int8_t *mask) nogil
    void cc_vec_sample(const cc_vec_table *tables, size_t n, cc_rng *rng,
                       int64_t *actions) nogil
    size_t cc_vec_refused(const cc_vec_table *tables, size_t n, const int64_t *actions) nogil
    ctypedef struct cc_vec_pool:
        pass

    cc_vec_pool *cc_vec_pool_new(int threads)
    void cc_vec_pool_free(cc_vec_pool *pool)
    cc_status cc_vec_step_all(cc_vec_pool *pool, const cc_vec_config *cfg,
                              cc_vec_table *tables, size_t n, const int64_t *actions,
                              float *obs, int8_t *masks, double *rewards,
                              uint8_t *terminated, uint8_t *truncated, uint8_t *refused) nogil
    cc_status cc_vec_step(const cc_vec_config *cfg, cc_vec_table *tables, size_t first,
                          size_t count, const int64_t *actions, float *obs, int8_t *masks,
                          double *rewards, uint8_t *terminated, uint8_t *truncated,
                          uint8_t *refused) nogil
    # the search bot
    ctypedef struct cc_search_view:
        const cc_game_config *config
        int seat
        int discard
        cc_hand held
        uint8_t pile[CC_MAX_DECK]
        int pile_n
        cc_hand taken[CC_MAX_PLAYERS]
        int has_restocked
        cc_hand restocked
        int stock_n
        int64_t totals[CC_MAX_PLAYERS]
        int64_t chips[CC_MAX_PLAYERS]
        uint8_t in_ "in"[CC_MAX_PLAYERS]
        int lead
        uint32_t hand_number
        uint32_t turns
        int has_prev_discard
        uint8_t prev_discard

    cc_status cc_search_choose(const cc_search_view *view, uint32_t playouts,
                               uint32_t micros, int threads, uint64_t seed, int *choice,
                               int *close)
