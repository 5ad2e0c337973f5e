/*
 * chinchon.h -- the one public header of the chinchon C core.
 *
 * Plain C99, no Python headers. Every exported name carries the cc_ prefix.
 * Every function that can fail returns a cc_status and writes its results through
 * out-parameters; nothing allocates on the hot path.
 *
 * Card encoding (public, stable): bit index = 16 * suit + (rank - 1), suits
 * o=0, c=1, e=2, b=3; bits 12-15 of each 16-bit lane are always zero. A hand is a
 * cc_hand {once, twice}: cards held at least once, cards held twice (twice is a
 * subset of once; zero with one deck). Tie-breaking rules: docs/rules.md#which-arrangement-is-reported.
 */
#ifndef CHINCHON_H
#define CHINCHON_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CC_NRANKS 12
#define CC_NSUITS 4
#define CC_LANE_MASK UINT64_C(0x0FFF0FFF0FFF0FFF)
#define CC_MAX_HAND 8  /* largest hand the meld search takes */
#define CC_MAX_MELDS 2 /* 8 cards never hold three disjoint melds */
#define CC_MAX_CANDIDATES 66 /* most candidate melds of a hand of <= 8 cards
                                (eight cards of one rank, two decks) */

typedef enum cc_status {
    CC_OK = 0,
    CC_ERR_LANE_BITS,       /* a bit outside the 12 rank bits of a lane is set */
    CC_ERR_TWICE_NOT_SUBSET,/* twice holds a card that once does not */
    CC_ERR_TOO_MANY_CARDS,  /* more than CC_MAX_HAND cards */
    CC_ERR_CARD_COUNT,      /* not the number of cards this call needs */
    CC_ERR_DUPLICATE,       /* a card twice in single-deck play */
    CC_ERR_THREE_COPIES,    /* a card in play more than twice */
    CC_ERR_CANNOT_CLOSE,    /* the closer's deadwood is over the close limit */
    CC_ERR_BAD_ARGUMENT,    /* a rules table or count out of range */
    CC_ERR_NOT_IN_DECK,     /* a natural card the rules' deck lacks (an 8 or 9, deck 40) */
    CC_ERR_INTERRUPTED,     /* cc_game_config.interrupted asked to stop the game */
    CC_STATUS_END           /* sentinel: number of status codes */
} cc_status;

typedef struct cc_hand {
    uint64_t once;
    uint64_t twice;
} cc_hand;

#define CC_JOKER1_BIT 12 /* the extra joker cards (docs/rules.md#the-variant-encoding): *1 and *2 */
#define CC_JOKER2_BIT 28
#define CC_EIGHTS_NINES UINT64_C(0x0180018001800180) /* not in the 40-card deck */
#define CC_MAX_CARD_POINTS 31  /* the most a natural card's rank may be worth */
#define CC_MAX_JOKER_POINTS 50 /* the most a joker may be worth */

/* The rule variants (docs/rules.md#rule-fields) beyond the point table, close limit and minus ten: what
 * cc_rules_init_variant takes. cc_rules_init gives the house values (48, 0, 0, 25, 1, 25). */
typedef struct cc_variant {
    int deck;              /* 48 (ranks 1-12) or 40 (no 8s/9s; the jack follows the 7) */
    int wild_ace_of_coins; /* 0/1: bit 0 (1o, every copy) is a joker */
    int jokers;            /* 0..2 extra jokers per deck: bit 12 (*1), then bit 28 (*2) */
    int joker_points;      /* 0..50: points of a joker left unmatched */
    int seven_run_wins;    /* 0/1: a natural 7-card run is chinchon (else minus ten) */
    int joker_chinchon;    /* >= 0: a 7-card run with one joker scores -joker_chinchon;
                              -1: none (such a close is minus ten) */
} cc_variant;

/* Everything a rule variant means to the solver. Build it with cc_rules_init,
 * cc_rules_init_variant (or cc_rules_default); max_deadwood and the fields after
 * minus_ten are derived or set by those and read by the solver only. */
