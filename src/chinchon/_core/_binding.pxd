# The C core's public header, csrc/include/chinchon.h, mirrored for Cython: every type, status
# and function the binding calls. The status enum is declared in full, down to its
# sentinel, so that the binding maps each status to its exception by name.

from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint32_t, uint64_t


cdef extern from "chinchon.h" nogil:
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
        CC_STATUS_END

    ctypedef struct cc_hand:
        uint64_t once
        uint64_t twice

    ctypedef struct cc_rules:
        uint8_t points[12]
        uint8_t close_limit
        int minus_ten
        uint8_t plain
        uint8_t decks

    ctypedef struct cc_variant:
        int deck
        int wild_ace_of_coins
        int jokers
        int joker_points
        int seven_run_wins
        int joker_chinchon

    ctypedef struct cc_meld:
        cc_hand cards
        uint8_t kind
        uint8_t joker
        uint8_t joker_rank

    ctypedef struct cc_arrangement:
        cc_meld melds[2]
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
    cc_status cc_rules_init_variant(cc_rules *rules, const uint8_t *points, int close_limit,
                                    int minus_ten, const cc_variant *variant)
    cc_status cc_deadwood(const cc_rules *rules, cc_hand h, int *points)
    cc_status cc_best_melds(const cc_rules *rules, cc_hand h, cc_arrangement *out)
    cc_status cc_close_outcome(const cc_rules *rules, cc_hand h, cc_outcome *outcome)
    cc_status cc_discard_hints(const cc_rules *rules, cc_hand h, uint8_t points[8],
                               uint8_t *outcomes)
    cc_status cc_deadwood_batch(const cc_rules *rules, const uint64_t *masks, size_t n,
                                int decks, uint8_t *out, size_t *bad_row)
    cc_status cc_hints_batch(const cc_rules *rules, const uint64_t *masks, size_t n,
                             int decks, uint8_t *out, size_t *bad_row)
    const char *cc_status_message(cc_status status)
    const char *cc_status_name(cc_status status)

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
        cc_meld melds[2]
        int n_melds
        cc_layoff layoffs[7]
        int n_layoffs
        cc_hand unmatched
        int points

    ctypedef struct cc_settlement:
        uint8_t outcome
        int decks
        int deadwood
        cc_seat_result closer
        int n_opponents
        cc_seat_result opponents[5]
        int n_table
        cc_table_meld table[12]
        int points[6]
        int bad_seat
        int bad_card

    cc_status cc_settle(const cc_rules *rules, cc_hand closer, const cc_hand *opponents,
                        int n_opponents, int decks, cc_settlement *out)


    # the outlook (csrc/src/outlook.c)
    ctypedef struct cc_prospect:
        uint32_t draws
        uint32_t points_sum
        uint32_t outcomes[5]

    int CC_OUTLOOK_COLUMNS
    cc_status cc_prospect_of(const cc_rules *rules, cc_hand h7, cc_hand unseen,
                             cc_prospect *out)
    cc_status cc_outlook(const cc_rules *rules, cc_hand h8, cc_hand unseen, uint8_t points[8],
                         uint8_t *outcomes, cc_prospect out[8])
    cc_status cc_outlook_batch(const cc_rules *rules, const uint64_t *masks,
                               const uint64_t *unseen, size_t n, int decks, double *out,
                               size_t *bad_row)

    # the game's random generator (csrc/src/rng.c)
    ctypedef struct cc_rng:
        uint64_t s[4]

    int CC_RNG_SEED_WORDS
    uint64_t cc_splitmix64_next(uint64_t *state)
    uint64_t cc_rng_derive(int negative, const uint64_t *magnitude, const uint64_t *words,
                           size_t n_words)
    void cc_rng_seed(cc_rng *r, uint64_t derived)
    uint64_t cc_rng_next(cc_rng *r)
    uint32_t cc_rng_below(cc_rng *r, uint32_t n)
    double cc_rng_double(cc_rng *r)
    void cc_rng_shuffle(cc_rng *r, uint8_t *items, size_t n)

    # whole games between the built-in bots (csrc/src/engine.c)
    int CC_MAX_PLAYERS
    int CC_HAND_VOID
    ctypedef enum cc_bot:
        CC_BOT_RANDOM
        CC_BOT_GREEDY
        CC_BOT_EXPERT
        CC_BOT_END

    ctypedef enum cc_game_status:
        CC_GAME_WON
        CC_GAME_DRAW
        CC_GAME_STALLED

    ctypedef struct cc_game_config:
        cc_rules rules
        int players
        uint8_t bots[6]
        int64_t eliminate_above
        int64_t rejoin_chips
        int first_round_close
        int all_out_lowest
        int void_at_stock
        uint32_t max_turns
        int seed_negative
        uint64_t seed_magnitude[4]
        int stale_turns
        double stale_shake
        double wait_for

    ctypedef struct cc_game_record:
        uint8_t status
        int8_t winner
        uint32_t hands
        int64_t totals[6]
        uint32_t rejoins[6]
        size_t n_ended
        size_t cap_ended
        uint32_t *turns
        uint8_t *outcomes
        size_t n_points
        size_t cap_points
        int32_t *points
        size_t n_events
        size_t cap_events
        uint64_t *events

    cc_status cc_play_game(const cc_game_config *config, uint64_t index,
                           cc_game_record *record)


# the core's count-trailing-zeros (csrc/src/bits.h: builtin, MSVC intrinsic or fallback)
cdef extern from "bits.h" nogil:
    int cc_ctz(uint64_t x)  # x != 0
