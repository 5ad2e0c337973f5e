# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: freethreading_compatible = True
"""The settlement of a closed hand (docs/rules.md#laying-off) over ``cc_settle``, for
every rule set.

Validation is shared with the reference (:func:`chinchon._args.prepare_settle`), so
both raise the same classes with the same messages. Fast path: when every hand is a
:class:`Hand`, the C core validates; on any bad-deal status the shared validation runs
to raise the documented error.
"""

from .chinchon cimport (CC_ERR_CANNOT_CLOSE, CC_OK, cc_hand, cc_rules, cc_settle, cc_settlement,
                        cc_status)
from ._common cimport crules_of, hand_masks, rules_for, status_name
from ._results cimport settlement_of

from .._args import MAX_OPPONENTS, cannot_close_error, deal_error, prepare_settle
from ..cards import Hand
from ..rules import HOUSE_RULES, Rules

cdef cc_rules _HOUSE = crules_of(None).r
cdef Py_ssize_t _MAX_OPPONENTS = MAX_OPPONENTS

# The Rules value of the last settle call and its cc_rules (Rules is frozen): a game
# settles every hand under one Rules value, and looking a Rules value up (its solver
# view, hashed) costs more than a small settlement. Read and written with the GIL held.
cdef object _last_rules = None
cdef cc_rules _last_crules


cdef inline void _remember_rules(object rules, const cc_rules *r):
    global _last_rules, _last_crules
    _last_crules = r[0]
    _last_rules = rules


def settle(closer7, opponents, *, decks=None, rules=None):
    cdef cc_hand hands[6]
    cdef cc_settlement out
    cdef cc_rules r
    cdef const cc_rules *rp
    cdef int n, k, c_decks, nd
    cdef bint says_two
    cdef cc_status st
    fast = (type(closer7) is Hand and type(opponents) in (list, tuple)
            and 1 <= len(opponents) <= _MAX_OPPONENTS
            and (decks is None or (type(decks) is int and (decks == 1 or decks == 2)))
            and (rules is None or isinstance(rules, Rules)))  # a preset name: slow path
    if fast:
        for h in opponents:
            if type(h) is not Hand:
                fast = False
                break
    if fast:
        n = len(opponents)
        # each hand's own masks (decks=None: a Hand never refuses them)
        hand_masks(closer7, None, &hands[0], &nd)
        says_two = nd == 2
        for k in range(n):
            hand_masks(opponents[k], None, &hands[k + 1], &nd)
            says_two = says_two or nd == 2
        # decks=None: a Hand of two decks makes it 2 (the set capacity under jokers), as
        # in prepare_settle; else the C core infers it from the cards
        c_decks = (2 if says_two else 0) if decks is None else decks
    else:
        masks, c_decks, rules = prepare_settle(closer7, opponents, decks, rules)
        n = len(masks) - 1
        for k in range(n + 1):
            hands[k].once = masks[k][0]
            hands[k].twice = masks[k][1]
    if rules is None or rules is HOUSE_RULES:
        rp = &_HOUSE
    elif rules is _last_rules:  # the same Rules value as the last call (a game's case)
        r = _last_crules  # a copy: the global may change under a free-threaded build
        rp = &r
    else:
        rules_for(rules, None, None, &r)
        _remember_rules(rules, &r)
        rp = &r
    # with the GIL, as every one-hand call: a settlement is 0.3-3 us of C, and giving the
    # GIL up and taking it back costs a tenth of that alone (more when another thread
    # holds it: then the wait is up to the switch interval, 5 ms)
    st = cc_settle(rp, hands[0], &hands[1], n, c_decks, &out)
    if st != CC_OK:
        if st == CC_ERR_CANNOT_CLOSE:
            raise cannot_close_error((hands[0].once, hands[0].twice), out.deadwood,
                                     HOUSE_RULES if rules is None else rules)
        if fast:  # the shared check names the problem (a joker the rules lack, ...)
            prepare_settle(closer7, opponents, decks, rules)
        raise deal_error(status_name(st),
                         [(hands[k].once, hands[k].twice) for k in range(n + 1)],
                         out.bad_seat, out.bad_card)
    return settlement_of(&out, rules)