typedef struct cc_rules {
    uint8_t points[CC_NRANKS]; /* points of ranks 1..12 (index rank-1), 0..31 */
    uint8_t close_limit;       /* closing allowed with deadwood <= close_limit */
    uint16_t max_deadwood;     /* derived: the most points 8 cards can leave unmatched,
                                  two decks' jokers counted (at most 8 x 50 = 400): over
                                  255 only the _wide batches hold the scores */
    int minus_ten;             /* a close with every card melded scores -minus_ten (>= 0) */
    uint64_t plane[5];         /* derived: bit k of a card's points, as a card mask (the
                                  joker bits in play: joker_points; bit 5 of a joker's,
                                  32, is not in these: cc_hand_points adds it) */
    /* docs/rules.md#rule-variants variants (cc_variant) */
    uint8_t deck;              /* 48 or 40 */
    uint8_t wild_ace;          /* 0/1 */
    uint8_t jokers;            /* 0..2 */
    uint8_t joker_points;      /* 0..50 */
    uint8_t seven_run_wins;    /* 0/1 */
    uint8_t plain;             /* derived: 48 cards, no jokers, seven_run_wins -- the house
                                  solver (any point table) runs unchanged */
    uint8_t decks;             /* set capacity: 1 or 2 decks, 0 = 2 when a card of the
                                  hand is held twice (the batch calls use their decks) */
    int joker_chinchon;        /* >= 0, or -1 for none */
    uint64_t joker_mask;       /* derived: the bits read as jokers */
    uint64_t card_mask;        /* derived: every bit that is a card of the deck */
    uint64_t wplane[5];        /* derived: the natural cards' planes in the run-order
                                  space (40 cards: ranks 10-12 at bits 7-9 of a lane) */
    uint8_t wpoints[16];       /* derived: points by place in the run order (a lane's
                                  16 bits; places past the deck's, and 12-15, are 0) */
} cc_rules;

typedef enum cc_meld_kind { CC_SET = 0, CC_RUN = 1 } cc_meld_kind;

/* A meld: its cards (the joker's bit included), kind, and with a joker (joker_rank != 0)
 * the joker's bit index and the rank (1..12) it stands for (a set: the set's rank). */
typedef struct cc_meld {
    cc_hand cards;
    uint8_t kind;       /* cc_meld_kind */
    uint8_t joker;      /* bit index of the joker (0 when none: read joker_rank) */
    uint8_t joker_rank; /* 0: no joker */
} cc_meld;

typedef struct cc_arrangement {
    cc_meld melds[CC_MAX_MELDS]; /* ascending meld key order (docs/rules.md#which-arrangement-is-reported) */
    int n_melds;
    cc_hand unmatched;
    int points; /* deadwood: points of the unmatched cards */
} cc_arrangement;

/* Outcome of closing with a given 7 cards. */
typedef enum cc_outcome {
    CC_CANNOT_CLOSE = 0,
    CC_NORMAL = 1,
    CC_MINUS_TEN = 2,
    CC_CHINCHON = 3,
    CC_JOKER_CHINCHON = 4 /* a 7-card run with one joker (docs/rules.md#jokers-in-melds) */
} cc_outcome;

/* Fill *rules with the house rules: points = rank, close limit 5, minus ten 10. O(1). */
void cc_rules_default(cc_rules *rules);

/* Fill *rules from a point table (12 entries, each 0..31), a close limit (0..255) and
 * the minus ten score (>= 0; the closer scores -minus_ten). O(1). CC_ERR_BAD_ARGUMENT
 * (and *rules untouched) when a value is out of range. */
cc_status cc_rules_init(cc_rules *rules, const uint8_t points[CC_NRANKS], int close_limit,
                        int minus_ten);

/* cc_rules_init plus the variants of *variant (NULL: the house values). O(1);
 * CC_ERR_BAD_ARGUMENT (and *rules untouched) when a value is out of range. Under rules
 * that are not plain (see cc_rules.plain) every call validates hands against the deck:
 * a bit that is no card (jokers not in play included): CC_ERR_LANE_BITS; twice not in
 * once; an eight or nine with 40 cards: CC_ERR_NOT_IN_DECK; then the count. */
cc_status cc_rules_init_variant(cc_rules *rules, const uint8_t points[CC_NRANKS],
                                int close_limit, int minus_ten, const cc_variant *variant);

/* Check that h is a well-formed hand of at most max_cards cards: lanes, twice
 * subset of once. O(1). Returns the status; *n_cards gets the card count. */
cc_status cc_check_hand(cc_hand h, int max_cards, int *n_cards);

/* Optimal deadwood of a hand of 0..8 cards (single or double deck). Exact.
 * A few ns for most hands; a few masks per set rank where sets and runs compete. */
cc_status cc_deadwood(const cc_rules *rules, cc_hand h, int *points);

/* Optimal arrangement of a hand of 0..8 cards with the documented tie-break.
 * O(1) on the fast path; a search over candidate pairs where sets and runs compete. */
cc_status cc_best_melds(const cc_rules *rules, cc_hand h, cc_arrangement *out);

