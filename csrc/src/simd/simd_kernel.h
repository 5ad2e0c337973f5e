/*
 * simd_kernel.h -- internal: the house rules' batch kernels written once over a small
 * vector vocabulary, included by each vector file (simd_avx2.c, simd_avx512.c,
 * simd_neon.c) after it defines, for its instruction set:
 *   CC_V          the vector type, CC_VLANES hands (64-bit lanes) in it, and
 *   CC_K(name)    its kernels' names (cc_avx2_deadwood_rows, ...);
 *   v_set1 v_and v_or v_xor v_andn(x, y) = x & ~y, v_srl/v_sll (64-bit lanes, by a
 *   constant), v_srl16 (16-bit lanes), v_sllv (64-bit lanes, by each lane's count;
 *   a count >= 64 gives 0), v_add64 v_sub64, v_add8, v_lookup(t, x) (each byte of x,
 *   < 16, indexes the 16 bytes of t), v_table(16 bytes) (the table for v_lookup),
 *   v_sum8 (the sum of each lane's 8 bytes), v_any (some bit set), v_nonzero(x) (bit
 *   l set when lane l is not zero), v_load1 / v_load2 (the rows of one or two decks:
 *   once and twice masks), v_store_rows (each lane's 8 bytes, in order), v_store_low
 *   (each lane's low byte, in order).
 * The meld search is the scalar one of melds.h (cc_run_cards, cc_set_columns, the fast
 * path; its proof in melds.c), lane by lane: a hand is one 64-bit lane. The points of
 * a mask come from three 16-entry tables (points of the 4 ranks of each nibble of a
 * lane) and a sum of bytes, not from five weighted popcounts. Hands whose sets and
 * runs compete (about 1 in 100 uniform hands) are redone by the scalar kernels, and
 * from a group of rows holding a bad row (or a forbidden card: k_rank_points; no caller
 * hands one on) the rest of the batch is left to the scalar rows, which stop at it.
 */

/* The points of each rank (bit index in a lane) under rules whose planes give every
 * suit the same points (plain rules do; a variant's view does, but for the wild ace of
 * coins, bit 0, which no row it hands on holds): 1, and *forbid gets the cards whose
 * points differ from their rank's (then bit 0: a row holding it goes to the scalar
 * kernel); 0 if the planes are otherwise uneven (the scalar kernels then run).
 * O(16 x 5). */
CC_INLINE int k_rank_points(const cc_rules *rules, uint8_t points[16], uint64_t *forbid)
{
    int k, r;
    *forbid = 0;
    for (k = 0; k < 5; k++) {
        uint64_t lane = (rules->plane[k] >> 16) & CC_RANK_MASK, even = lane * CC_LANES;
        if ((rules->plane[k] | 1u) != (even | 1u))
            return 0;
        if (rules->plane[k] != even)
            *forbid = 1;
    }
    for (r = 0; r < 16; r++) {
        int p = 0;
        for (k = 0; k < 5; k++)
            p |= (int)((rules->plane[k] >> (16 + r)) & 1u) << k;
        points[r] = (uint8_t)(r < 12 ? p : 0);
    }
    return 1;
}

/* The three nibble tables of a point table (points of ranks 4k..4k+3 summed over the
 * set bits of the index). O(48). */
CC_INLINE void k_tables(const uint8_t rank_points[16], CC_V t[3])
{
    int k, v, j;
    for (k = 0; k < 3; k++) {
        uint8_t tab[16];
        for (v = 0; v < 16; v++) {
            int p = 0;
            for (j = 0; j < 4; j++)
                p += ((v >> j) & 1) ? rank_points[4 * k + j] : 0;
            tab[v] = (uint8_t)p;
        }
        t[k] = v_table(tab);
    }
}

/* Per byte, part of the points (or, with the popcount tables, of the card count) of the
 * 12 rank bits of each 16-bit lane of x (bits 12-15 clear); v_sum8 of it is the total.
 * ~10 operations. */
CC_FORCE_INLINE CC_V k_bytes(const CC_V t[3], CC_V x)
{
    CC_V m = v_set1(UINT64_C(0x000F000F000F000F));
    /* bits 12-15 of a valid hand's lanes are clear: the third nibble needs no mask */
    CC_V n0 = v_and(x, m), n1 = v_and(v_srl16(x, 4), m), n2 = v_srl16(x, 8);
    return v_add8(v_lookup(t[0], n0), v_add8(v_lookup(t[1], n1), v_lookup(t[2], n2)));
}

/* cc_run_cards and cc_set_columns of each lane (two: b may hold cards).
 * ~30 operations. */
