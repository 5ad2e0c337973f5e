# What every subject module of the binding shares (_common.pyx): the rules a call runs
# under, the one conversion of a hand to its masks, a C status raised as its exception,
# reading a slot of a Card or Hand, and batches split over threads.

from cpython.ref cimport PyObject
from libc.stdint cimport uint64_t

from .chinchon cimport cc_game_config, cc_hand, cc_rules, cc_status


cdef extern from *:
    """
    /* Index of the lowest set bit of x (x != 0), by de Bruijn multiplication: portable
     * C, a multiply, a shift and a load. The binding's own, so that it needs nothing of
     * the core but chinchon.h. */
    static const unsigned char chinchon_ctz_table[64] = {
        0, 1, 2, 53, 3, 7, 54, 27, 4, 38, 41, 8, 34, 55, 48, 28, 62, 5, 39, 46, 44, 42,
        22, 9, 24, 35, 59, 56, 49, 18, 29, 11, 63, 52, 6, 26, 37, 40, 33, 47, 61, 45, 43,
        21, 23, 58, 17, 10, 51, 25, 36, 32, 60, 20, 57, 16, 50, 31, 19, 15, 30, 14, 13, 12};
    static CYTHON_INLINE int chinchon_ctz(unsigned long long x)
    {
        return chinchon_ctz_table[((x & (~x + 1)) * 0x022FDD63CC95386DULL) >> 58];
    }
    """
    int chinchon_ctz(uint64_t x) noexcept nogil


cdef class CRules:
    """The C rules (cc_rules) of one Rules value's solver view."""
    cdef cc_rules r


cdef CRules crules_of(object rules)
cdef int rules_for(object rules, object hand, object decks, cc_rules *out) except -1

cdef Py_ssize_t slot_offset(type cls, str name) except -1
cdef int seat_bot(cc_game_config *cfg, int s, object name) except -1


cdef inline object read_slot(object obj, Py_ssize_t offset, str name):
    """The value in the slot at ``offset`` (from slot_offset) of obj, an instance of
    exactly that class, its field ``name`` (unset: raises as reading it does)."""
    cdef PyObject *v = (<PyObject**>((<char*><PyObject*>obj) + offset))[0]
    if v is NULL:
        return getattr(obj, name)
    return <object>v


cdef int str_bit(object text) noexcept
cdef PyObject *card_object(int bit) noexcept
cdef object card_order(object hand)
cdef int hand_masks(object hand, object decks, cc_hand *h, int *hand_decks,
                    bint parse=*) except -2
cdef int hand_of(object hand, object decks, int max_cards, int exact, cc_hand *h,
                 int *hand_decks) except -1

cdef str status_name(int status)
cdef int raise_status(int status) except -1
cdef int refused(object hand, object decks, object rules, int max_cards, int exact,
                 cc_status status) except -1

cdef tuple run_chunks(object chunk, size_t n, size_t chunks, tuple args)