/* Outcome of closing with the 7 cards of h (CC_CANNOT_CLOSE when over the limit).
 * h must hold exactly 7 cards: CC_ERR_TOO_MANY_CARDS above 8, else CC_ERR_CARD_COUNT. */
cc_status cc_close_outcome(const cc_rules *rules, cc_hand h, cc_outcome *outcome);

/* Discard hints of an 8-card hand: for each card held, in ascending card order (a
 * copy held twice listed twice), the deadwood of the 7 left and the outcome of closing
 * with that discard. points[8] required; outcomes[8] may be NULL. Not 8 cards:
 * CC_ERR_TOO_MANY_CARDS above 8, else CC_ERR_CARD_COUNT (also per row in the batch). */
cc_status cc_discard_hints(const cc_rules *rules, cc_hand h, uint16_t points[8],
                           uint8_t *outcomes);

/* Batch deadwood. decks == 1: masks holds n uint64 (one per row); decks == 2: masks
 * holds 2n uint64, row i = (masks[2i], masks[2i+1]) = (once, twice). Every row is
 * validated (0..8 cards); on the first bad row returns its status and sets *bad_row,
 * out[] is then unspecified. No allocation, thread-safe. */
cc_status cc_deadwood_batch(const cc_rules *rules, const uint64_t *masks, size_t n,
                            int decks, uint8_t *out, size_t *bad_row);

/* Batch hints: rows of exactly 8 cards; out holds 8n bytes, row-major, each row
 * the deadwood after discarding each held card in ascending card order. */
cc_status cc_hints_batch(const cc_rules *rules, const uint64_t *masks, size_t n,
                         int decks, uint8_t *out, size_t *bad_row);

/* cc_deadwood_batch and cc_hints_batch hold each result in a byte, which every rules'
 * score fits while rules->max_deadwood <= 255 (the presets, and any rules whose jokers
 * are worth 31 or less); on other rules they return CC_ERR_BAD_ARGUMENT and these,
 * with uint16_t results, take the rows (one row at a time: the single hand's search,
 * no per-lane tables). Same rows, checks and results otherwise, on any rules. */
cc_status cc_deadwood_batch_wide(const cc_rules *rules, const uint64_t *masks, size_t n,
                                 int decks, uint16_t *out, size_t *bad_row);
cc_status cc_hints_batch_wide(const cc_rules *rules, const uint64_t *masks, size_t n,
                              int decks, uint16_t *out, size_t *bad_row);

/* SIMD paths of the batch kernels (cc_deadwood_batch and cc_hints_batch under plain
 * rules; every path gives the same bytes). One build holds the kernels of its
 * architecture and picks the path at run time: the best the CPU runs, or the one
 * cc_simd_use chose. */
typedef enum cc_simd {
    CC_SIMD_SCALAR = 0, /* portable C, one hand at a time */
    CC_SIMD_AVX2,       /* x86-64 with AVX2: four hands a vector */
    CC_SIMD_AVX512,     /* x86-64 with AVX-512 F/BW/VL: eight hands a vector */
    CC_SIMD_NEON,       /* AArch64: two hands a vector */
    CC_SIMD_END         /* sentinel: number of paths */
} cc_simd;

/* Whether this build holds the kernels of `path` and this CPU runs them. O(1). */
int cc_simd_supported(cc_simd path);

/* The fastest supported path (AVX-512, AVX2, NEON, else scalar). O(1). */
cc_simd cc_simd_best(void);

/* Make `path` the active one for every later batch; CC_ERR_BAD_ARGUMENT (nothing
 * changed) when not supported. Not thread-safe: call it before batches run on other
 * threads (until then the first batch picks cc_simd_best()). O(1). */
cc_status cc_simd_use(cc_simd path);

/* The active path. O(1). */
cc_simd cc_simd_active(void);

/* The name of a path: "scalar", "avx2", "avx512", "neon"; NULL out of range. O(1). */
const char *cc_simd_name(cc_simd path);

/* A short English description of a status code (static string; "unknown status" for a
 * value that is no status code). */
const char *cc_status_message(cc_status status);

/* The name of a status code as spelled in this header, e.g. "CC_ERR_DUPLICATE" (static
 * string; "CC_STATUS_UNKNOWN" for a value that is no status code, the sentinel too). */
const char *cc_status_name(cc_status status);

/* ---- Helpers shared with the settlement code (additions to the first API) ---- */

/* Points of the cards of h (a copy held twice counts twice) under rules, jokers
 * included. O(1): ten popcounts (twelve under jokers worth over 31). h is not validated. */