CC_FORCE_INLINE void k_masks(CC_V a, CC_V b, int two, CC_V *runs, CC_V *sets)
{
    CC_V r = v_set1(CC_RANK_MASK);
    CC_V s = v_and(a, v_and(v_srl(a, 1), v_srl(a, 2)));
    CC_V l0 = v_and(a, r), l1 = v_and(v_srl(a, 16), r), l2 = v_and(v_srl(a, 32), r);
    CC_V l3 = v_srl(a, 48);
    CC_V ge3 = v_or(v_and(v_and(l0, l1), v_or(l2, l3)), v_and(v_and(l2, l3), v_or(l0, l1)));
    *runs = v_or(s, v_or(v_sll(s, 1), v_sll(s, 2)));
    if (two) {
        CC_V ge2 = v_or(v_or(v_and(l0, l1), v_and(l2, l3)), v_and(v_or(l0, l1), v_or(l2, l3)));
        CC_V t1 = v_and(v_or(v_or(b, v_srl(b, 16)), v_or(v_srl(b, 32), v_srl(b, 48))), r);
        ge3 = v_or(ge3, v_and(ge2, t1));
    }
    ge3 = v_or(ge3, v_sll(ge3, 16));
    *sets = v_or(ge3, v_sll(ge3, 32));
}

/* Whether every lane is a valid hand of <= 8 cards (exact8: exactly 8).
 * ~30 operations. */
CC_FORCE_INLINE int k_valid(const CC_V c[3], CC_V a, CC_V b, int two, int exact8)
{
    CC_V bad = v_andn(a, v_set1(CC_LANE_MASK));
    CC_V cnt;
    if (two) {
        bad = v_or(v_andn(v_or(a, b), v_set1(CC_LANE_MASK)), v_andn(b, a));
        cnt = v_sum8(v_add8(k_bytes(c, a), k_bytes(c, b)));
    } else {
        cnt = v_sum8(k_bytes(c, a));
    }
    if (exact8)
        bad = v_or(bad, v_xor(cnt, v_set1(CC_MAX_HAND)));
    else
        bad = v_or(bad, v_srl(v_add64(cnt, v_set1(15 - CC_MAX_HAND)), 4));
    return !v_any(bad);
}

/* A batch's rules as the kernels read them (a copy: out[] may alias the caller's), and
 * the cards a row must not hold for the vector kernels (k_rank_points). */
typedef struct k_ctx {
    cc_rules rules;
    uint64_t forbid;
} k_ctx;

/* The rows i.. of a batch by the scalar kernel (deadwood or hints), from a group that
 * holds a bad row or a forbidden card (or the last rows); *bad_row made absolute.
 * O(n - i) rows. */
static cc_status CC_K(rest)(const cc_rules *rules, int hints, const uint64_t *masks, size_t n,
                            int decks, uint8_t *out, size_t i, size_t *bad_row)
{
    const uint64_t *m = masks + i * (size_t)decks;
    uint8_t *o = out + (hints ? 8 : 1) * i;
    cc_status st = hints ? cc_hints_rows(rules, m, n - i, decks, o, bad_row)
                         : cc_melds_deadwood_rows(rules, m, n - i, decks, o, bad_row);
    if (st != CC_OK && bad_row != NULL)
        *bad_row += i;
    return st;
}

/* The row masks of the group at row i (the double deck's once and twice apart).
 * O(1). */
CC_FORCE_INLINE void k_load(const uint64_t *masks, size_t i, int two, CC_V *a, CC_V *b)
{
    if (two) {
        v_load2(masks + 2 * i, a, b);
    } else {
        *a = v_load1(masks + i);
        *b = v_set1(0);
    }
}

/* Whether every lane of a group is a valid row (k_valid) without a forbidden card.
 * O(1). */
CC_FORCE_INLINE int k_group(const k_ctx *k, const CC_V c[3], CC_V a, CC_V b, int two,
                            int exact8)
{
    return k_valid(c, a, b, two, exact8) && !v_any(v_and(a, v_set1(k->forbid)));
}

/* A group lane's row (for the scalar kernel of a competing hand). O(1). */
CC_INLINE cc_hand k_row(const uint64_t *masks, size_t row, int two)
{
    cc_hand h;
    h.once = two ? masks[2 * row] : masks[row];
    h.twice = two ? masks[2 * row + 1] : 0;
    return h;
}

/* Deadwood rows, one or two decks (two inlined as a constant); rp: the points by place
 * of the kernel's space. O(n) rows: ~60 vector operations a group of CC_VLANES hands,
 * plus the scalar search of competing hands. */
