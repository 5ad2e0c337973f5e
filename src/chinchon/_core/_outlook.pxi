# The outlook (csrc/src/outlook.c; docs/design.md, "The outlook"), included by
# _binding.pyx. The common calls -- a Hand and a Hand of unseen cards, or none -- go
# straight to the C core; anything else, and every refusal, goes through the shared
# check (_args.check_unseen), which raises the documented error naming the card.

from ..results import DrawOutlook, Outlook, Prospect
from .._args import check_unseen, unseen_row_error, unseen_row_status, row_status
from ..cards import LANE_MASK as _LANE_MASK
from ..errors import BatchRowError

_OUTLOOK_COLUMNS = ("points", "expected_points", "p_close", "p_minus_ten", "p_chinchon",
                    "p_joker_chinchon")
OUTLOOK_COLUMNS = _OUTLOOK_COLUMNS


cdef inline tuple _prospect_fields(const cc_prospect *p):
    """The Prospect fields of exact counts, divided as results.prospect_of divides."""
    cdef double n = <double>p.draws
    return ((<double>p.points_sum) / n, (<double>(p.draws - p.outcomes[0])) / n,
            (<double>p.outcomes[2]) / n, (<double>(p.outcomes[3] + p.outcomes[4])) / n,
            (<double>p.outcomes[4]) / n, <int>p.draws)


cdef inline cc_rules _outlook_rules(object rules, int decks) except *:
    cdef cc_rules r
    if rules is None or rules is HOUSE_RULES:
        r = _house
    else:
        r = _crules_of(check_rules(rules)).r
    r.decks = <uint8_t>decks
    return r


cdef inline uint64_t _card_mask(object rules):
    if rules is None or rules is HOUSE_RULES:
        return _LANE_MASK
    return check_rules(rules).solver.card_mask


cdef int _fast_hand(object hand, object decks, int n, cc_hand *h) except -1:
    """The masks of a Hand or a list of Cards of n cards, without the generic parser: its
    number of decks (the Hand's; for a list ``decks`` or 2 when a card is twice), or 0
    when anything is unusual (the generic check then raises the documented error)."""
    if type(hand) is Hand:
        if hand._n != n or (decks is not None and decks != hand._decks):
            return 0
        h.once = hand._once
        h.twice = hand._twice
        return hand._decks
    if (type(hand) is list or type(hand) is tuple) and len(hand) == n:
        if _fast_cards(hand, decks, h):
            if decks is not None:
                return decks
            return 2 if h.twice else 1
    return 0


cdef int _fast_unseen(object unseen, object decks, int nd, uint64_t cm, uint64_t extra,
                      cc_hand h, cc_hand *u) except -1:
    """The unseen masks of a Hand or None (the deck less the hand and ``extra``, a card
    bit held once more), and the call's number of decks; 0 for the generic path."""
    if unseen is None:
        if nd == 1:
            u.once = cm & ~h.once & ~extra
            u.twice = 0
        else:
            u.once = cm & ~(h.twice | (h.once & extra))
            u.twice = cm & ~(h.once | extra)
        return nd
    if type(unseen) is not Hand:
        return 0
    u.once = unseen._once
    u.twice = unseen._twice
    if unseen._decks == 2 and nd == 1:
        if decks is not None:
            return 0
        return 2
    return nd


def outlook(hand8, unseen=None, *, decks=None, rules=None):
    cdef cc_hand h, u
    cdef int nd
    cdef cc_rules r
    cdef uint8_t points[8]
    cdef uint8_t outcomes[8]
    cdef cc_prospect p[8]
    cdef cc_status st
    order = None
    nd = _fast_hand(hand8, decks, 8, &h)
    if nd:
        nd = _fast_unseen(unseen, decks, nd, _card_mask(rules), 0, h, &u)
    if nd:
        if type(hand8) is not Hand:
            order = hand8
    else:
        hand, uo, ut, _ = check_unseen(hand8, unseen, decks, check_rules(rules), 8)
        if type(hand8) is not Hand:
            order = coerce_cards(hand8)
        h.once = hand._once
        h.twice = hand._twice
        nd = hand._decks
        u.once = uo
        u.twice = ut
    r = _outlook_rules(rules, nd)
    st = cc_outlook(&r, h, u, points, outcomes, p)
    if st != CC_OK:
        check_unseen(hand8, unseen, decks, check_rules(rules), 8)  # names the problem
        _raise_status(st)
    cdef list lines = []
    cdef uint64_t m = h.once
    cdef int i
    cdef int k = 0
    while m:  # ascending card order, a copy held twice listed twice
        i = cc_ctz(m)
        lines.append(tuple.__new__(Outlook, (_BY_INDEX[i], points[k], outcomes[k] != 0,
                                             OUTCOMES[outcomes[k]]) + _prospect_fields(&p[k])))
        k += 1
        if h.twice >> i & 1:
            lines.append(lines[k - 1])
            k += 1
        m &= m - 1
    if order is None:
        return lines
    cdef uint64_t below
    cdef list ordered = []
    for c in order:  # a card's place in ascending order = cards held below it
        i = c.index
        below = ((<uint64_t>1) << i) - 1
        ordered.append(lines[_popcount(h.once & below) + _popcount(h.twice & below)])
    return ordered