int cc_hand_points(const cc_rules *rules, cc_hand h);

/* Every candidate meld of h: every set (each multiset of >= 3 cards of one rank that h
 * holds, copies allowed) and every run (each segment of >= 3 consecutive ranks of one
 * suit that h holds; a run's twice is 0). Canonical order: ascending meld key
 * (docs/rules.md#which-arrangement-is-reported: the card indices ascending, copies
 * repeated, compared as Python tuples, a proper prefix first). Writes the first min(count, cap) melds to out (out may
 * be NULL when cap is 0) and returns count, or -1 if h has lane bits or twice is not a
 * subset of once. Any number of cards; <= 8 cards give at most CC_MAX_CANDIDATES. O(count). */
int cc_enumerate_melds(cc_hand h, cc_meld *out, int cap);

/* Compare the keys of two melds (or any two card multisets) as Python tuples:
 * negative, 0 or positive. O(cards). */
int cc_meld_key_compare(cc_hand x, cc_hand y);

/* cc_best_melds by the plain exhaustive route (every candidate, every pair), without
 * the fast path; same results, slower. For differential tests. */
cc_status cc_best_melds_exhaustive(const cc_rules *rules, cc_hand h, cc_arrangement *out);

/* ---- settlement ---- */

#define CC_HAND_CARDS 7     /* cards each player keeps at a close */
#define CC_MAX_OPPONENTS 5  /* six players at most */
#define CC_MAX_TABLE (CC_MAX_MELDS * (1 + CC_MAX_OPPONENTS)) /* melds on the table */

/* One lay-off: a card (bit index) onto a table meld (index into cc_settlement.table). */
typedef struct cc_layoff {
    uint8_t card;
    uint8_t meld;
} cc_layoff;

/* A meld on the table: final cards (lay-offs included), kind (cc_meld_kind), owner (0
 * the closer, k the k-th opponent) and open (0 only for the closer's melds on minus
 * ten: no lay-offs onto them). */
typedef struct cc_table_meld {
    cc_hand cards;
    uint8_t kind;
    uint8_t owner;
    uint8_t open;
    uint8_t joker;      /* as in cc_meld: its joker (a joker laid off onto it included) */
    uint8_t joker_rank; /* 0: no joker */
} cc_table_meld;

/* One seat's side of a settlement. Melds in ascending key order; lay-offs in the order
 * applied (docs/rules.md#which-arrangement-is-reported); points are the hand points (see cc_settle). */
typedef struct cc_seat_result {
    cc_meld melds[CC_MAX_MELDS];
    int n_melds;
    cc_layoff layoffs[CC_HAND_CARDS];
    int n_layoffs;
    cc_hand unmatched;
    int points;
} cc_seat_result;

typedef struct cc_settlement {
    uint8_t outcome;   /* cc_outcome; CC_CANNOT_CLOSE with CC_ERR_CANNOT_CLOSE */
    int decks;         /* 1 or 2, as given or inferred */
    int deadwood;      /* the closer's deadwood (also set on CC_ERR_CANNOT_CLOSE) */
    cc_seat_result closer;
    int n_opponents;
    cc_seat_result opponents[CC_MAX_OPPONENTS];
    int n_table;
    cc_table_meld table[CC_MAX_TABLE];
    int points[1 + CC_MAX_OPPONENTS]; /* hand points per seat, closer first */
    /* On a bad deal, where (else -1); seats: 0 the closer, k the k-th opponent.
     * CC_ERR_LANE_BITS, CC_ERR_TWICE_NOT_SUBSET, CC_ERR_CARD_COUNT: bad_seat, the first
     * bad hand. CC_ERR_THREE_COPIES: bad_seat, the first hand that brings a card to a
     * third copy; bad_card (a bit index), the lowest such card of that hand.
     * CC_ERR_DUPLICATE: bad_card, the lowest card held twice across the hands;
     * bad_seat, the hand holding its second copy. */
    int bad_seat;
    int bad_card;
} cc_settlement;