CC_FORCE_INLINE cc_status k_deadwood(const k_ctx *k, const uint8_t rp[16],
                                     const uint64_t *masks, size_t n, int two, uint8_t *out,
                                     size_t *bad_row)
{
    CC_V t[3], c[3];
    size_t i;
    static const uint8_t ones[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};
    k_tables(rp, t);
    c[0] = c[1] = c[2] = v_table(ones);
    for (i = 0; i + CC_VLANES <= n; i += CC_VLANES) {
        CC_V a, b, runs, sets, meld, bytes, compete;
        int fix;
        k_load(masks, i, two, &a, &b);
        if (!k_group(k, c, a, b, two, 0))
            return CC_K(rest)(&k->rules, 0, masks, n, two ? 2 : 1, out, i, bad_row);
        k_masks(a, b, two, &runs, &sets);
        meld = v_or(runs, sets);
        bytes = k_bytes(t, v_andn(a, meld));
        compete = v_and(v_and(a, sets), runs);
        if (two) {
            bytes = v_add8(bytes, k_bytes(t, v_andn(b, meld)));
            compete = v_or(compete, v_and(b, runs));
        }
        v_store_low(out + i, v_sum8(bytes));
        for (fix = v_nonzero(compete); fix != 0; fix &= fix - 1) {
            size_t row = i + (size_t)cc_ctz((uint64_t)fix);
            cc_hand h = k_row(masks, row, two);
            out[row] = (uint8_t)cc_melds_deadwood_core(&k->rules, h.once, h.twice);
        }
    }
    return i < n ? CC_K(rest)(&k->rules, 0, masks, n, two ? 2 : 1, out, i, bad_row) : CC_OK;
}

/* The hint rows of a group of valid 8-card hands (a, b), one or two decks (two inlined
 * as a constant), and *compete: the lanes whose sets and runs compete (their rows are
 * wrong here; the scalar kernel redoes them). For each card of the lanes (ascending; a
 * lane's j-th card in step j) the deadwood of the 7 left from their own masks: a
 * non-competing hand's 7-card hands do not compete either (their runs, sets and second
 * copies are within the 8 cards'), so the fast path is exact for them. Branch-free in
 * the lanes: which lanes hold a card in a candidate meld is as good as random, and a
 * branch on it (to take the 8 cards' masks less the card otherwise) mispredicted ~1 in
 * 5 (callgrind). ~8 x 45 vector operations (two decks ~8 x 65). */
CC_FORCE_INLINE CC_V k_hint_group(const CC_V t[3], CC_V a, CC_V b, int two, CC_V *compete)
{
    CC_V runs, sets, x = a, rows = v_set1(0), shift = v_set1(0), fragile = v_set1(0);
    int j;
    k_masks(a, b, two, &runs, &sets);
    *compete = v_and(v_and(a, sets), runs);
    {
        /* the cards of sets of exactly three (copies counted): removing one copy
         * removes its set; four or more stay a set */
        CC_V r = v_set1(CC_RANK_MASK);
        CC_V l0 = v_and(a, r), l1 = v_and(v_srl(a, 16), r), l2 = v_and(v_srl(a, 32), r);
        CC_V l3 = v_srl(a, 48);
        CC_V four = v_and(v_and(l0, l1), v_and(l2, l3));
        if (two) {
            CC_V m0 = v_and(b, r), m1 = v_and(v_srl(b, 16), r), m2 = v_and(v_srl(b, 32), r);
            CC_V m3 = v_srl(b, 48);
            CC_V o3 = v_or(v_and(v_and(l0, l1), v_or(l2, l3)), v_and(v_and(l2, l3), v_or(l0, l1)));
            CC_V o2 = v_or(v_or(v_and(l0, l1), v_and(l2, l3)), v_and(v_or(l0, l1), v_or(l2, l3)));
            CC_V t1 = v_or(v_or(m0, m1), v_or(m2, m3));
            CC_V t2 = v_or(v_or(v_and(m0, m1), v_and(m2, m3)), v_and(v_or(m0, m1), v_or(m2, m3)));
            *compete = v_or(*compete, v_and(b, runs));
            four = v_or(four, v_or(v_and(o3, t1), v_and(o2, t2)));
        }
        four = v_or(four, v_sll(four, 16));
        fragile = v_andn(v_and(a, sets), v_or(four, v_sll(four, 32)));
    }
    for (j = 0; j < CC_MAX_HAND; j++) {
        CC_V bit = v_and(x, v_sub64(v_set1(0), x)), tw = v_set1(0), on = bit, bytes, val;
        CC_V a7, b7, runs7, sets7, meld7;
        if (two) {
            if (!v_any(x))
                break; /* every lane's cards done (a card held twice fills two) */
            tw = v_and(b, bit);
            on = v_xor(bit, tw);
        }
        x = v_xor(x, bit);
        a7 = v_xor(a, on);
        b7 = v_xor(b, tw);
        {
            /* the 7 cards' sets are the 8 cards' less the column of a card of a set of
             * three (its rank folded into lane 0, then broadcast) */
            CC_V col = v_and(bit, fragile);
            CC_V s = a7;
            col = v_or(col, v_srl(col, 32));
            col = v_and(v_or(col, v_srl(col, 16)), v_set1(CC_RANK_MASK));
            col = v_or(col, v_sll(col, 16));
            sets7 = v_andn(sets, v_or(col, v_sll(col, 32)));
            s = v_and(s, v_and(v_srl(s, 1), v_srl(s, 2)));
            runs7 = v_or(s, v_or(v_sll(s, 1), v_sll(s, 2)));
        }
        meld7 = v_or(runs7, sets7);
        bytes = k_bytes(t, v_andn(a7, meld7));
        if (two)
            bytes = v_add8(bytes, k_bytes(t, v_andn(b7, meld7)));
        val = v_sum8(bytes);
        if (two) {
            /* a card held twice: its hint twice, and the next card two places on */
            CC_V twice = v_srl(v_sub64(v_set1(0), tw), 63); /* 1 where held twice */
            val = v_or(val, v_and(v_sll(val, 8), v_sub64(v_set1(0), twice)));
            rows = v_or(rows, v_sllv(val, shift));
            shift = v_add64(shift, v_add64(v_set1(8), v_sll(twice, 3)));
        } else {
            rows = v_or(rows, v_sllv(val, v_set1((uint64_t)(8 * j))));
        }
    }
    return rows;
}