def draw_outlook(hand7, top, unseen=None, *, decks=None, rules=None):
    cdef cc_hand h, u, t
    cdef int nd, held
    cdef uint64_t cm, bit = 0
    cdef cc_rules r
    cdef cc_prospect take, stock
    cdef cc_status st
    nd = _fast_hand(hand7, decks, 7, &h) if type(top) is Card else 0
    if nd:
        cm = _card_mask(rules)
        bit = (<uint64_t>1) << (<int>top.index)
        if decks is None and h.once & bit:
            nd = 2
        held = (1 if h.once & bit else 0) + (1 if h.twice & bit else 0)
        if not cm & bit or held + 1 > nd:
            nd = 0
    if nd:
        nd = _fast_unseen(unseen, decks, nd, cm, bit, h, &u)
        if nd and unseen is not None and (
                held + 1 + (1 if u.once & bit else 0) + (1 if u.twice & bit else 0)) > nd:
            nd = 0
    if not nd:
        hand, uo, ut, top = check_unseen(hand7, unseen, decks, check_rules(rules), 7, top=top)
        h.once = hand._once
        h.twice = hand._twice
        nd = hand._decks
        u.once = uo
        u.twice = ut
    r = _outlook_rules(rules, nd)
    t.once = (<uint64_t>1) << (<int>top.index)
    t.twice = 0
    st = cc_prospect_of(&r, h, t, &take)
    if st == CC_OK:
        st = cc_prospect_of(&r, h, u, &stock)
    if st != CC_OK:
        check_unseen(hand7, unseen, decks, check_rules(rules), 7, top=top)
        _raise_status(st)
    return tuple.__new__(DrawOutlook, (
        top, tuple.__new__(Prospect, _prospect_fields(&take)),
        tuple.__new__(Prospect, _prospect_fields(&stock))))


def _outlook_chunk(_CRules cr, const uint64_t[::1] flat, const uint64_t[::1] uflat,
                   double[::1] res, int decks, size_t lo, size_t hi):
    """Rows lo..hi of an outlook batch without the GIL: (status, absolute bad row)."""
    cdef size_t bad = 0
    cdef cc_status st
    with nogil:
        st = cc_outlook_batch(&cr.r, &flat[lo * decks], &uflat[lo * decks], hi - lo, decks,
                              &res[lo * 8 * CC_OUTLOOK_COLUMNS], &bad)
    return <int>st, lo + bad


def outlook_batch(masks, unseen_masks, *, threads=None, rules=None):
    cdef _CRules cr = _HOUSE_CR if rules is None or rules is HOUSE_RULES else _crules_of(
        check_rules(rules))
    rules_value = check_rules(rules)
    cdef int nthreads = check_threads(threads)
    arr, decks = normalize_batch(masks)
    try:
        uarr, udecks = normalize_batch(unseen_masks)
    except BatchRowError as exc:
        raise BatchRowError(f"unseen_masks: {exc}", exc.row) from None
    if uarr.shape != arr.shape:
        raise BatchRowError(f"unseen_masks must have the shape of masks {arr.shape}, "
                            f"got {uarr.shape}", -1)
    cdef size_t n = arr.shape[0]
    out = np.empty((n, 8, CC_OUTLOOK_COLUMNS), dtype=np.float64)
    if n == 0:
        return out
    flat = arr.reshape(-1)
    uflat = uarr.reshape(-1)
    res = out.reshape(-1)
    # an outlook row is ~1000x a hint row: split from a few hundred rows on
    cdef size_t chunks = min(<size_t>nthreads, (n + 255) // 256)
    if chunks <= 1:
        results = [_outlook_chunk(cr, flat, uflat, res, decks, 0, n)]
    else:
        step = (n + chunks - 1) // chunks
        global _pool
        if _pool is None:
            _pool = ThreadPoolExecutor(max_workers=os.cpu_count() or 2,
                                       thread_name_prefix="chinchon")
        futures = [_pool.submit(_outlook_chunk, cr, flat, uflat, res, decks, lo,
                                min(n, lo + step))
                   for lo in range(0, n, step)]
        results = [f.result() for f in futures]
    failures = [(row, st) for st, row in results if st != 0]
    if failures:
        row, st = min(failures)
        once = int(flat[row * decks])
        twice = 0 if decks == 1 else int(flat[row * decks + 1])
        status = row_status(once, twice, 8, rules_value)
        if status != "CC_OK":
            raise row_error(status, row, once)
        u_once = int(uflat[row * decks])
        u_twice = 0 if decks == 1 else int(uflat[row * decks + 1])
        status = unseen_row_status(once, twice, u_once, u_twice, decks, rules_value)
        if status != "CC_OK":
            raise unseen_row_error(status, row, u_once)
        raise row_error(_STATUS_NAMES.get(st, f"status {st}"), row, once)
    return out