/* Settle a closed hand (docs/rules.md#laying-off): closer = the closer's 7 kept cards, then
 * n_opponents (1..CC_MAX_OPPONENTS) 7-card hands in play order; decks 1, 2, or 0 to
 * infer (2 if a card is held twice or there are 4+ opponents). Each opponent's own
 * melds and lay-offs are exactly optimal for them given the table left by the earlier
 * players, ties broken by docs/rules.md#which-arrangement-is-reported. Closer's points: the deadwood,
 * -rules->minus_ten on minus ten, 0 on chinchon (every seat 0 then, no lay-offs).
 * Errors, in this order: CC_ERR_BAD_ARGUMENT, per hand CC_ERR_LANE_BITS /
 * CC_ERR_TWICE_NOT_SUBSET / CC_ERR_CARD_COUNT, CC_ERR_THREE_COPIES, CC_ERR_DUPLICATE
 * (bad_seat, bad_card say where), CC_ERR_CANNOT_CLOSE (deadwood set). A few
 * microseconds; no allocation, thread-safe.
 * Under rules that are not plain (docs/rules.md#laying-off-with-jokers):
 * every hand is checked against the rules' deck (a joker not in play: CC_ERR_LANE_BITS;
 * an eight or nine with 40 cards: CC_ERR_NOT_IN_DECK); the set capacity is 4 * decks;
 * on CC_JOKER_CHINCHON the closer scores -rules->joker_chinchon and their melds are
 * closed (open 0) as on minus ten; a joker laid off onto a table meld is its joker, and
 * the meld's joker_rank says what it stands for. */
cc_status cc_settle(const cc_rules *rules, cc_hand closer, const cc_hand *opponents,
                    int n_opponents, int decks, cc_settlement *out);

/* ---- the outlook: hints one draw ahead (docs/rules.md#the-outlook-one-draw-ahead) ---- */

#define CC_OUTLOOK_COLUMNS 6 /* points now, expected points, p_close, p_minus_ten,
                                p_chinchon (joker chinchon included), p_joker_chinchon */

/* What 7 cards kept can expect of the next draw, in exact counts: each unseen copy is
 * one draw; after it the best discard of the 8 (fewest points, then the better close:
 * chinchon, joker chinchon, minus ten, normal, none). */
typedef struct cc_prospect {
    uint32_t draws;       /* unseen copies */
    uint32_t points_sum;  /* sum over the draws of the best discard's points */
    uint32_t outcomes[5]; /* draws by the best close, by cc_outcome code */
} cc_prospect;

/* The prospect of 7 cards h7 drawing from the multiset unseen. The number of decks is
 * rules->decks, else 2 when a card is held twice or unseen twice. Errors: the
 * hand as cc_close_outcome checks it (exactly 7 cards); unseen: CC_ERR_LANE_BITS (no
 * card of the rules), CC_ERR_TWICE_NOT_SUBSET, CC_ERR_NOT_IN_DECK, a card held and
 * unseen past the decks' copies (CC_ERR_DUPLICATE with one deck, CC_ERR_THREE_COPIES
 * with two), no unseen card (CC_ERR_CARD_COUNT). Plain rules: one hint search per
 * distinct unseen card that could meld with h7, a few ns for the others. */
cc_status cc_prospect_of(const cc_rules *rules, cc_hand h7, cc_hand unseen, cc_prospect *out);

/* The outlook of an 8-card hand: for each card held (ascending card order, a copy held
 * twice listed twice) the hint points and outcome of discarding it (as
 * cc_discard_hints; outcomes may be NULL) and the prospect of the 7 kept drawing from
 * unseen. Checks and decks as cc_prospect_of, the hand of exactly 8 cards. */
cc_status cc_outlook(const cc_rules *rules, cc_hand h8, cc_hand unseen, uint16_t points[8],
                     uint8_t *outcomes, cc_prospect out[8]);

/* Batch outlook: rows of 8 cards (masks as cc_hints_batch) and their unseen cards
 * (unseen: the same layout); out holds n * 8 * CC_OUTLOOK_COLUMNS doubles, row-major,
 * each count divided by the draws. decks is the number of decks of every row. Stops at
 * the first bad row (hand or unseen) with its status and *bad_row. No allocation, thread-safe. */
cc_status cc_outlook_batch(const cc_rules *rules, const uint64_t *masks,
                           const uint64_t *unseen, size_t n, int decks, double *out,
                           size_t *bad_row);

/* ---- the game's random generator (docs/rules.md#the-shuffle-and-the-generator) ---- */

/* xoshiro256** 1.0: four 64-bit words, never all zero. Plain data: copy it to save it. */
typedef struct cc_rng {
    uint64_t s[4];
} cc_rng;

#define CC_RNG_SEED_WORDS 4 /* a seed is an int of at most 256 bits, either sign */

/* One splitmix64 step: adds the golden-ratio constant to *state, returns it mixed. */
uint64_t cc_splitmix64_next(uint64_t *state);
/* The 64-bit value that seeds a generator: h = 0, then h = splitmix64_next(h ^ w) for
 * each word w of: the seed's sign (1 negative, 0 not), its absolute value in
 * CC_RNG_SEED_WORDS words (least significant first), then words[0..n_words). */