/* Hints rows, one or two decks (two inlined as a constant): per group of valid rows,
 * k_hint_group -- its single-deck copy when no lane holds a card twice (most groups of
 * uniform two-deck hands: ~1.8x cheaper) -- then the scalar kernel on the competing
 * lanes. rp: the points by place of the kernel's space. O(n) rows. */
CC_FORCE_INLINE cc_status k_hints(const k_ctx *k, const uint8_t rp[16], const uint64_t *masks,
                                  size_t n, int two, uint8_t *out, size_t *bad_row)
{
    CC_V t[3], c[3];
    size_t i;
    static const uint8_t ones[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};
    k_tables(rp, t);
    c[0] = c[1] = c[2] = v_table(ones);
    for (i = 0; i + CC_VLANES <= n; i += CC_VLANES) {
        CC_V a, b, rows, compete;
        int fix;
        k_load(masks, i, two, &a, &b);
        if (!k_group(k, c, a, b, two, 1))
            return CC_K(rest)(&k->rules, 1, masks, n, two ? 2 : 1, out, i, bad_row);
        if (two && v_any(b))
            rows = k_hint_group(t, a, b, 1, &compete);
        else
            rows = k_hint_group(t, a, b, 0, &compete);
        v_store_rows(out + 8 * i, rows);
        for (fix = v_nonzero(compete); fix != 0; fix &= fix - 1) {
            size_t row = i + (size_t)cc_ctz((uint64_t)fix);
            cc_hints_plain(&k->rules, k_row(masks, row, two), out + 8 * row);
        }
    }
    return i < n ? CC_K(rest)(&k->rules, 1, masks, n, two ? 2 : 1, out, i, bad_row) : CC_OK;
}

/* Deadwood rows under plain rules (contract: simd.h). O(n) rows. */
cc_status CC_K(deadwood_rows)(const cc_rules *rules, const uint64_t *masks, size_t n,
                              int decks, uint8_t *out, size_t *bad_row)
{
    k_ctx k;
    uint8_t rp[16];
    if (!k_rank_points(rules, rp, &k.forbid))
        return CC_K(rest)(rules, 0, masks, n, decks, out, 0, bad_row);
    k.rules = *rules;
    return decks == 1 ? k_deadwood(&k, rp, masks, n, 0, out, bad_row)
                      : k_deadwood(&k, rp, masks, n, 1, out, bad_row);
}

/* Hints rows under plain rules (contract: simd.h). O(n) rows. */
cc_status CC_K(hints_rows)(const cc_rules *rules, const uint64_t *masks, size_t n, int decks,
                           uint8_t *out, size_t *bad_row)
{
    k_ctx k;
    uint8_t rp[16];
    if (!k_rank_points(rules, rp, &k.forbid))
        return CC_K(rest)(rules, 1, masks, n, decks, out, 0, bad_row);
    k.rules = *rules;
    return decks == 1 ? k_hints(&k, rp, masks, n, 0, out, bad_row)
                      : k_hints(&k, rp, masks, n, 1, out, bad_row);
}