uint64_t cc_rng_derive(int negative, const uint64_t magnitude[CC_RNG_SEED_WORDS],
                       const uint64_t *words, size_t n_words);
/* The four words: the first four splitmix64 outputs from the state derived. */
void cc_rng_seed(cc_rng *r, uint64_t derived);
/* The next output. */
uint64_t cc_rng_next(cc_rng *r);
/* Uniform in 0..n-1, n > 0 (Lemire: m = (next >> 32) * n; redraw while the low 32 bits
 * of m are below 2**32 mod n; the answer is m >> 32). */
uint32_t cc_rng_below(cc_rng *r, uint32_t n);
/* Uniform in [0, 1): the upper 53 bits of the next output times 2**-53. */
double cc_rng_double(cc_rng *r);
/* Fisher-Yates from the end: for i = n-1 down to 1, swap items[i] and items[below(i+1)]. */
void cc_rng_shuffle(cc_rng *r, uint8_t *items, size_t n);


/* ---- whole games between the built-in bots (docs/simulation.md#the-c-engine) ---- */

#define CC_MAX_PLAYERS 6
#define CC_MAX_DECK 100 /* two decks of 48 cards and 2 jokers */

/* The built-in bots (src/chinchon/bots/): the engine plays them draw for draw. */
typedef enum cc_bot {
    CC_BOT_RANDOM = 0,
    CC_BOT_GREEDY = 1,
    CC_BOT_EXPERT = 2,
    CC_BOT_SEARCH = 3, /* bots.SearchBot: cc_search_choose at each decision */
    CC_BOT_END /* sentinel */
} cc_bot;

#define CC_MAX_RULE_NUMBER INT64_C(9007199254740991) /* 2**53 - 1: the largest table number */

/* What a simulation's games share: the seats' bots, the rules (the solver's and the
 * table's), the turn cap, the simulation's seed and the bots' constants. cc_play_game
 * refuses (CC_ERR_BAD_ARGUMENT) a value outside the range given here. */
typedef struct cc_game_config {
    cc_rules rules;           /* the solver's rules (the engine sets their decks; minus_ten
                                 >= 0, joker_chinchon >= -1) */
    int players;              /* 2..CC_MAX_PLAYERS: one deck up to 4, two for 5-6 */
    uint8_t bots[CC_MAX_PLAYERS]; /* cc_bot of each seat */
    int64_t eliminate_above;  /* 0..CC_MAX_RULE_NUMBER: a total over this eliminates */
    int64_t rejoin_chips;     /* 0..CC_MAX_RULE_NUMBER: chips per seat */
    int first_round_close;    /* 0/1 */
    int all_out_lowest;       /* 0: every player out at once is a draw; 1: the lowest wins */
    int void_at_stock;        /* -1: reshuffle; 0..255: a hand is void at that stock */
    uint32_t max_turns;       /* >= 1: a hand this long stalls the game */
    int seed_negative;        /* the simulation's seed: sign and magnitude (as cc_rng_derive) */
    uint64_t seed_magnitude[CC_RNG_SEED_WORDS];
    int stale_turns;          /* >= 1: bots.STALE_TURNS */
    double stale_shake;       /* bots.STALE_SHAKE */
    double wait_for;          /* bots.ExpertBot.WAIT_FOR */
    /* the budget of each CC_BOT_SEARCH seat (cc_search_choose): playouts, else (0) time */
    uint32_t search_playouts[CC_MAX_PLAYERS];
    uint32_t search_micros[CC_MAX_PLAYERS];
    /* NULL, or asked after each decision of a search seat (which may take long): nonzero
     * stops the game; cc_play_game returns CC_ERR_INTERRUPTED, the record unfinished */
    int (*interrupted)(void *context);
    void *interrupt_context;
} cc_game_config;

typedef enum cc_game_status {
    CC_GAME_WON = 0,
    CC_GAME_DRAW = 1,
    CC_GAME_STALLED = 2
} cc_game_status;

#define CC_HAND_VOID 5 /* a hand's outcome beyond cc_outcome: void (Rules.void_at_stock) */

/* Events of the optional trace, one uint64 each: kind << 56 | seat << 48 | a << 32 | b
 * (seat 0xff: none). DEAL (lead, 0, hand number); DRAW (seat, 0 stock / 1 discard pile,
 * card); RESHUFFLE (seat, 0, stock size); DISCARD (seat, close, card); HAND (closer, outcome
 * or CC_HAND_VOID, hand number); POINTS (seat, 0, hand points); REJOIN (seat, 0, new
 * total); END (winner, cc_game_status, hands). */
enum {
    CC_EV_DEAL = 1, CC_EV_DRAW, CC_EV_RESHUFFLE, CC_EV_DISCARD, CC_EV_HAND, CC_EV_POINTS,
    CC_EV_REJOIN, CC_EV_END
};

/* What one game did (the Python GameRecord). The arrays are the caller's: the engine
 * writes up to each capacity and counts past it (n_* > cap_*: play the game again with
 * room for n_*). */
typedef struct cc_game_record {
    uint8_t status;            /* cc_game_status */
    int8_t winner;             /* -1: none */
    uint32_t hands;            /* hands dealt */
    int64_t totals[CC_MAX_PLAYERS];
    uint32_t rejoins[CC_MAX_PLAYERS];
    size_t n_ended, cap_ended; /* hands that ended (closed or void), in order: */
    uint32_t *turns;           /*   their turns */
    uint8_t *outcomes;         /*   their cc_outcome, or CC_HAND_VOID */
    size_t n_points, cap_points;
    int32_t *points;           /* each closed hand's points, closer first in play order */
    uint8_t *point_seats;      /* the seat of each of points (NULL: not written) */
    size_t n_events, cap_events;
    uint64_t *events;          /* the trace (may be NULL with cap_events 0) */
} cc_game_record;

/* Play game `index` of a simulation between the built-in bots, exactly as the Python
 * loop does (chinchon.simulate.play_game: the same draws of the same generators, the same
 * choices). CC_ERR_BAD_ARGUMENT on a config out of range. Thread-safe, no allocation;
 * about 100 ns per turn for greedy and random bots, a few us per expert turn. */
cc_status cc_play_game(const cc_game_config *config, uint64_t index, cc_game_record *record);

/* ------------------------------------------------------------------ learning tables */

/* Tables for a learner (chinchon.rl.VectorEnv, docs/rl.md): each one game in which one
 * seat, the learner, is played by the caller's actions and the others by the built-in
 * bots, stepped move by move; the learner's observation and action mask written each
 * step in the layout of chinchon.rl.encoding (the constants below; Python checks them
 * against that module). */
#define CC_VEC_OBS 897     /* encoding.OBS_SIZE */
#define CC_VEC_ACTIONS 132 /* encoding.N_ACTIONS */

/* What the tables share. game: the table (players, the bots of the other seats, the
 * rules, the bots' constants; its seed, turn cap and the learner's bot are not read). */
typedef struct cc_vec_config {
    cc_game_config game;
    int learner;              /* the learner's seat */
    int hand_rewards;         /* 0: +1 won, -1 lost, 0 drawn at the end; 1: also -points each hand */
    uint64_t max_turns;       /* 0: none; else the game is truncated after this many discards */
    int penalise;             /* 0: an action outside the mask is refused; 1: it ends the game */
    double penalty;           /*    with this reward (penalise = 1) */
    float constant[CC_VEC_OBS]; /* the observation's numbers that never change (the rest 0) */
} cc_vec_config;

typedef struct cc_vec_table cc_vec_table; /* one table (opaque) */

/* n zeroed tables (NULL when out of memory), and their release. */
cc_vec_table *cc_vec_alloc(size_t n);
void cc_vec_free(cc_vec_table *tables);

/* Start table i's game: with a seed (negative, magnitude as cc_rng_derive) its game 0,
 * without (magnitude NULL) its next game. Game k of seed s is dealt and its bots seeded
 * as game k of a simulation with seed s (cc_play_game's generators). Games that end
 * before the learner's first decision are skipped. Writes the observation (CC_VEC_OBS
 * floats) and the mask (CC_VEC_ACTIONS) of the table. CC_ERR_BAD_ARGUMENT on a config
 * out of range, or without a seed for a table never seeded (cc_vec_step refuses a table
 * never reset the same way). */
cc_status cc_vec_reset(const cc_vec_config *cfg, cc_vec_table *tables, size_t i,
                       int negative, const uint64_t *magnitude, float *obs, int8_t *mask);

/* The first of tables 0..n-1 whose action is outside its mask (n when none); a table
 * whose last step ended its game takes any action (it starts its next game). */
size_t cc_vec_refused(const cc_vec_table *tables, size_t n, const int64_t *actions);

/* A uniformly random action of each table's mask, drawn from rng (0 for a table whose
 * last step ended its game). O(n). */
void cc_vec_sample(const cc_vec_table *tables, size_t n, cc_rng *rng, int64_t *actions);

/* Step tables first..first+count-1 with actions[first..] (checked by cc_vec_refused,
 * unless cfg->penalise): the learner's action, then the bots until the learner decides
 * again or the game ends; a table whose last step ended its game starts its next
 * (autoreset: reward 0, not done). Writes each table's row of obs, masks, rewards,
 * terminated, truncated and refused (1: the action was outside the mask and penalised).
 * Thread-safe for disjoint ranges; no allocation. */
cc_status cc_vec_step(const cc_vec_config *cfg, cc_vec_table *tables, size_t first,
                      size_t count, const int64_t *actions, float *obs, int8_t *masks,
                      double *rewards, uint8_t *terminated, uint8_t *truncated,
                      uint8_t *refused);

/* Threads for cc_vec_step_all: `threads` - 1 workers beside the calling thread (none
 * where POSIX threads are not: Windows), watching a moment, then sleeping, between
 * steps; NULL when out of memory (or its lock or condition variables could not be
 * made). cc_vec_pool_free stops and joins them. */
typedef struct cc_vec_pool cc_vec_pool;
cc_vec_pool *cc_vec_pool_new(int threads);
void cc_vec_pool_free(cc_vec_pool *pool);

/* cc_vec_step on all n tables, cut into runs the caller and the pool's workers take in
 * turn (one step at a time per pool). */
cc_status cc_vec_step_all(cc_vec_pool *pool, const cc_vec_config *cfg, cc_vec_table *tables,
                          size_t n, const int64_t *actions, float *obs, int8_t *masks,
                          double *rewards, uint8_t *terminated, uint8_t *truncated,
                          uint8_t *refused);
/* ---- the search bot (docs/bots.md#the-search-bot) ---- */

/* What the seat to act may see (the Python Observation, nothing else): its cards, the
 * public piles, the table. The other seats hold 7 cards each (those `taken` from the
 * pile and the rest unknown); the stock holds stock_n unknown cards. */
typedef struct cc_search_view {
    const cc_game_config *config; /* the rules and the bots' constants (bots: unused) */
    int seat;                     /* the seat to act */
    int discard;                  /* 0: its draw (7 cards held), 1: its discard (8) */
    cc_hand held;
    uint8_t pile[CC_MAX_DECK];    /* the discard pile, bottom to top */
    int pile_n;
    cc_hand taken[CC_MAX_PLAYERS]; /* what each seat took from the pile and still holds */
    int has_restocked;            /* 1 after a reshuffle this hand: */
    cc_hand restocked;            /*   the cards turned over into the stock */
    int stock_n;
    int64_t totals[CC_MAX_PLAYERS];
    int64_t chips[CC_MAX_PLAYERS];
    uint8_t in[CC_MAX_PLAYERS];
    int lead;
    uint32_t hand_number, turns;  /* turns: completed this hand */
    int has_prev_discard;         /* 1 when the seat saw, as its turn began, */
    uint8_t prev_discard;         /*   the card the seat before it in play discarded */
} cc_search_view;

/* The search bot's decision for the view: determinised Monte Carlo (each sample deals
 * the unseen cards to the other hands and the stock consistently with the view, each
 * other hand then played as its seat drew, a stock card per turn and the greedy's
 * discard, and dealt again while the seat before could not have discarded
 * prev_discard from it; then plays every candidate out to the hand's end with the
 * greedy bots (under rules that are not plain, drawing and discarding as the expert
 * most often does), the same sample and draws for each; the value of the end is the
 * seat's chance to win the game, from the totals, who is in and the chips). The budget:
 * `playouts` in all at most (> 0; the race drops a candidate far behind the expert's
 * choice or that could no longer be taken, and ends when that choice alone is left),
 * else `micros` of wall time (> 0; every candidate on every sample). `threads`: the
 * threads that play the samples out, the calling thread among them (0 or 1: it alone;
 * POSIX systems only, elsewhere always it alone); the calling thread deals every sample, in
 * order, so the same view, seed and playouts give the same choice on any number of
 * threads. Draw: 1 in *choice to take the pile's top. Discard: the card in *choice, 1
 * in *close to close. CC_ERR_BAD_ARGUMENT: a view the cards cannot fit, no budget, or
 * threads outside 0..CC_SEARCH_MAX_THREADS. */
#define CC_SEARCH_MAX_THREADS 64
cc_status cc_search_choose(const cc_search_view *view, uint32_t playouts, uint32_t micros,
                           int threads, uint64_t seed, int *choice, int *close);

#ifdef __cplusplus
}
#endif

#endif /* CHINCHON_H */
